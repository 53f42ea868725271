import { describe, expect, it } from "vitest";
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
