// Mentions, positions and sentiment on labelled English, Russian and German answers (lib/analysis/fixtures).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { analyzeAnswer } from "./analyze";
import { ENGLISH } from "./fixtures/english";
import { ENGLISH_UNSEEN } from "./fixtures/english-unseen";
import { GERMAN } from "./fixtures/german";
import type { LabelledSet } from "./fixtures/labelled";
import { RUSSIAN } from "./fixtures/russian";
import { inflectedForms } from "./inflection";
import { detectLanguage } from "./language";
import { analyzeMentions, type Entity } from "./mentions";

type Score = { truePositives: number; falsePositives: number; falseNegatives: number; positionErrors: string[]; toneAgreed: number; toneJudged: number; misses: string[] };

function score(set: LabelledSet, language: string | null): Score {
  const s: Score = { truePositives: 0, falsePositives: 0, falseNegatives: 0, positionErrors: [], toneAgreed: 0, toneJudged: 0, misses: [] };
  for (const [text, labels] of set.answers) {
    const result = analyzeAnswer({ answer: text, brand: set.brand, competitors: set.competitors, language });
    for (const entity of result.entities) {
      const index = labels.findIndex(([name]) => name === entity.name);
      if (entity.mentioned && index < 0) {
        s.falsePositives++;
        s.misses.push(`false mention of ${entity.name}: ${text}`);
      }
      if (!entity.mentioned && index >= 0) {
        s.falseNegatives++;
        s.misses.push(`missed ${entity.name}: ${text}`);
      }
      if (!entity.mentioned || index < 0) continue;
      s.truePositives++;
      if (entity.position !== index + 1) s.positionErrors.push(`${entity.name} at ${entity.position}, labelled ${index + 1}: ${text}`);
      s.toneJudged++;
      if (entity.sentiment === labels[index]![1]) s.toneAgreed++;
      else s.misses.push(`tone of ${entity.name} ${entity.sentiment}, labelled ${labels[index]![1]}: ${text}`);
    }
  }
  return s;
}

// Measured with the prompt's language: English 88/91 = 0.97 (was 58/91 = 0.64 with AFINN over
// whole sentences), Russian 52/62 = 0.84, German 51/60 = 0.85. Our word lists were written with
// these sets in view, so unseen answers score lower: the unseen English set, labelled after the
// list was fixed and never used to tune it, 27/37 = 0.73 (AFINN: 18/37 = 0.49). Thresholds just
// under, English at the 0.85 asked for in issue 19.
const MIN_TONE_AGREEMENT = new Map<LabelledSet, number>([
  [ENGLISH, 0.85],
  [ENGLISH_UNSEEN, 0.7],
  [RUSSIAN, 0.8],
  [GERMAN, 0.8],
]);

describe.each([ENGLISH, ENGLISH_UNSEEN, RUSSIAN, GERMAN])("labelled $language answers about $brand.name", (set) => {
  it("has at least 60 answers (the unseen set 30)", () => {
    expect(set.answers.length).toBeGreaterThanOrEqual(set === ENGLISH_UNSEEN ? 30 : 60);
  });

  it.each([
    ["the prompt's language", set.language],
    ["the detected language", null],
  ])("finds the mentions with precision and recall >= 0.98 and exact positions, from %s", (_, language) => {
    const s = score(set, language);
    const precision = s.truePositives / (s.truePositives + s.falsePositives);
    const recall = s.truePositives / (s.truePositives + s.falseNegatives);
    if (process.env.ANALYSIS_REPORT) console.log(`${set.language} (${language ?? "detected"}): precision ${precision.toFixed(3)}, recall ${recall.toFixed(3)}, tone ${s.toneAgreed}/${s.toneJudged} = ${(s.toneAgreed / s.toneJudged).toFixed(3)}\n  ${s.misses.join("\n  ")}`);
    expect(precision).toBeGreaterThanOrEqual(0.98);
    expect(recall).toBeGreaterThanOrEqual(0.98);
    expect(s.positionErrors).toEqual([]);
  });

  it("agrees with the labelled sentiment at least as often as measured", () => {
    const s = score(set, set.language);
    expect(s.toneAgreed / s.toneJudged).toBeGreaterThanOrEqual(MIN_TONE_AGREEMENT.get(set)!);
  });
});

