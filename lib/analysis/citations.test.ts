import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { overrideDomain } from "@/lib/sources/schemas";
import { extractCitations, normalizeUrl, registrableDomain } from "./citations";

describe("normalizeUrl", () => {
  it("drops tracking parameters and fragments, keeps the rest", () => {
    expect(normalizeUrl("https://Example.com/a?utm_source=x&id=7&gclid=1#top")).toBe("https://example.com/a?id=7");
  });
  it("refuses non-web URLs", () => {
    expect(normalizeUrl("mailto:a@b.c")).toBeNull();
    expect(normalizeUrl("not a url")).toBeNull();
  });
});

describe("registrableDomain", () => {
  it("uses the public suffix list", () => {
    expect(registrableDomain("https://www.bbc.co.uk/news")).toBe("bbc.co.uk");
    expect(registrableDomain("https://blog.hubspot.com/x")).toBe("hubspot.com");
  });

  it("uses the list's private section: each site under a shared host is its own domain", () => {
    expect(registrableDomain("https://www.capterra.com.de/software")).toBe("capterra.com.de");
    expect(registrableDomain("https://alice.github.io/post")).toBe("alice.github.io");
    expect(registrableDomain("https://bob.github.io/")).toBe("bob.github.io");
    expect(registrableDomain("https://news.blogspot.com/")).toBe("news.blogspot.com");
    expect(registrableDomain("https://acme.notion.site/docs")).toBe("acme.notion.site");
  });

  it("keeps the shared host itself as a domain (github.io's own pages are not dropped)", () => {
    expect(registrableDomain("https://github.io/")).toBe("github.io");
  });

  const label = fc.stringMatching(/^[a-z][a-z0-9-]{0,20}[a-z0-9]$/);
  const privateSuffix = fc.constantFrom("github.io", "com.de", "blogspot.com", "netlify.app", "herokuapp.com", "readthedocs.io", "pages.dev");

  it("a site under a private suffix is counted apart from every other site there (property)", () => {
    fc.assert(
      fc.property(label, label, fc.option(label, { nil: undefined }), privateSuffix, (a, b, sub, suffix) => {
        const host = (name: string) => `https://${sub ? `${sub}.` : ""}${name}.${suffix}/page`;
        expect(registrableDomain(host(a))).toBe(`${a}.${suffix}`);
        if (a !== b) expect(registrableDomain(host(a))).not.toBe(registrableDomain(host(b)));
      }),
    );
  });

  it("a workspace can set a category for what citations store, a site under a private suffix included", () => {
    for (const domain of ["capterra.com.de", "alice.github.io", "github.io", "g2.com"]) expect(overrideDomain.safeParse(domain).success, domain).toBe(true);
    expect(overrideDomain.safeParse("www.capterra.com.de").data).toBe("capterra.com.de");
    expect(overrideDomain.safeParse("blog.alice.github.io").success).toBe(false);
  });
});

describe("extractCitations", () => {
  it("takes the domain of Gemini's grounding redirect links from their title", () => {
    const [citation] = extractCitations({
      text: "",
      sources: [{ url: "https://vertexaisearch.cloud.google.com/grounding-api-redirect/AbC123", title: "hubspot.com", citedInText: true }],
      ownDomains: [],
    });
    expect(citation?.domain).toBe("hubspot.com");
  });

  it("merges provider sources with URLs in the text and flags own domains", () => {
    const citations = extractCitations({
      text: "See [Lumen](https://www.lumencrm.com/pricing?utm_medium=ai) and https://g2.com/crm.",
      sources: [
        { url: "https://g2.com/crm", title: "G2", citedInText: false },
        { url: "https://www.capterra.com/crm/", title: "Capterra", citedInText: false },
      ],
      ownDomains: ["lumencrm.com"],
    });
    expect(citations).toEqual([
      { url: "https://g2.com/crm", title: "G2", domain: "g2.com", isOwnDomain: false, citedInText: true },
      { url: "https://www.capterra.com/crm/", title: "Capterra", domain: "capterra.com", isOwnDomain: false, citedInText: false },
      { url: "https://www.lumencrm.com/pricing", title: null, domain: "lumencrm.com", isOwnDomain: true, citedInText: true },
    ]);
  });
});
