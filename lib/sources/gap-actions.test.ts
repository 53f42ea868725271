import { describe, expect, it } from "vitest";
import { SOURCE_CATEGORIES } from "@/lib/sources/categories";
import { gapSourceAction } from "@/lib/sources/gap-actions";

const action = (category: (typeof SOURCE_CATEGORIES)[number], competitors = ["Pipedrive", "HubSpot"]) =>
  gapSourceAction({ domain: "g2.com", category, brandName: "Acme", competitors });

describe("what to do about a gap source", () => {
  it("says one specific thing per category, naming the site, the brand or the competitors", () => {
    expect(action("review")).toBe("Get Acme listed on g2.com and ask customers for reviews there.");
    expect(action("forum")).toBe("Answer threads on g2.com where Pipedrive and HubSpot are recommended.");
    expect(action("forum", ["Pipedrive"])).toBe("Answer threads on g2.com where Pipedrive is recommended.");
    expect(action("news")).toBe("Pitch a story or a guest post to g2.com.");
    expect(action("reference")).toMatch(/^Check Acme's entry on g2\.com/);
    expect(action("social")).toMatch(/compare Acme with Pipedrive and HubSpot\.$/);
    expect(action("docs")).toMatch(/^See which pages of g2\.com are cited next to Pipedrive and HubSpot/);
    expect(action("other")).toBe(action("docs"));
    expect(action("competitor")).toMatch(/^A competitor's own site/);
    expect(action("own")).toMatch(/^Acme's own site/);
  });

  it("names two competitors at most, and copes with none", () => {
    expect(action("forum", ["A", "B", "C"])).toBe("Answer threads on g2.com where A, B and others are recommended.");
    expect(action("forum", [])).toBe("Answer threads on g2.com where competitors are recommended.");
  });

  it("has a line for every category", () => {
    for (const category of SOURCE_CATEGORIES) expect(action(category).length).toBeGreaterThan(20);
  });
});