describe("language detection", () => {
  it("tells Russian, Ukrainian, German and English answers apart", () => {
    expect(detectLanguage("Лучший маркетплейс для электроники — Яндекс Маркет, у него удобный поиск.")).toBe("ru");
    expect(detectLanguage("Найкращий вибір для електроніки — Розетка, у неї зручний пошук.")).toBe("uk");
    expect(detectLanguage("HubSpot ist für kleine Teams oft zu teuer, aber die Berichte sind gut.")).toBe("de");
    expect(detectLanguage("HubSpot is often too expensive for small teams, but its reports are good.")).toBe("en");
  });
});

describe("inflected names", () => {
  const stems = ["Озон", "Магнит", "Сбер", "Мегафон", "Билайн", "Лукойл", "Тинькофф", "Кинопоиск"];
  const endings = ["а", "у", "ом", "е"];
  const context = fc.constantFrom("Мы сравнили", "Отзывы о", "Работаю с", "Пишу про", "Покупаю у");

  it("finds any case form of a Cyrillic name, whatever the detected language", () => {
    fc.assert(
      fc.property(fc.constantFrom(...stems), fc.constantFrom(...endings), context, (stem, ending, before) => {
        const [result] = analyzeMentions(`${before} ${stem}${ending} и другие сервисы.`, [{ name: stem, kind: "brand" }], "en");
        expect(result).toMatchObject({ mentioned: true, count: 1, position: 1 });
      }),
    );
  });

  it("does not decline indeclinable foreign names or match longer words built on a name", () => {
    expect(inflectedForms("Авито", "ru")).toEqual([]);
    const [result] = analyzeMentions("Озоновый слой и озонатор.", [{ name: "Озон", kind: "brand" }], "ru");
    expect(result!.mentioned).toBe(false);
  });

  it("adds the genitive -s in German answers only", () => {
    const notion: Entity[] = [{ name: "Notion", kind: "brand" }];
    expect(analyzeMentions("Notions Vorlagen sind gut.", notion, "de")[0]!.mentioned).toBe(true);
    expect(analyzeMentions("Notions of quality vary.", notion, "en")[0]!.mentioned).toBe(false);
  });
});

describe("names that are common words", () => {
  const linear: Entity[] = [{ name: "Linear", kind: "brand" }, { name: "Jira", kind: "competitor" }];

  it("counts a name written as a name and not the same word used as a word in the same answer", () => {
    const answer = "Costs grow linear with seats. For issue tracking, teams pick Linear over Jira.";
    expect(analyzeMentions(answer, linear)[0]).toMatchObject({ mentioned: true, count: 1, position: 1 });
  });

  it("counts a sentence-initial name only with a sign that the name is meant, when the answer also uses the word", () => {
    expect(analyzeMentions("Linear algebra helps. Prices are linear.", linear)[0]!.mentioned).toBe(false);
    expect(analyzeMentions("Linear: a fast issue tracker. Prices are linear.", linear)[0]!.mentioned).toBe(true);
    expect(analyzeMentions("Linear is a fast app. Prices are linear.", linear)[0]!.mentioned).toBe(true);
  });

  it("leaves English answers that never use the word as a word as they were", () => {
    fc.assert(
      fc.property(fc.constantFrom("Linear is great.", "We use Linear daily.", "LINEAR works.", "linear.app has docs."), (answer) => {
        expect(analyzeMentions(answer, linear)[0]!.mentioned).toBe(true);
      }),
    );
  });
});
