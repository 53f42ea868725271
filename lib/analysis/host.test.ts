import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { brandInputSchema, domainSchema } from "@/lib/brands/schemas";
import { normalizeUrl, registrableDomain, siteOf } from "@/lib/analysis/citations";
import { displayHost, displayUrl, isValidAsciiHost, normalizeHost } from "@/lib/analysis/host";
import { parseReadinessOrigins } from "@/lib/net/readiness-origins";

describe("normalizeHost", () => {
  it("writes an international name in the ASCII form URLs carry", () => {
    expect(normalizeHost("bücher.de")).toBe("xn--bcher-kva.de");
    expect(normalizeHost("https://www.BÜCHER.de:8443/preise?x=1")).toBe("xn--bcher-kva.de");
    expect(normalizeHost("пример.рф")).toBe("xn--e1afmkfd.xn--p1ai");
    expect(normalizeHost("xn--bcher-kva.de")).toBe("xn--bcher-kva.de");
    // What a citation of the site is stored under, from its URL.
    expect(registrableDomain(normalizeUrl("https://bücher.de/preise")!)).toBe(normalizeHost("bücher.de"));
  });

  it("shows a stored name as people write it", () => {
    expect(displayHost("xn--bcher-kva.de")).toBe("bücher.de");
    expect(displayHost(normalizeHost("пример.рф"))).toBe("пример.рф");
    expect(displayHost("example.com")).toBe("example.com");
    expect(displayHost(normalizeHost("例え.jp"))).toBe("例え.jp");
    // Look-alikes stay in ASCII form, as browsers show them: Cyrillic letters that read as "apple".
    expect(displayHost("xn--80ak6aa92e.com")).toBe("xn--80ak6aa92e.com");
    expect(displayHost(normalizeHost("bücher-пример.de"))).toBe("xn--bcher--3ya917d0a4b5amd.de");
    // A label that does not decode to what it encodes is shown as stored.
    expect(displayHost("xn--a.de")).toBe("xn--a.de");
    expect(displayUrl("https://www.xn--bcher-kva.de/xn--preise?q=xn--")).toBe("https://www.bücher.de/xn--preise?q=xn--");
    expect(displayUrl("https://user@xn--e1afmkfd.xn--p1ai:8080/")).toBe("https://user@пример.рф:8080/");
    expect(displayUrl("https://example.com/xn--a")).toBe("https://example.com/xn--a");
    expect(displayUrl("not a url xn--")).toBe("not a url xn--");
  });

  it("leaves ASCII hosts and what the URL parser refuses as they were", () => {
    expect(normalizeHost("Example.COM.")).toBe("example.com");
    expect(normalizeHost("www.www.example.com")).toBe("example.com");
    expect(normalizeHost("a\u0000b.de")).toBe("a\u0000b.de");
    expect(normalizeHost("bü cher.de")).toBe("bü cher.de");
  });

  it("is idempotent, and a site is the same whichever form names it", () => {
    const label = fc.stringMatching(/^[a-z0-9äöüßéñж-]{1,12}$/);
    fc.assert(
      fc.property(fc.array(fc.oneof(label, fc.constant("www")), { minLength: 1, maxLength: 4 }), fc.constantFrom("de", "com", "co.uk", "рф"), fc.constantFrom("", ".", "。", ".."), (labels, suffix, end) => {
        const host = `${labels.join(".")}.${suffix}${end}`;
        const once = normalizeHost(host);
        expect(normalizeHost(once)).toBe(once);
        expect(siteOf(host)).toBe(siteOf(once));
      }),
    );
  });

  it("is how BEACON_READINESS_ORIGINS keys its domains, so a brand's domain finds its origin", () => {
    const label = fc.stringMatching(/^[a-z0-9äöüßéñжA-Z-]{1,12}$/);
    fc.assert(
      fc.property(fc.array(fc.oneof(label, fc.constant("www")), { minLength: 1, maxLength: 4 }), fc.constantFrom("de", "com", "co.uk", "рф"), fc.constantFrom("", "."), (labels, suffix, end) => {
        const host = `${labels.join(".")}.${suffix}${end}`;
        const parsed = parseReadinessOrigins(`${host}=http://127.0.0.1:8080`);
        // A name the URL standard refuses (e.g. "xn--" followed by junk) is refused at the start.
        expect(parsed.ok).toBe(isValidAsciiHost(normalizeHost(host)));
        if (parsed.ok) expect([...parsed.origins.keys()]).toEqual([normalizeHost(host)]);
      }),
    );
  });
});

describe("a brand's domains", () => {
  it("are stored in ASCII form, so they compare equal to citations, crawler hits and visits", () => {
    expect(domainSchema.parse("https://www.bücher.de/")).toBe("xn--bcher-kva.de");
    expect(domainSchema.parse("münchen.de:8080")).toBe("xn--mnchen-3ya.de");
    expect(domainSchema.parse("пример.рф")).toBe("xn--e1afmkfd.xn--p1ai");
    const brand = brandInputSchema.parse({ name: "Bücher", domains: ["bücher.de", "xn--bcher-kva.de"], competitors: [{ name: "Rival", domains: ["Bücherei.AT"] }] });
    expect(brand.domains).toEqual(["xn--bcher-kva.de"]);
    expect(brand.competitors[0]!.domains).toEqual(["xn--bcherei-n2a.at"]);
  });

  it("refuses what is no host name", () => {
    for (const bad of ["bü cher.de", "a\u0000b.de", "localhost", "ex*ample.com", "bücher", "xn--a.de", "xn--zz.com"]) {
      expect(domainSchema.safeParse(bad).success, bad).toBe(false);
    }
  });
});
