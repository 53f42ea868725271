import "server-only";
import dns from "node:dns";
import type { LookupFunction } from "node:net";
import ipaddr from "ipaddr.js";

// The SSRF guard for every outgoing request whose target a workspace chooses (alert channels'
// Slack and webhook URLs, site readiness's brand domains). The worker makes these calls, so on a
// shared instance they must not reach the instance's own network: loopback, private, link-local
// (169.254.x, cloud metadata), unique-local, unspecified and every other non-public range are
// refused unless the operator exempts them. IPv6 that carries an IPv4 address (NAT64, 6to4,
// Teredo, IPv4-compatible ::a.b.c.d) is refused too: only public unicast passes, and for IPv6 that
// is inside 2000::/3 (IANA's global unicast). The connection is pinned to the address that was
// checked (the `lookup` below), so a DNS answer that changes in between cannot slip by.

export class UnsafeUrlError extends Error {}

const GLOBAL_UNICAST = ipaddr.parseCIDR("2000::/3") as [ipaddr.IPv6, number];

/** Why an address may not be called, or null when it may. */
export function refusedAddress(address: string): string | null {
  if (!ipaddr.isValid(address)) return `${address} is not an IP address`;
  // An IPv4-mapped IPv6 address (::ffff:10.0.0.1) is judged as the IPv4 address it is.
  const parsed = ipaddr.process(address);
  const range = parsed.range();
  if (range !== "unicast") return `${address} is a ${range} address`;
  // ipaddr.js calls whatever is in none of its special ranges "unicast", which includes the
  // deprecated IPv4-compatible ::a.b.c.d (::127.0.0.1 reaches loopback on some stacks) and the
  // rest of ::/8 and other unassigned space: no public host lives outside 2000::/3.
  if (parsed.kind() === "ipv6" && !parsed.match(GLOBAL_UNICAST)) return `${address} is a reserved address (outside IPv6 global unicast)`;
  return null;
}

async function resolveAll(hostname: string): Promise<{ address: string; family: number }[]> {
  const host = hostname.replace(/^\[|\]$/g, "");
  if (ipaddr.isValid(host)) return [{ address: host, family: ipaddr.parse(host).kind() === "ipv6" ? 6 : 4 }];
  try {
    return await dns.promises.lookup(host, { all: true, verbatim: true });
  } catch {
    throw new UnsafeUrlError(`${host} could not be resolved`);
  }
}

export type AddressGuard = {
  /** The addresses `hostname` resolves to, all of them allowed; throws UnsafeUrlError otherwise. */
  checkedAddresses(hostname: string): Promise<{ address: string; family: number }[]>;
  /**
   * A `lookup` for http(s).request that resolves, refuses what checkedAddresses refuses and
   * connects to the address it checked. (Node does not call `lookup` for an IP literal: callers
   * check literals with checkedAddresses first.)
   */
  lookup: LookupFunction;
};

/**
 * A guard that refuses non-public addresses except those `exempt` lets through (read at every
 * call, so an operator's setting applies from the next request on).
 */
export function addressGuard(exempt: (address: string) => boolean): AddressGuard {
  async function checkedAddresses(hostname: string) {
    const addresses = await resolveAll(hostname);
    if (!addresses.length) throw new UnsafeUrlError(`${hostname} has no address`);
    for (const { address } of addresses) {
      const why = refusedAddress(address);
      if (why && !exempt(address)) throw new UnsafeUrlError(`${hostname} resolves to an internal address (${why}); only public addresses can be called`);
    }
    return addresses;
  }
  const lookup: LookupFunction = (hostname, options, callback) => {
    checkedAddresses(hostname).then(
      (addresses) => {
        const family = typeof options === "object" && options?.family ? Number(options.family) : 0;
        const usable = family ? addresses.filter((a) => a.family === family) : addresses;
        if (!usable.length) return callback(new UnsafeUrlError(`${hostname} has no IPv${family} address`), "", 0);
        if (typeof options === "object" && options?.all) return (callback as unknown as (e: null, a: typeof usable) => void)(null, usable);
        callback(null, usable[0]!.address, usable[0]!.family);
      },
      (error: Error) => callback(error, "", 0),
    );
  };
  return { checkedAddresses, lookup };
}
