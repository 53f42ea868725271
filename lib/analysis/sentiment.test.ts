// Properties of the sentiment of a mention (lib/analysis/sentiment.ts, judged per clause by
// lib/analysis/mentions.ts). Agreement with hand labels is in languages.test.ts.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { AnalysisLanguage } from "./language";
import { analyzeMentions, type Entity } from "./mentions";
import { clausesOf } from "./sentiment";

const hubspot: Entity[] = [{ name: "HubSpot", kind: "brand" }, { name: "Pipedrive", kind: "competitor" }];
const toneOf = (answer: string, language: AnalysisLanguage = "en", entities = hubspot) => analyzeMentions(answer, entities, language)[0]!.sentiment;

// Sentences about the brand, and others that never name it: some about a competitor, some about
// no product, in every tone, in each language.
const ABOUT_BRAND: Record<"en" | "ru" | "de", string[]> = {
  en: ["HubSpot is reliable and easy to use.", "HubSpot can get expensive as the team grows.", "HubSpot offers Marketing Hub and Sales Hub.", "HubSpot is powerful, but it can be pricey.", "HubSpot may be more than a small team needs."],
  ru: ["HubSpot удобный и надёжный.", "HubSpot дорогой и медленный.", "HubSpot предлагает мобильное приложение.", "HubSpot удобный, но дорогой."],
  de: ["HubSpot ist intuitiv und zuverlässig.", "HubSpot ist teuer und kompliziert.", "HubSpot bietet eine mobile App.", "HubSpot ist gut, aber teuer."],
};
const ELSEWHERE: Record<"en" | "ru" | "de", string[]> = {
  en: ["Pipedrive is excellent and affordable.", "Pipedrive is clunky, buggy and slow.", "Most tools are terrible and overpriced.", "This is the best category ever!", "Avoid anything with hidden fees.", "Pricing varies by region."],
  ru: ["Pipedrive отличный и выгодный.", "Pipedrive медленный и неудобный.", "Все сервисы ужасны.", "Цены зависят от региона."],
  de: ["Pipedrive ist hervorragend und günstig.", "Pipedrive ist langsam und umständlich.", "Alle Tools sind schrecklich teuer.", "Die Preise hängen von der Region ab."],
};

