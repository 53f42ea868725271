// Sentiment of the clauses that name an entity, in the answer's language.
//
// A sentence is cut into clauses at contrast words, and each clause is weighted by its part in
// the verdict: in "A, but B" (however, yet; но, однако; aber, jedoch) B is what the reader takes
// away, so A counts half and B one and a half (VADER's own rule for "but"); likewise a concession
// ("although A, B", "B, though A"; хотя; obwohl) counts half and the rest one and a half. Clause scores, weighted, are
// summed over every clause that speaks about the entity (lib/analysis/mentions.ts picks them).
//
// English: VADER (`vader-sentiment`, a maintained rule-based model for short texts: negation
// within three words, boosters and dampeners) plus a short list of ours of the words and hedges
// product answers use that VADER does not know ("can get pricey", "may be more than a small team
// needs", "a steep learning curve", "lacks"), each turned around by a negation before it.
// Russian: the AFINN translation shipped in @nlpjs/lang-ru; German: the ML-SentiCon lexicon
// shipped in @nlpjs/lang-de; both looked up through the package's Snowball stemmer, with a short
// word list of ours, and negation ("не", "nicht", "kein") turning the next scored word around.
// Agreement with hand labels is measured in lib/analysis/languages.test.ts.
import langDe from "@nlpjs/lang-de";
import langRu from "@nlpjs/lang-ru";
import { SentimentIntensityAnalyzer } from "vader-sentiment";
import type { AnalysisLanguage } from "@/lib/analysis/language";

export type Tone = "positive" | "neutral" | "negative";

/** A clause and its weight in the verdict of its sentence. */
export type Clause = { text: string; weight: number };

// --- Clauses -----------------------------------------------------------------------------------

type Contrast = "adversative" | "concessive" | "plain";

// The words that join clauses, by what the clause they open does to the verdict. Sentences have
// single spaces (lib/analysis/text.ts), and each alternative below is a fixed word or two: the
// patterns cannot backtrack over more than a few characters.
const CONTRASTS: Record<"en" | "ru" | "de", { pattern: RegExp; kinds: Record<string, Contrast> }> = {
  en: {
    // "yet" only after a comma: "not yet available" is no contrast; "but also" adds, not contrasts.
    pattern: /(?:^|,? |; ?)(but(?! also)|however|although|even though|even if|though|while|whereas)(?=[ ,])|[,;] (yet)(?= )|; ?/giu,
    kinds: { but: "adversative", however: "adversative", yet: "adversative", although: "concessive", "even though": "concessive", "even if": "concessive", though: "concessive", while: "plain", whereas: "plain" },
  },
  ru: {
    pattern: /(?:^|,? |; ?)(но|однако|зато|хотя|несмотря на|а|тогда как|в то время как)(?=[ ,])|; ?/giu,
    kinds: { но: "adversative", однако: "adversative", зато: "adversative", хотя: "concessive", "несмотря на": "concessive", а: "plain", "тогда как": "plain", "в то время как": "plain" },
  },
  de: {
    pattern: /(?:^|,? |; ?)(aber|jedoch|doch|allerdings|dennoch|trotzdem|obwohl|obgleich|wenngleich|auch wenn|während|wohingegen|dagegen|hingegen)(?=[ ,])|; ?/giu,
    kinds: {
      aber: "adversative", jedoch: "adversative", doch: "adversative", allerdings: "adversative", dennoch: "adversative", trotzdem: "adversative",
      obwohl: "concessive", obgleich: "concessive", wenngleich: "concessive", "auch wenn": "concessive",
      während: "plain", wohingegen: "plain", dagegen: "plain", hingegen: "plain",
    },
  },
};

const contrastsOf = (language: AnalysisLanguage) => CONTRASTS[language === "uk" ? "ru" : language];

/**
 * The sentence's clauses, cut at contrast words (the words themselves dropped), each with its
 * weight: before the last adversative half and from it on one and a half; a concession half and
 * the rest of its sentence one and a half. A
 * sentence that opens with a concession ("Although A, B") concedes up to its first comma.
 */
