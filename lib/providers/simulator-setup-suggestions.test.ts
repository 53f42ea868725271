import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseProposal } from "@/lib/setup/parse-proposal";
import { CATEGORIES, categoryOf, keywordIn, NEUTRAL_STEMS, wordsOf, type Lang } from "./simulator-setup-categories";
import { simulateSetupProposal } from "./simulator-setup-suggestions";

const LANGS: Lang[] = ["en", "de", "ru"];
const ALL_KEYWORDS = CATEGORIES.flatMap((c) => c.keywords);
const ALL_STEMS = new Set(CATEGORIES.flatMap((c) => c.stems));

/** A word that points at no category (and that the address parser keeps). */
const neutralWord = fc.stringMatching(/^[a-z]{3,9}$/).filter((w) => !ALL_KEYWORDS.some((k) => keywordIn(k, w)) && !["www", "html", "htm", "php", "aspx", "index", "page", "pages"].includes(w));
const suffix = fc.constantFrom("com", "co.uk", "de", "io", "com.au", "org", "ru");
const lang = fc.constantFrom(...LANGS);
const country = fc.constantFrom(undefined, "US", "DE", "GB", "RU");

/** An address of neutral words: labels of the registrable name, the path's segments. */
const neutralAddress = fc.record({ label: fc.array(neutralWord, { minLength: 1, maxLength: 3 }), path: fc.array(neutralWord, { maxLength: 3 }), suffix });
const addressOf = (a: { label: string[]; path: string[]; suffix: string }) => {
  const domain = `${a.label.join("-")}.${a.suffix}`;
  return { domain, address: a.path.length ? `${domain}/${a.path.join("/")}` : domain };
};

/** The questions' text without the names taken from the input (a brand "Gymnova" is no gym). */
const questionsWithoutBrand = (proposal: ReturnType<typeof simulateSetupProposal>, offering?: string | null) =>
  proposal.questions.map((q) => q.text.replaceAll(proposal.brand.name, "").replaceAll(offering || "\0", "").toLowerCase()).join("\n");

describe("the words of an address", () => {
  it("are the registrable name's, the subdomain's and the path's, without the public suffix", () => {
    expect(wordsOf("northwind-outdoor.co.uk/tents")).toEqual([
      { word: "northwind", weight: 2 },
      { word: "outdoor", weight: 2 },
      { word: "tents", weight: 1 },
    ]);
    expect(wordsOf("https://www.shop.acme-crm.com/en/pricing?x=1", "Hiking boots")).toEqual([
      { word: "acme", weight: 2 },
      { word: "crm", weight: 2 },
      { word: "shop", weight: 1 },
      { word: "pricing", weight: 1 },
      { word: "hiking", weight: 3 },
      { word: "boots", weight: 3 },
    ]);
  });

  it("choose the category they name, the longest keyword deciding a word", () => {
    expect(categoryOf(wordsOf("northwind-outdoor.co.uk/tents"))?.key).toBe("outdoor");
    expect(categoryOf(wordsOf("tasklane.io"))?.key).toBe("projects");
    expect(categoryOf(wordsOf("shop.acme-crm.com/pricing"))?.key).toBe("crm");
    expect(categoryOf(wordsOf("bestcarpets.com"))?.key).toBe("furniture");
    expect(categoryOf(wordsOf("cards.example.com"))).toBeNull();
    expect(categoryOf(wordsOf("northwind.co.uk"))).toBeNull();
    expect(categoryOf(wordsOf("northwind.co.uk", "toys for dogs"))?.key).toBe("pets");
  });

  it("have no keyword listed twice, and names every category differently", () => {
    expect(new Set(ALL_KEYWORDS).size).toBe(ALL_KEYWORDS.length);
    for (const l of LANGS) expect(new Set(CATEGORIES.map((c) => c.name[l])).size).toBe(CATEGORIES.length);
    expect(NEUTRAL_STEMS.filter((s) => ALL_STEMS.has(s))).toEqual([]);
  });
});