describe("the sentiment of a mention", () => {
  it("is unaffected by sentences that do not name it, wherever they stand", () => {
    fc.assert(
      fc.property(
        fc.constantFrom("en" as const, "ru" as const, "de" as const).chain((language) =>
          fc.record({
            language: fc.constant(language),
            own: fc.array(fc.constantFrom(...ABOUT_BRAND[language]), { minLength: 1, maxLength: 3 }),
            others: fc.array(fc.constantFrom(...ELSEWHERE[language]), { maxLength: 6 }),
            seed: fc.array(fc.nat(), { minLength: 6, maxLength: 6 }),
          }),
        ),
        ({ language, own, others, seed }) => {
          const alone = toneOf(own.join(" "), language);
          // The others shuffled in among the brand's sentences, as separate paragraphs or lines.
          const mixed = [...own];
          others.forEach((sentence, i) => mixed.splice(seed[i]! % (mixed.length + 1), 0, sentence));
          expect(toneOf(mixed.join(separator(seed[0]!)), language)).toBe(alone);
        },
      ),
    );
  });

  it("is never positive for a clearly positive clause negated", () => {
    const cases: Record<"en" | "ru" | "de", { positive: string[]; negate: ((adjective: string) => string)[] }> = {
      en: {
        positive: ["great", "reliable", "intuitive", "affordable", "excellent", "easy to use", "user-friendly", "powerful", "the best option", "a good fit", "worth it"],
        negate: [(a) => `HubSpot is not ${a}.`, (a) => `HubSpot isn't ${a}.`, (a) => `HubSpot is not very ${a}.`, (a) => `HubSpot is never ${a}.`, (a) => `HubSpot is no longer ${a}.`],
      },
      ru: { positive: ["удобный", "надёжный", "быстрый", "понятный", "выгодный"], negate: [(a) => `HubSpot не ${a}.`, (a) => `HubSpot совсем не ${a}.`] },
      de: { positive: ["intuitiv", "zuverlässig", "günstig", "übersichtlich", "hervorragend"], negate: [(a) => `HubSpot ist nicht ${a}.`, (a) => `HubSpot ist gar nicht ${a}.`] },
    };
    const plain = { en: (a: string) => `HubSpot is ${a}.`, ru: (a: string) => `HubSpot ${a}.`, de: (a: string) => `HubSpot ist ${a}.` };
    for (const [language, { positive, negate }] of Object.entries(cases) as ["en" | "ru" | "de", (typeof cases)["en"]][]) {
      fc.assert(
        fc.property(fc.constantFrom(...positive), fc.constantFrom(...negate), (adjective, negated) => {
          expect(toneOf(plain[language](adjective), language)).toBe("positive");
          expect(toneOf(negated(adjective), language)).not.toBe("positive");
        }),
      );
    }
  });

  it("takes the part after a contrast as the verdict, and a concession as background", () => {
    const good = ["reliable", "intuitive", "affordable", "powerful", "flexible", "great"];
    const bad = ["expensive", "clunky", "buggy", "slow", "outdated", "complicated"];
    fc.assert(
      fc.property(fc.constantFrom(...good), fc.constantFrom(...bad), (g, b) => {
        expect(toneOf(`HubSpot is ${g}, but ${b}.`)).toBe("negative");
        expect(toneOf(`HubSpot is ${b}, but ${g}.`)).toBe("positive");
        expect(toneOf(`HubSpot is ${g}; however, it is ${b}.`)).toBe("negative");
        expect(toneOf(`Although HubSpot is ${b}, it is ${g}.`)).toBe("positive");
        expect(toneOf(`HubSpot is ${g}, though ${b}.`)).toBe("positive");
      }),
    );
  });

  it("reads the hedges of product answers as drawbacks (issue 19)", () => {
    for (const answer of [
      "HubSpot may be more than a small team needs, with a lengthy setup.",
      "HubSpot can get pricey as you add seats.",
      "HubSpot has a steep learning curve.",
      "HubSpot lacks advanced reporting.",
      "HubSpot can be expensive for small teams.",
      "HubSpot is powerful, but it can be expensive.",
    ])
      expect(toneOf(answer), answer).toBe("negative");
  });

  it("judges each product in a sentence by its own clauses, a clause without a name going on about the one before", () => {
    const [hub, pipe] = analyzeMentions("HubSpot is reliable but expensive, while Pipedrive is affordable.", hubspot, "en");
    expect(hub!.sentiment).toBe("negative");
    expect(pipe!.sentiment).toBe("positive");
  });
});

describe("clauses", () => {
  it("cut at contrast words and weigh the verdict over the rest", () => {
    expect(clausesOf("HubSpot is powerful, but it can be expensive.", "en")).toEqual([
      { text: "HubSpot is powerful", weight: 0.5 },
      { text: "it can be expensive.", weight: 1.5 },
    ]);
    expect(clausesOf("Although HubSpot is expensive, it is reliable.", "en")).toEqual([
      { text: "HubSpot is expensive", weight: 0.5 },
      { text: "it is reliable.", weight: 1.5 },
    ]);
    expect(clausesOf("HubSpot does not yet offer it, but also has no plan for it.", "en")).toEqual([{ text: "HubSpot does not yet offer it, but also has no plan for it.", weight: 1 }]);
    expect(clausesOf("Озон удобный, но дорогой.", "ru").map((c) => c.weight)).toEqual([0.5, 1.5]);
    expect(clausesOf("HubSpot ist gut, aber teuer.", "de").map((c) => c.weight)).toEqual([0.5, 1.5]);
  });

  it("stay linear in a sentence's contrast words", () => {
    const clauses = clausesOf("it is good but ".repeat(50_000), "en");
    expect(clauses.length).toBe(50_000);
    expect(clauses.every((c) => Number.isFinite(c.weight))).toBe(true);
  });
});

function separator(seed: number): string {
  return [" ", "\n\n", "\n- "][seed % 3]!;
}
