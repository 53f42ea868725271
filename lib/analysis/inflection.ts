// Inflected forms of brand names, matched as further spellings of the name. Russian (and
// Ukrainian) decline nouns: Ozon's Cyrillic name appears as «Озона», «Озону», «Озоном»,
// «на Озоне». The forms come from russian-nouns-js, a maintained declension library, applied to
// the last word of a Cyrillic name; generating forms keeps the matcher a plain whole-word search
// (linear, precise) where stemming the answer would have matched «озонный» and «магния».
// Latin names in Russian text take their ending after an apostrophe or hyphen ("Notion'а"),
// which the whole-word search already accepts. German adds a genitive -s ("Notions Vorlagen").
// Out of scope: German compounds ("Notion-Vorlagen" is found, "Notionvorlagen" is not), Polish.
import RussianNouns from "russian-nouns-js";
import type { AnalysisLanguage } from "@/lib/analysis/language";

const { Case, Gender } = RussianNouns;
const engine = new RussianNouns.Engine();
const CYRILLIC_WORD = /^[\p{Script=Cyrillic}]+$/u;
// Foreign names ending in these vowels are not declined in Russian (Авито, Трелло, Сбербанк Онлайн
// is declined through its consonant-final word): no forms.
const INDECLINABLE_END = /[оеиуюэыё]$/iu;
// Ukrainian masculine endings of a consonant-final name (genitive, dative, instrumental, locative).
const UKRAINIAN_ENDINGS = ["а", "у", "ові", "ом", "і"];
const cache = new Map<string, string[]>();

function declined(word: string): string[] {
  const last = word.slice(-1).toLowerCase();
  const genders = last === "а" || last === "я" ? [Gender.FEMININE] : last === "ь" ? [Gender.MASCULINE, Gender.FEMININE] : [Gender.MASCULINE];
  const cases = [Case.GENITIVE, Case.DATIVE, Case.ACCUSATIVE, Case.INSTRUMENTAL, Case.PREPOSITIONAL];
  const forms = new Set<string>();
  for (const gender of genders) {
    for (const grammaticalCase of cases) {
      try {
        for (const form of engine.decline({ text: word, gender }, grammaticalCase)) forms.add(form);
      } catch {
        // A word the library cannot decline keeps its written form only.
      }
    }
  }
  if (genders[0] === Gender.MASCULINE && last !== "ь" && last !== "й") for (const ending of UKRAINIAN_ENDINGS) forms.add(word + ending);
  forms.delete(word);
  return [...forms];
}

/** Other written forms of a name in an answer of this language (not including the name). */
export function inflectedForms(name: string, language: AnalysisLanguage): string[] {
  const key = `${language}\u0000${name}`;
  const known = cache.get(key);
  if (known) return known;
  const forms: string[] = [];
  const words = name.trim().split(/\s+/);
  const last = words[words.length - 1] ?? "";
  // Cyrillic names are declined whatever the detected language: they only occur in Cyrillic text.
  if (last.length >= 3 && CYRILLIC_WORD.test(last) && !INDECLINABLE_END.test(last)) {
    const head = words.slice(0, -1).join(" ");
    forms.push(...declined(last).map((form) => (head ? `${head} ${form}` : form)));
  }
  if (language === "de" && /\p{Script=Latin}$/u.test(name) && !/[sßxz]$/iu.test(name)) forms.push(`${name}s`);
  if (cache.size > 10_000) cache.clear();
  cache.set(key, forms);
  return forms;
}