export function clausesOf(sentence: string, language: AnalysisLanguage): Clause[] {
  const { pattern, kinds } = contrastsOf(language);
  const parts: { text: string; kind: Contrast | null }[] = [];
  let from = 0;
  let kind: Contrast | null = null;
  for (const match of sentence.matchAll(pattern)) {
    parts.push({ text: sentence.slice(from, match.index), kind });
    const word = (match[1] ?? match[2])?.toLowerCase();
    kind = word ? (kinds[word] ?? "plain") : "plain";
    from = match.index + match[0].length;
  }
  parts.push({ text: sentence.slice(from), kind });

  const clauses: (Clause & { kind: Contrast | null })[] = [];
  parts.forEach((part, i) => {
    const comma = part.text.indexOf(", ");
    if (part.kind === "concessive" && i === 1 && !parts[0]!.text.trim() && comma > 0) {
      clauses.push({ text: part.text.slice(0, comma), weight: 1, kind: "concessive" }, { text: part.text.slice(comma + 2), weight: 1, kind: null });
    } else clauses.push({ ...part, weight: 1 });
  });
  // The last adversative gives the verdict (VADER weighs around its first "but"; an answer's
  // "A, but B, but C" ends on C). One pass: a sentence can hold any number of them.
  const verdict = clauses.findLastIndex((c) => c.kind === "adversative");
  const conceded = clauses.some((c) => c.kind === "concessive");
  clauses.forEach((clause, i) => {
    if (conceded) clause.weight *= clause.kind === "concessive" ? 0.5 : 1.5;
    if (verdict >= 0) clause.weight *= i < verdict ? 0.5 : 1.5;
  });
  return clauses.filter((c) => /[\p{L}\p{N}]/u.test(c.text)).map(({ text, weight }) => ({ text: text.replace(/^[\s,]+/, ""), weight }));
}

// --- English -----------------------------------------------------------------------------------

// Ours, on VADER's scale (-4..4): the words and hedges of product answers that VADER lacks. A
// word VADER already scores is left to it. Each pattern is a fixed phrase or a bounded run of
// words, so matching stays linear.
const ENGLISH_PHRASES: [RegExp, number][] = [
  // Price.
  [/\b(?:expensive|pricey|overpriced)\b/, -1.5],
  [/\b(?:price|prices|pricing|costs?|bills?) (?:\w+ )?(?:jumps?|rises?|climbs?|spikes?|balloons?|adds? up)\b/, -1.5],
  [/\b(?:raises?|increases?|adds? to) the (?:price|cost|bill)\b/, -1.2],
  [/\bhidden (?:fees|costs|charges)\b/, -1.5],
  [/\b(?:affordable|budget-friendly|cost-effective|inexpensive|cheaper)\b/, 1.5],
  [/\bworth (?:it|the (?:price|money|cost|investment))\b/, 1],
  [/\bvalue for money\b/, 1.5],
  // Effort and fit.
  [/\b(?:steep|steeper)\b/, -1.2],
  [/\blearning curve\b/, -0.8],
  [/\b(?:lengthy|time-consuming)\b/, -1.2],
  [/\btakes? (?:weeks|months)\b/, -1.2],
  [/\b(?:complex|complicated|convoluted)\b/, -1.3],
  [/\b(?:hard|difficult|tricky) to\b/, -0.8],
  [/\b(?:needs?|requires?) (?:a |an )?(?:dedicated )?(?:admin|administrator|consultant|developer)s?\b/, -1],
  [/\bmore than (?:\w+ ){0,4}(?:needs?|requires?)\b/, -1.5],
  [/\btoo (?=\w)/, -1],
  [/\b(?:overkill|bloated|overwhelming)\b/, -1.3],
  [/\bnot (?:be )?(?:the |a )?(?:right|best|ideal|good|great) (?:fit|choice|option|pick)\b/, -2.5],
  [/\b(?:lacks?|lacking|missing)\b/, -1.5],
  [/\bfalls? short\b/, -1.5],
  [/\b(?:drawbacks?|shortcomings?)\b/, -1],
  // Quality.
  [/\b(?:clunky|clunkier|buggy|sluggish|cumbersome|clumsy)\b/, -1.5],
  [/\b(?:slow|slower)\b/, -1.2],
  [/\b(?:cluttered|outdated|dated|old-fashioned)\b/, -1.3],
  [/\b(?:unreliable|unresponsive|unintuitive|inflexible|rigid)\b/, -1.5],
  [/\bcrashes\b/, -1.7],
  [/\b(?:intuitive|reliable|user-friendly|easy-to-use|seamless|seamlessly|polished|streamlined|versatile)\b/, 1.5],
  [/\b(?:scalable|customi[sz]able|feature-rich|simple|simpler|simplest|complete|comprehensive|well[- ]documented)\b/, 1],
  [/\b(?:favourite|go-to|standout|stands out)\b/, 1.5],
  [/\b(?:leader|leading|top choice|top pick)\b/, 1.2],
  [/\bquick\b/, 0.8],
];

