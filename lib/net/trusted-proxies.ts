// Who is the client? The socket's peer, unless that peer is a proxy the operator trusts
// (BEACON_TRUSTED_PROXIES); then X-Forwarded-For is read from the right, each trusted hop
// skipped, and the first untrusted hop is the client. Whatever a client writes further left is
// never believed. Pure (node:net only), so the launcher's environment check and unit tests use it.
import { BlockList, isIP } from "node:net";

export type TrustedProxies = BlockList;

type Parsed = { address: string; family: "ipv4" | "ipv6" };

/** An address as peers and proxies write it: IPv4-mapped IPv6 becomes IPv4, zone and brackets go. */
export function parseAddress(raw: string): Parsed | null {
  let value = raw.trim();
  if (value.startsWith("[")) {
    // "[2001:db8::1]:443" or "[2001:db8::1]"
    const end = value.indexOf("]");
    if (end < 0) return null;
    value = value.slice(1, end);
  } else if (/^\d{1,3}(\.\d{1,3}){3}:\d+$/.test(value)) {
    value = value.slice(0, value.lastIndexOf(":"));
  }
  value = value.replace(/%[\w.-]+$/, "").toLowerCase();
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/.exec(value);
  if (mapped) value = mapped[1]!;
  const version = isIP(value);
  if (version === 4) return { address: value, family: "ipv4" };
  if (version === 6) return { address: value, family: "ipv6" };
  return null;
}

/**
 * Parses BEACON_TRUSTED_PROXIES: addresses and CIDR ranges separated by commas or spaces, e.g.
 * "127.0.0.1, 10.0.0.0/8, fd00::/8". Returns the problem instead when an entry is not one.
 */
export function parseTrustedProxies(spec: string): { ok: true; proxies: TrustedProxies } | { ok: false; error: string } {
  const proxies = new BlockList();
  const entries = spec.split(/[\s,]+/).filter(Boolean);
  if (!entries.length) return { ok: false, error: "list at least one address or CIDR range" };
  for (const entry of entries) {
    const [host = "", prefix, extra] = entry.split("/");
    const parsed = parseAddress(host);
    if (!parsed || extra !== undefined) return { ok: false, error: `"${entry}" is not an IP address or CIDR range` };
    if (prefix === undefined) {
      proxies.addAddress(parsed.address, parsed.family);
      continue;
    }
    const bits = Number(prefix);
    const max = parsed.family === "ipv4" ? 32 : 128;
    if (!/^\d{1,3}$/.test(prefix) || bits > max) return { ok: false, error: `"${entry}" has an invalid prefix length (0 to ${max})` };
    proxies.addSubnet(parsed.address, bits, parsed.family);
  }
  return { ok: true, proxies };
}

const trusts = (proxies: TrustedProxies | null, hop: Parsed) => !!proxies && proxies.check(hop.address, hop.family);

/**
 * The client's address: `peer` (the socket's remote address) unless it is a trusted proxy; then
 * the rightmost hop of `forwardedFor` that is not a trusted proxy (or the leftmost hop when all
 * are). A malformed hop ends the walk at the last trusted one. Null when the peer is unknown.
 */
export function resolveClientAddress(peer: string | null | undefined, forwardedFor: string | null | undefined, proxies: TrustedProxies | null): string | null {
  const direct = peer ? parseAddress(peer) : null;
  if (!direct) return null;
  let client = direct;
  if (!trusts(proxies, client)) return client.address;
  const hops = (forwardedFor ?? "").split(",").map((hop) => hop.trim()).filter(Boolean);
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = parseAddress(hops[i]!);
    if (!hop) break;
    client = hop;
    if (!trusts(proxies, hop)) break;
  }
  return client.address;
}

function ipv6Groups(address: string): number[] {
  let text = address;
  // An IPv4 tail ("64:ff9b::192.0.2.1") is two groups.
  const v4 = /(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(text);
  if (v4) {
    const [a, b, c, d] = v4.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, v4.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = "", tail] = text.split("::");
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const zeros = tail === undefined ? [] : Array<string>(8 - left.length - right.length).fill("0");
  return [...left, ...zeros, ...right].map((group) => parseInt(group, 16));
}

/**
 * The key a client address is counted under: an IPv4 address itself, an IPv6 address by its
 * /64 (one subscriber usually holds a whole /64, so single addresses would be free to rotate).
 */
export function addressKey(address: string): string {
  const parsed = parseAddress(address);
  if (!parsed) return address;
  if (parsed.family === "ipv4") return parsed.address;
  return `${ipv6Groups(parsed.address)
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(":")}::/64`;
}
