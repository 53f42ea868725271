// The language an answer is written in, for the analysis: the prompt's language when it was set
// (the question was asked in it, and answer engines reply in the question's language), else a
// cheap look at the answer itself. Only the languages the analysis treats differently are told
// apart; anything else is "en", which is the analysis as it always was.
export type AnalysisLanguage = "en" | "ru" | "uk" | "de";

const SAMPLE_CHARS = 4000;
const CYRILLIC = /\p{Script=Cyrillic}/u;
const LATIN = /\p{Script=Latin}/u;
const UKRAINIAN_ONLY = /[іїєґІЇЄҐ]/;
// Frequent short words that the other language does not have (so "die" and "an" are left out).
const GERMAN = new Set(["der", "das", "und", "ist", "nicht", "mit", "für", "fur", "ein", "eine", "einen", "sich", "auch", "oder", "sind", "wenn", "bei", "zum", "zur", "vom", "über", "uber", "sehr", "gut", "kann", "wird", "werden", "ihr", "ihre", "dem", "den", "des", "einem", "einer", "aber", "noch", "wie", "bietet"]);
const ENGLISH = new Set(["the", "and", "is", "with", "for", "of", "to", "are", "it", "its", "this", "that", "you", "your", "can", "has", "have", "be", "or", "very", "but", "not", "good", "offers", "best"]);

/** BCP 47 tag ("ru-RU", "de") -> the analysis' language, or null when it has no special handling. */
export function languageOfTag(tag: string | null | undefined): AnalysisLanguage | null {
  const primary = tag?.trim().toLowerCase().split(/[-_]/)[0];
  return primary === "ru" || primary === "uk" || primary === "de" || primary === "en" ? primary : null;
}

/**
 * From the text: mostly Cyrillic letters -> Russian (Ukrainian when it has і, ї, є or ґ); Latin
 * letters with more German than English function words -> German; else English. Reads the first
 * 4,000 characters once: linear, and enough to tell.
 */
export function detectLanguage(text: string): AnalysisLanguage {
  const sample = text.slice(0, SAMPLE_CHARS);
  let cyrillic = 0;
  let latin = 0;
  for (const ch of sample) {
    if (CYRILLIC.test(ch)) cyrillic++;
    else if (LATIN.test(ch)) latin++;
  }
  if (cyrillic > latin) return UKRAINIAN_ONLY.test(sample) ? "uk" : "ru";
  let german = 0;
  let english = 0;
  for (const word of sample.toLowerCase().split(/[^\p{L}]+/u)) {
    if (GERMAN.has(word)) german++;
    else if (ENGLISH.has(word)) english++;
  }
  return german > english ? "de" : "en";
}

export function answerLanguage(text: string, promptLanguage?: string | null): AnalysisLanguage {
  return languageOfTag(promptLanguage) ?? detectLanguage(text);
}