describe("the simulator's proposal", () => {
  it("for the tent shop of issue 19 is about outdoor gear, with competitors named like it", () => {
    const proposal = simulateSetupProposal({ domain: "northwind-outdoor.co.uk", address: "northwind-outdoor.co.uk/tents", language: "en", country: "GB" });
    expect(proposal.brand.name).toBe("Northwind Outdoor");
    expect(proposal.questions[0]!.text).toBe("What is the best outdoor gear brand in the UK?");
    expect(questionsWithoutBrand(proposal)).not.toMatch(/email|marketing|crm/);
    const outdoor = CATEGORIES.find((c) => c.key === "outdoor")!;
    for (const c of proposal.competitors) expect(outdoor.stems.some((s) => c.name.startsWith(s))).toBe(true);
  });

  it("without a word it knows, asks about companies like the brand and names no category", () => {
    const proposal = simulateSetupProposal({ domain: "northwind.co.uk", language: "en" });
    expect(proposal.questions[0]!.text).toBe("Which companies are similar to Northwind?");
    const de = simulateSetupProposal({ domain: "northwind.co.uk", offering: "Kerzen", language: "de" });
    expect(categoryOf(wordsOf("northwind.co.uk", "Kerzen"))).toBeNull();
    expect(de.questions[0]!.text).toBe("Wer sind die besten Anbieter für Kerzen?");
  });

  it("is within the limits and read back by the parser unchanged, for every category and language", () => {
    for (const category of CATEGORIES) {
      for (const language of LANGS) {
        const domain = `acme-${category.keywords[0]}.com`;
        const proposal = simulateSetupProposal({ domain, language, country: "DE" });
        expect(proposal.questions[0]!.text).toContain(category.name[language]);
        expect(proposal.questions.length).toBeGreaterThanOrEqual(20);
        expect(proposal.questions.length).toBeLessThanOrEqual(30);
        expect(proposal.questions.every((q) => !q.text.includes("{"))).toBe(true);
        const parsed = parseProposal(JSON.stringify(proposal), { domain });
        expect(parsed.questions.map((q) => q.text)).toEqual(proposal.questions.map((q) => q.text));
        expect(parsed.competitors.map((c) => c.domains)).toEqual(proposal.competitors.map((c) => c.domains));
      }
    }
  });

  it("property: an address with a category's keyword gets that category", () => {
    const placed = fc.record({
      category: fc.constantFrom(...CATEGORIES),
      pick: fc.nat(),
      at: fc.nat(),
      inPath: fc.boolean(),
      address: neutralAddress,
      lang,
      country,
    });
    fc.assert(
      fc.property(placed, ({ category, pick, at, inPath, address, lang, country }) => {
        const keyword = category.keywords[pick % category.keywords.length]!;
        const words = inPath ? address.path : address.label;
        const with_ = { ...address, [inPath ? "path" : "label"]: [...words.slice(0, at % (words.length + 1)), keyword, ...words.slice(at % (words.length + 1))] };
        const { domain, address: typed } = addressOf(with_);
        expect(categoryOf(wordsOf(typed))).toBe(category);
        const proposal = simulateSetupProposal({ domain, address: typed, language: lang, country });
        expect(proposal.questions[0]!.text).toContain(category.name[lang]);
      }),
      { numRuns: 300 },
    );
  });

  it("property: the person's own words choose the category over the address's", () => {
    fc.assert(
      fc.property(fc.constantFrom(...CATEGORIES), fc.nat(), neutralAddress, fc.array(neutralWord, { maxLength: 2 }), lang, (category, pick, address, around, lang) => {
        const { domain, address: typed } = addressOf(address);
        const offering = [...around, category.keywords[pick % category.keywords.length]!].join(" ");
        expect(simulateSetupProposal({ domain, address: typed, offering, language: lang }).questions[0]!.text).toContain(category.name[lang]);
      }),
    );
  });

  it("property: the same input gives the same proposal", () => {
    fc.assert(
      fc.property(fc.webUrl({ withQueryParameters: true }), fc.option(fc.string({ maxLength: 40 })), lang, country, (url, offering, lang, country) => {
        const domain = new URL(url).hostname || "example.com";
        const input = { domain, address: url, offering, language: lang, country };
        expect(simulateSetupProposal(input)).toEqual(simulateSetupProposal({ ...input }));
      }),
    );
  });

  it("property: the fallback never names a category, nor names competitors after one", () => {
    fc.assert(
      fc.property(neutralAddress, fc.option(fc.array(neutralWord, { minLength: 1, maxLength: 2 }).map((w) => w.join(" "))), lang, country, (address, offering, lang, country) => {
        const { domain, address: typed } = addressOf(address);
        expect(categoryOf(wordsOf(typed, offering))).toBeNull();
        const proposal = simulateSetupProposal({ domain, address: typed, offering, language: lang, country });
        const text = questionsWithoutBrand(proposal, offering);
        for (const category of CATEGORIES) for (const l of LANGS) expect(text).not.toContain(category.name[l].toLowerCase());
        for (const c of proposal.competitors) expect(NEUTRAL_STEMS.some((s) => c.name.startsWith(s))).toBe(true);
        if (offering) expect(proposal.questions[0]!.text).toContain(offering);
      }),
      { numRuns: 300 },
    );
  });
});
