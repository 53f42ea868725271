import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { addressKey, parseAddress, parseTrustedProxies, resolveClientAddress, type TrustedProxies } from "./trusted-proxies";

function proxies(spec: string): TrustedProxies {
  const parsed = parseTrustedProxies(spec);
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.proxies;
}

describe("parseTrustedProxies", () => {
  it("accepts addresses and CIDR ranges of both families, separated by commas or spaces", () => {
    const list = proxies("127.0.0.1, 10.0.0.0/8 ::1 fd00::/8,192.168.1.0/24");
    expect(list.check("10.200.3.4", "ipv4")).toBe(true);
    expect(list.check("192.168.1.77", "ipv4")).toBe(true);
    expect(list.check("192.168.2.1", "ipv4")).toBe(false);
    expect(list.check("fd12::1", "ipv6")).toBe(true);
    expect(list.check("::1", "ipv6")).toBe(true);
  });

  it.each(["", " , ", "localhost", "10.0.0.0/33", "10.0.0.0/8/1", "fd00::/129", "10.0.0.0/x", "300.1.1.1", "10.0.0.0/-1"])("refuses %j with a message", (spec) => {
    const parsed = parseTrustedProxies(spec);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.error.length).toBeGreaterThan(0);
  });
});

describe("resolveClientAddress", () => {
  const behindProxy = proxies("10.0.0.0/8");

  it("is the socket's peer when no proxy is trusted: X-Forwarded-For is ignored", () => {
    expect(resolveClientAddress("203.0.113.9", "198.51.100.1", null)).toBe("203.0.113.9");
    expect(resolveClientAddress("::ffff:203.0.113.9", "198.51.100.1, 10.0.0.1", null)).toBe("203.0.113.9");
  });

  it("is the socket's peer when the peer is not a trusted proxy", () => {
    expect(resolveClientAddress("203.0.113.9", "198.51.100.1", behindProxy)).toBe("203.0.113.9");
  });

  it("behind a trusted proxy, is the hop the proxy appended, not what the client wrote further left", () => {
    expect(resolveClientAddress("10.0.0.5", "198.51.100.7", behindProxy)).toBe("198.51.100.7");
    // The client sent "X-Forwarded-For: 1.2.3.4"; the proxy appended the real address.
    expect(resolveClientAddress("10.0.0.5", "1.2.3.4, 198.51.100.7", behindProxy)).toBe("198.51.100.7");
    // Two trusted proxies in a row.
    expect(resolveClientAddress("10.0.0.5", "1.2.3.4, 198.51.100.7, 10.9.9.9", behindProxy)).toBe("198.51.100.7");
  });

  it("stops at a malformed hop, keeping the last trusted one", () => {
    expect(resolveClientAddress("10.0.0.5", "garbage", behindProxy)).toBe("10.0.0.5");
    expect(resolveClientAddress("10.0.0.5", "198.51.100.7, garbage, 10.1.1.1", behindProxy)).toBe("10.1.1.1");
  });

  it("is the leftmost hop when every hop is a trusted proxy, and the proxy when there is no header", () => {
    expect(resolveClientAddress("10.0.0.5", "10.1.1.1, 10.2.2.2", behindProxy)).toBe("10.1.1.1");
    expect(resolveClientAddress("10.0.0.5", null, behindProxy)).toBe("10.0.0.5");
  });

  it("reads hops with ports, brackets and IPv4-mapped IPv6", () => {
    expect(resolveClientAddress("10.0.0.5", "198.51.100.7:51234", behindProxy)).toBe("198.51.100.7");
    expect(resolveClientAddress("10.0.0.5", "[2001:db8::7]:443", behindProxy)).toBe("2001:db8::7");
    expect(resolveClientAddress("::ffff:10.0.0.5", "::ffff:198.51.100.7", behindProxy)).toBe("198.51.100.7");
  });

  it("is unknown without a peer", () => {
    expect(resolveClientAddress(null, "198.51.100.7", behindProxy)).toBeNull();
    expect(resolveClientAddress("", "198.51.100.7", behindProxy)).toBeNull();
  });

  it("never believes a header from an untrusted peer, whatever the header says", () => {
    const v4 = fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255), fc.nat(255)).map((parts) => parts.join("."));
    const hop = fc.oneof(v4, fc.ipV6(), fc.string());
    fc.assert(
      fc.property(v4.filter((peer) => !peer.startsWith("10.")), fc.array(hop, { maxLength: 6 }), (peer, hops) => {
        expect(resolveClientAddress(peer, hops.join(", "), behindProxy)).toBe(parseAddress(peer)!.address);
      }),
    );
  });
});

describe("addressKey", () => {
  it("counts IPv4 addresses one by one and IPv6 addresses by their /64", () => {
    expect(addressKey("203.0.113.9")).toBe("203.0.113.9");
    expect(addressKey("2001:db8:1:2:aaaa::1")).toBe("2001:db8:1:2::/64");
    expect(addressKey("2001:db8:1:2:bbbb:cccc:dddd:eeee")).toBe("2001:db8:1:2::/64");
    expect(addressKey("2001:db8::1")).toBe("2001:db8:0:0::/64");
    expect(addressKey("::1")).toBe("0:0:0:0::/64");
    expect(addressKey("64:ff9b::192.0.2.1")).toBe("64:ff9b:0:0::/64");
  });
});
