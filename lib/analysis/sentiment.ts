// Sentiment of the sentences (or clauses) that name an entity, in the answer's language.
// English: the AFINN lexicon of the `sentiment` package. Russian: the AFINN translation shipped
// in @nlpjs/lang-ru (stemmed; looked up through the package's Snowball stemmer). German: the
// ML-SentiCon lexicon shipped in @nlpjs/lang-de (stemmed likewise). Each with a short list of
// ours: the words software reviews lean on that the lexicons lack or score oddly. Negation
// ("не", "nicht", "kein") turns the next word's score around. Agreement with hand labels is
// measured in lib/analysis/languages.test.ts.
import Sentiment from "sentiment";
import langDe from "@nlpjs/lang-de";
import langRu from "@nlpjs/lang-ru";
import type { AnalysisLanguage } from "@/lib/analysis/language";

export type Tone = "positive" | "neutral" | "negative";

const english = new Sentiment();
// Ours: AFINN is a general lexicon; these are the product words it lacks.
const ENGLISH_PRODUCT_WORDS: Record<string, number> = {
  affordable: 2, intuitive: 2, reliable: 2, "user-friendly": 2, powerful: 2, flexible: 1, scalable: 1, robust: 2, seamless: 2, praised: 2, favourite: 2, favorite: 2,
  expensive: -2, pricey: -2, costly: -2, clunky: -2, buggy: -2, slow: -1, complex: -1, complicated: -2, cluttered: -2, outdated: -2, limited: -1, criticised: -2, criticized: -2, unreliable: -2, overkill: -1,
};

// Ours, in dictionary form (stemmed below with the lexicon's own stemmer). Scores on the
// lexicon's scale: Russian AFINN -5..5, German SentiCon -1..1.
const RUSSIAN_WORDS: Record<string, number> = {
  дорогой: -3, дороже: -3, переплачивать: -3, медленный: -3, тормозить: -3, запутанный: -3, перегруженный: -3, устаревший: -3, неудобный: -4, громоздкий: -3, ограниченный: -2, жаловаться: -3, критиковать: -3, недостаток: -3, минус: -2, хуже: -3, сбой: -3, лишний: -2, навязчивый: -3, долгий: -2,
  лучший: 3, лучше: 3, хвалить: 3, простой: 2, понятный: 3, интуитивный: 3, доступный: 2, выгодный: 3, быстрый: 2, мощный: 3, гибкий: 2, удобный: 3, надёжный: 3, любимый: 3, преимущество: 3, плюс: 2, рекомендовать: 2, нравиться: 3, широкий: 2, бесплатный: 2,
  сложный: -3, долго: -2, проблема: -3, мошенник: -3, недовольный: -3, осторожный: -2, выросли: -1,
  // The translated AFINN scores these everyday words; in product answers they are neutral.
  цена: 0, есть: 0, подробнее: 0, развивать: 0, лидер: 0,
};
const GERMAN_WORDS: Record<string, number> = {
  teuer: -0.6, kostspielig: -0.6, umständlich: -0.6, kompliziert: -0.6, langsam: -0.5, unübersichtlich: -0.6, veraltet: -0.6, überladen: -0.6, fehleranfällig: -0.7, begrenzt: -0.4, eingeschränkt: -0.4, kritisiert: -0.6, nachteil: -0.5, mangel: -0.5, schwerfällig: -0.6, träge: -0.5, lästig: -0.5, enttäuschend: -0.7, schwach: -0.5, mühsam: -0.6, steil: -0.4,
  intuitiv: 0.6, zuverlässig: 0.6, günstig: 0.5, preiswert: 0.5, übersichtlich: 0.6, einfach: 0.4, leistungsstark: 0.6, flexibel: 0.4, beliebt: 0.5, gelobt: 0.6, hervorragend: 0.7, ausgezeichnet: 0.7, stark: 0.4, empfehlenswert: 0.6, schnell: 0.4, vorteil: 0.5, überzeugt: 0.6, solide: 0.3, kostenlos: 0.3, großzügig: 0.5, besten: 0.5, beste: 0.5, nahtlos: 0.6,
};

type Lexicon = { stem: (word: string) => string; scores: Map<string, number>; negations: Set<string>; minimum: number };

function lexicon(stemmer: { stemWord(word: string): string }, base: Record<string, string | number>, ours: Record<string, number>, negations: string[], minimum: number): Lexicon {
  const stem = (word: string) => stemmer.stemWord(word.toLowerCase().replace(/ё/g, "е"));
  const scores = new Map<string, number>();
  for (const [key, value] of Object.entries(base)) if (key !== "word") scores.set(key, Number(value));
  for (const [word, value] of Object.entries(ours)) scores.set(stem(word), value);
  return { stem, scores, negations: new Set(negations), minimum };
}

let lexicons: Partial<Record<"ru" | "de", Lexicon>> = {};
function lexiconOf(language: "ru" | "de"): Lexicon {
  lexicons[language] ??=
    language === "ru"
      ? lexicon(new langRu.StemmerRu(), langRu.SentimentRu.afinn, RUSSIAN_WORDS, ["не", "нет", "без"], 2)
      : // SentiCon gives thousands of stems a near-zero score: below 0.1 a word says nothing.
        lexicon(new langDe.StemmerDe(), langDe.SentimentDe.senticon, GERMAN_WORDS, langDe.SentimentDe.negations.words, 0.1);
  return lexicons[language]!;
}

/** Resets the loaded lexicons (tests measure a cold start). */
export function unloadLexicons() {
  lexicons = {};
}

function lexiconScore(text: string, lex: Lexicon): number {
  let score = 0;
  let negate = false;
  for (const word of text.toLowerCase().split(/[^\p{L}]+/u)) {
    if (lex.negations.has(word)) {
      negate = true;
      continue;
    }
    // Short words are function words ("и", "у" carry 1.7 in the translated AFINN), never verdicts.
    if (word.length < 3) continue;
    const value = lex.scores.get(lex.stem(word)) ?? 0;
    if (Math.abs(value) >= lex.minimum) {
      score += negate ? -value : value;
      negate = false;
    }
  }
  return score;
}

function scoreOf(text: string, language: AnalysisLanguage): number {
  if (language === "ru" || language === "uk") return lexiconScore(text, lexiconOf("ru"));
  if (language === "de") return lexiconScore(text, lexiconOf("de"));
  return english.analyze(text, { extras: ENGLISH_PRODUCT_WORDS }).score;
}

export function sentimentOf(texts: string[], language: AnalysisLanguage): Tone | null {
  if (!texts.length) return null;
  const score = texts.reduce((sum, text) => sum + scoreOf(text, language), 0);
  return score > 0 ? "positive" : score < 0 ? "negative" : "neutral";
}

// Contrast words split a sentence into the parts that talk about different entities. Sentences
// have single spaces (lib/analysis/text.ts), so each alternative is a fixed few characters: no
// backtracking over runs of whitespace.
const CLAUSE_BREAKS: Record<"en" | "ru" | "de", RegExp> = {
  en: / ?; ?|,? (?:but|while|whereas|although|however,?) /i,
  ru: / ?; ?|,? (?:но|а|однако|зато|тогда как|хотя|в то время как) /i,
  de: / ?; ?|,? (?:aber|während|wohingegen|jedoch|doch|dagegen|hingegen|allerdings) /i,
};

export function clauseBreak(language: AnalysisLanguage): RegExp {
  return CLAUSE_BREAKS[language === "uk" ? "ru" : language];
}
