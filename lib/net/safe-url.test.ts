import fc from "fast-check";
import ipaddr from "ipaddr.js";
import { describe, expect, it } from "vitest";
import { refusedAddress } from "@/lib/net/safe-url";

describe("refusedAddress", () => {
  it("lets public unicast addresses through", () => {
    for (const a of ["93.184.215.14", "8.8.8.8", "2606:4700:4700::1111", "::ffff:8.8.8.8"]) expect(refusedAddress(a), a).toBeNull();
  });
  it("refuses loopback, private, link-local (metadata), unique-local, unspecified and the like", () => {
    const cases: [string, RegExp][] = [
      ["127.0.0.1", /loopback/], ["::1", /loopback/], ["10.1.2.3", /private/], ["172.16.0.1", /private/], ["192.168.1.1", /private/],
      ["169.254.169.254", /linkLocal/], ["fe80::1", /linkLocal/], ["fd00::1", /uniqueLocal/], ["0.0.0.0", /unspecified/], ["::", /unspecified/],
      ["100.64.0.1", /carrierGradeNat/], ["::ffff:10.0.0.1", /private/], ["::ffff:127.0.0.1", /loopback/],
    ];
    for (const [a, why] of cases) expect(refusedAddress(a), a).toMatch(why);
  });
  it("refuses IPv6 forms that carry an IPv4 address: compatible, NAT64, 6to4, Teredo", () => {
    for (const a of ["::127.0.0.1", "::7f00:1", "::10.0.0.1", "::169.254.169.254", "64:ff9b::127.0.0.1", "64:ff9b:1::a00:1", "2002:7f00:1::", "2002:a9fe:a9fe::1", "2001:0:7f00:1::"]) {
      expect(refusedAddress(a), a).not.toBeNull();
    }
  });
});

// Property tests over the whole address space: only public unicast passes, however it is written.

const v4 = fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255), fc.nat(255)).map((o) => o.join("."));
const v4Range = (a: string) => ipaddr.IPv4.parse(a).range();
const nonPublicV4 = v4.filter((a) => v4Range(a) !== "unicast");
const hextets = (a: string) => {
  const [o1, o2, o3, o4] = ipaddr.IPv4.parse(a).octets;
  return [((o1! << 8) | o2!).toString(16), ((o3! << 8) | o4!).toString(16)];
};
/** Every IPv6 spelling of an IPv4 address that a resolver or a URL might hand the guard. */
const embeddings = (a: string) => {
  const [hi, lo] = hextets(a);
  return [`::${a}`, `::${hi}:${lo}`, `::ffff:${a}`, `::ffff:${hi}:${lo}`, `64:ff9b::${a}`, `64:ff9b:1::${hi}:${lo}`, `2002:${hi}:${lo}::1`, `2001:0:${hi}:${lo}::1`, `::ffff:0:${a}`];
};
const v6 = fc.array(fc.nat(0xffff), { minLength: 8, maxLength: 8 }).map((h) => h.map((x) => x.toString(16)).join(":"));

describe("refusedAddress (properties)", () => {
  it("refuses every IPv4 address outside public unicast, and every IPv6 spelling of it", () => {
    fc.assert(
      fc.property(nonPublicV4, (a) => {
        expect(refusedAddress(a), a).not.toBeNull();
        for (const e of embeddings(a)) expect(refusedAddress(e), e).not.toBeNull();
      }),
    );
  });

  it("accepts an IPv4 address exactly when ipaddr.js calls it unicast, also written as IPv4-mapped", () => {
    fc.assert(
      fc.property(v4, (a) => {
        const ok = v4Range(a) === "unicast";
        expect(refusedAddress(a) === null, a).toBe(ok);
        expect(refusedAddress(`::ffff:${a}`) === null, a).toBe(ok);
      }),
    );
  });

  it("accepts an IPv6 address only in global unicast (2000::/3) outside every special range", () => {
    fc.assert(
      fc.property(v6, (a) => {
        const parsed = ipaddr.IPv6.parse(a);
        const allowed = parsed.range() === "unicast" && parsed.match(ipaddr.IPv6.parse("2000::"), 3);
        expect(refusedAddress(a) === null, a).toBe(allowed);
      }),
    );
  });

  it("refuses everything under ::/8, ::ffff:0:0/96 aside (those are judged as the IPv4 address)", () => {
    const low = fc.tuple(fc.nat(0xff), fc.array(fc.nat(0xffff), { minLength: 7, maxLength: 7 })).map(([first, rest]) => [first.toString(16), ...rest.map((x) => x.toString(16))].join(":"));
    fc.assert(
      fc.property(low, (a) => {
        const parsed = ipaddr.IPv6.parse(a);
        if (parsed.isIPv4MappedAddress()) return;
        expect(refusedAddress(a), a).not.toBeNull();
      }),
    );
  });

  it("never throws, whatever the text", () => {
    fc.assert(fc.property(fc.string(), (s) => void refusedAddress(s)));
  });
});
