import { describe, expect, it } from "vitest";
import { categorize, categoryContext, shippedCategory, SOURCE_CATEGORIES } from "@/lib/sources/categories";
import { normalizeHost } from "@/lib/analysis/host";
import { SOURCE_DOMAINS } from "@/lib/sources/source-domains";

const none = categoryContext({ ownDomains: [], competitorDomains: [] });

describe("the shipped mapping", () => {
  it("puts the domains the simulator cites and the common ones in their category", () => {
    const expected = {
      "g2.com": "review", "capterra.com": "review", "trustradius.com": "review", "techradar.com": "review", "pcmag.com": "review",
      "reddit.com": "forum", "quora.com": "forum", "stackoverflow.com": "forum",
      "forbes.com": "news", "techcrunch.com": "news", "nytimes.com": "news",
      "wikipedia.org": "reference", "britannica.com": "reference",
      "youtube.com": "social", "linkedin.com": "social", "x.com": "social",
      "readthedocs.io": "docs", "github.com": "docs",
    } as const;
    for (const [domain, category] of Object.entries(expected)) expect(categorize(domain, none), domain).toBe(category);
  });

  it("lists each domain once, in lower case, without www", () => {
    const all = Object.values(SOURCE_DOMAINS).flat();
    expect(all.length).toBeGreaterThan(300);
    expect(new Set(all).size).toBe(all.length);
    for (const d of all) expect(normalizeHost(d), d).toBe(d);
  });

  it("finds a host under its parent and a listed host before its parent", () => {
    expect(categorize("en.wikipedia.org", none)).toBe("reference");
    expect(categorize("https://www.reddit.com/r/sales/", none)).toBe("forum");
    expect(categorize("learn.microsoft.com", none)).toBe("docs");
    expect(categorize("microsoft.com", none)).toBe("other");
  });
});

describe("patterns", () => {
  it("documentation and community subdomains", () => {
    expect(categorize("docs.pipedrive.com", none)).toBe("docs");
    expect(categorize("developer.example.co.uk", none)).toBe("docs");
    expect(categorize("help.acme.io", none)).toBe("docs");
    expect(categorize("community.example.com", none)).toBe("forum");
    // The word as a registrable name is not a subdomain.
    expect(categorize("docs.com", none)).toBe("other");
  });

  it("public-sector and academic suffixes, review words in the name", () => {
    expect(categorize("mit.edu", none)).toBe("reference");
    expect(categorize("ox.ac.uk", none)).toBe("reference");
    expect(categorize("bund.gov.de", none)).toBe("reference");
    expect(categorize("crmreviews.net", none)).toBe("review");
    expect(categorize("crm-comparison.io", none)).toBe("review");
    expect(categorize("example.com", none)).toBe("other");
  });
});

describe("a workspace's context", () => {
  const ctx = categoryContext({
    ownDomains: ["https://www.Acme.com/", "acme.io"],
    competitorDomains: ["rival.com", "not a domain"],
    overrides: [{ domain: "example.com", category: "news" }, { domain: "g2.com", category: "other" }, { domain: "rival.com", category: "forum" }],
  });

  it("derives own and competitor from the entered domains, subdomains included", () => {
    expect(categorize("acme.com", ctx)).toBe("own");
    expect(categorize("docs.acme.com", ctx)).toBe("own");
    expect(categorize("acme.io", ctx)).toBe("own");
    expect(categorize("notacme.com", ctx)).toBe("other");
    expect(categorize("rival.com", ctx)).toBe("competitor");
    expect(categorize("blog.rival.com", ctx)).toBe("competitor");
  });

  it("an override replaces the shipped category, but never own or competitor", () => {
    expect(categorize("example.com", ctx)).toBe("news");
    expect(categorize("g2.com", ctx)).toBe("other");
    expect(shippedCategory("g2.com")).toBe("review");
    expect(categorize("rival.com", ctx)).toBe("competitor");
    expect(categorize("capterra.com", ctx)).toBe("review");
  });

  it("every result is one of the categories", () => {
    for (const d of ["acme.com", "rival.com", "example.com", "x.org", "docs.y.com"]) expect(SOURCE_CATEGORIES).toContain(categorize(d, ctx));
  });
});