// Everyday words VADER scores that say nothing about a product ("24/7 support", "tools like X",
// "thanks to", "as well as"), and listings whose adjective qualifies the list, not a product
// ("popular options include ..."). Dropped from what VADER reads.
const ENGLISH_NEUTRAL = /\b(?:support|supports|help|helps|like|share|want|thanks to|as well as|(?:popular|common|notable|other|top|leading) (?:options|choices|alternatives|tools|picks|platforms|solutions|products))\b/g;
// "no" is in VADER's lexicon (-1.2) but not among its negations, so "no hidden fees" read
// negative; "lacks" is neither. Both are read as "not" (VADER then turns the next words round).
const ENGLISH_AS_NOT = /\b(?:no|lacks?|lacking|missing)\b/g;
// A negation up to three words before one of our phrases turns it round, as VADER does for its words.
const ENGLISH_NEGATION = /\b(?:not|no|never|without|hardly|none|nothing|cannot|\w+n['’]t)\s+(?:\S+\s+){0,2}$/;
// VADER's N_SCALAR: a negated word counts -0.74 of itself.
const NEGATED = -0.74;
// A clause whose weighted score is this close to zero (VADER's +-0.05 compound) says nothing.
const ENGLISH_NEUTRAL_BAND = 0.2;

/**
 * VADER's valence sum for the clause: its compound score is sum / sqrt(sum^2 + 15), so the sum
 * is recovered from it, to be added to ours on the same scale.
 */
function vaderValence(text: string): number {
  const compound = Math.max(-0.9999, Math.min(0.9999, SentimentIntensityAnalyzer.polarity_scores(text).compound));
  return compound * Math.sqrt(15 / (1 - compound * compound));
}

// All of them in one pattern, one capture group each, so a clause is scanned once.
const ENGLISH_PHRASE = new RegExp(ENGLISH_PHRASES.map(([pattern]) => `(${pattern.source})`).join("|"), "g");

function englishScore(clause: string): number {
  const lower = clause.toLowerCase();
  let ours = 0;
  for (const match of lower.matchAll(ENGLISH_PHRASE)) {
    const value = ENGLISH_PHRASES[match.findIndex((group, i) => i > 0 && group !== undefined) - 1]![1];
    const before = lower.slice(Math.max(0, match.index - 40), match.index);
    ours += ENGLISH_NEGATION.test(before) ? value * NEGATED : value;
  }
  // A "but" left inside a clause (written "-but") is dropped: the contrast is weighed above, and
  // VADER's own weighing of it is quadratic in the clause's length.
  return vaderValence(lower.replace(ENGLISH_NEUTRAL, " ").replace(ENGLISH_AS_NOT, "not").replace(/\bbut\b/g, " ")) + ours;
}

// --- Russian and German ------------------------------------------------------------------------

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

// --- The verdict -------------------------------------------------------------------------------

function scoreOf(text: string, language: AnalysisLanguage): number {
  if (language === "ru" || language === "uk") return lexiconScore(text, lexiconOf("ru"));
  if (language === "de") return lexiconScore(text, lexiconOf("de"));
  return englishScore(text);
}

/** The tone of the clauses that speak about an entity, or null when there are none. */
export function sentimentOf(clauses: Clause[], language: AnalysisLanguage): Tone | null {
  if (!clauses.length) return null;
  const score = clauses.reduce((sum, clause) => sum + clause.weight * scoreOf(clause.text, language), 0);
  const band = language === "en" ? ENGLISH_NEUTRAL_BAND : 0;
  return score > band ? "positive" : score < -band ? "negative" : "neutral";
}
