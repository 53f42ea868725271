import { describe, expect, it } from "vitest";
import { refusedAddress } from "@/lib/alerts/safe-url";

describe("refusedAddress", () => {
  it("lets public unicast addresses through", () => {
    for (const a of ["93.184.215.14", "8.8.8.8", "2606:4700:4700::1111"]) expect(refusedAddress(a), a).toBeNull();
  });
  it("refuses loopback, private, link-local (metadata), unique-local, unspecified and the like", () => {
    const cases: [string, RegExp][] = [
      ["127.0.0.1", /loopback/], ["::1", /loopback/], ["10.1.2.3", /private/], ["172.16.0.1", /private/], ["192.168.1.1", /private/],
      ["169.254.169.254", /linkLocal/], ["fe80::1", /linkLocal/], ["fd00::1", /uniqueLocal/], ["0.0.0.0", /unspecified/], ["::", /unspecified/],
      ["100.64.0.1", /carrierGradeNat/], ["::ffff:10.0.0.1", /private/], ["::ffff:127.0.0.1", /loopback/],
    ];
    for (const [a, why] of cases) expect(refusedAddress(a), a).toMatch(why);
  });
});
