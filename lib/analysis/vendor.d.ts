// Types for the parts of untyped packages the analysis uses.
type NlpjsStemmer = new () => { stemWord(word: string): string };
declare module "@nlpjs/lang-ru" {
  const langRu: { StemmerRu: NlpjsStemmer; SentimentRu: { afinn: Record<string, string | number> } };
  export default langRu;
}
declare module "@nlpjs/lang-de" {
  const langDe: { StemmerDe: NlpjsStemmer; SentimentDe: { senticon: Record<string, number>; negations: { words: string[] } } };
  export default langDe;
}
declare module "russian-nouns-js" {
  const RussianNouns: {
    Gender: { MASCULINE: string; FEMININE: string; NEUTER: string; COMMON: string };
    Case: Record<"NOMINATIVE" | "GENITIVE" | "DATIVE" | "ACCUSATIVE" | "INSTRUMENTAL" | "PREPOSITIONAL" | "LOCATIVE", string>;
    Engine: new () => { decline(lemma: { text: string; gender: string }, grammaticalCase: string): string[] };
  };
  export default RussianNouns;
}
declare module "vader-sentiment" {
  export const SentimentIntensityAnalyzer: { polarity_scores(text: string): { neg: number; neu: number; pos: number; compound: number } };
}

// punycode.js (lib/analysis/host.ts) is CommonJS: one default export.
declare module "punycode.js" {
  const punycode: { toUnicode(domain: string): string };
  export default punycode;
}
