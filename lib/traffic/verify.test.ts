import { describe, expect, it } from "vitest";
import { cidrsOf, RangeVerifier, shippedRanges } from "@/lib/traffic/verify";

describe("RangeVerifier", () => {
  const verifier = new RangeVerifier(shippedRanges());

  it("verifies GPTBot from an address in OpenAI's published ranges (shipped snapshot)", () => {
    expect(verifier.verify("GPTBot", "20.171.206.17")).toBe("verified");
    expect(verifier.verify("GPTBot", "::ffff:20.171.206.17")).toBe("verified");
    expect(verifier.verify("OAI-SearchBot", "51.8.102.200")).toBe("verified");
  });

  it("calls a claim from another address, a missing one or garbage unverified", () => {
    expect(verifier.verify("GPTBot", "203.0.113.9")).toBe("unverified");
    expect(verifier.verify("GPTBot", "2001:db8::1")).toBe("unverified");
    expect(verifier.verify("GPTBot", null)).toBe("unverified");
    expect(verifier.verify("GPTBot", "not-an-ip")).toBe("unverified");
    // OAI-SearchBot's ranges are not GPTBot's.
    expect(verifier.verify("GPTBot", "51.8.102.200")).toBe("unverified");
  });

  it("leaves crawlers without published ranges unchecked", () => {
    expect(verifier.verify("ClaudeBot", "203.0.113.9")).toBe("unchecked");
  });

  it("takes IPv6 prefixes from an operator's file", () => {
    const v = new RangeVerifier(new Map([["PerplexityBot", cidrsOf({ prefixes: [{ ipv6Prefix: "2001:db8:aa::/48" }, { ipv4Prefix: "198.51.100.0/24" }] })]]));
    expect(v.verify("PerplexityBot", "2001:db8:aa:1::5")).toBe("verified");
    expect(v.verify("PerplexityBot", "[2001:db8:ab::5]")).toBe("unverified");
    expect(v.verify("PerplexityBot", "198.51.100.77")).toBe("verified");
  });

  it("refuses a file with a prefix that is not a CIDR", () => {
    expect(() => cidrsOf({ prefixes: [{ ipv4Prefix: "20.171.206.0/33" }] })).toThrow(/not a CIDR/);
  });
});
