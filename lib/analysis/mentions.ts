// Finds the brand and its competitors in an answer: by name and aliases, case- and
// accent-insensitive, whole words only ("Notion" is not in "notional"), names with punctuation
// ("Monday.com", "AT&T", "Node.js"), possessives, and non-Latin scripts. An alias that is also a
// common word can be marked case-sensitive. Pure and synchronous: it runs in the worker after
// every capture and over history when aliases change.
import Sentiment from "sentiment";
import { sentencesOfMarkdown } from "@/lib/analysis/text";

export type Entity = {
  name: string;
  kind: "brand" | "competitor";
  aliases?: string[];
  /** Aliases matched only with exactly this capitalisation (e.g. "Close" the CRM vs "close"). */
  caseSensitiveAliases?: string[];
};

export type EntityResult = {
  name: string;
  kind: "brand" | "competitor";
  mentioned: boolean;
  count: number;
  /** 1-based order of first mention among the tracked entities; null when not mentioned. */
  position: number | null;
  sentiment: "positive" | "neutral" | "negative" | null;
};

/** Removes accents (é → e), keeps everything else; lower-cases unless told not to. */
function fold(text: string, lowerCase = true): string {
  const stripped = text.normalize("NFKD").replace(/\p{M}/gu, "");
  return lowerCase ? stripped.toLowerCase() : stripped;
}

const WORD = /[\p{L}\p{N}]/u;
// Scripts written without spaces between words: no word boundaries to require.
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}]/u;

type Needle = { text: string; caseSensitive: boolean; entity: number };
type Hit = { entity: number; sentence: number; start: number; end: number };

function findAll(haystack: string, needle: Needle, sentence: number, hits: Hit[]) {
  if (!needle.text) return;
  const unspaced = UNSPACED.test(needle.text);
  for (let from = haystack.indexOf(needle.text); from >= 0; from = haystack.indexOf(needle.text, from + 1)) {
    const end = from + needle.text.length;
    const before = haystack[from - 1] ?? "";
    const after = haystack[end] ?? "";
    const startsWithWord = WORD.test(needle.text[0]!);
    const endsWithWord = WORD.test(needle.text[needle.text.length - 1]!);
    if (!unspaced && ((startsWithWord && WORD.test(before)) || (endsWithWord && WORD.test(after)))) continue;
    hits.push({ entity: needle.entity, sentence, start: from, end });
  }
}

const sentimentAnalyzer = new Sentiment();
// AFINN is a general lexicon; these are the words software reviews lean on that it lacks.
const PRODUCT_WORDS: Record<string, number> = {
  affordable: 2, intuitive: 2, reliable: 2, "user-friendly": 2, powerful: 2, flexible: 1, scalable: 1, robust: 2, seamless: 2, praised: 2, favourite: 2, favorite: 2,
  expensive: -2, pricey: -2, costly: -2, clunky: -2, buggy: -2, slow: -1, complex: -1, complicated: -2, cluttered: -2, outdated: -2, limited: -1, criticised: -2, criticized: -2, unreliable: -2, overkill: -1,
};
// Contrast words split a sentence into the parts that talk about different entities. Sentences
// have single spaces (lib/analysis/text.ts), so each alternative is a fixed few characters: no
// backtracking over runs of whitespace.
const CLAUSE_BREAK = / ?; ?|,? (?:but|while|whereas|although|however,?) /i;

function sentimentOf(texts: string[]): EntityResult["sentiment"] {
  if (!texts.length) return null;
  const score = texts.reduce((sum, text) => sum + sentimentAnalyzer.analyze(text, { extras: PRODUCT_WORDS }).score, 0);
  return score > 0 ? "positive" : score < 0 ? "negative" : "neutral";
}

export function analyzeMentions(answer: string, entities: Entity[]): EntityResult[] {
  const sentences = sentencesOfMarkdown(answer);
  const needles: Needle[] = entities.flatMap((entity, index) => {
    const sensitive = new Set(entity.caseSensitiveAliases ?? []);
    const names = [entity.name, ...(entity.aliases ?? []), ...sensitive].filter((n) => n.trim());
    return [...new Set(names)].map((name) => ({ text: fold(name.trim(), !sensitive.has(name)), caseSensitive: sensitive.has(name), entity: index }));
  });

  const hits: Hit[] = [];
  sentences.forEach((sentence, i) => {
    const lower = fold(sentence);
    const exact = fold(sentence, false);
    for (const needle of needles) findAll(needle.caseSensitive ? exact : lower, needle, i, hits);
  });
  // Longest match wins where names overlap ("Salesforce Sales Cloud" over "Salesforce").
  hits.sort((a, b) => a.sentence - b.sentence || a.start - b.start || b.end - b.start - (a.end - a.start));
  const accepted: Hit[] = [];
  for (const hit of hits) {
    const last = accepted[accepted.length - 1];
    if (last && last.sentence === hit.sentence && hit.start < last.end) continue;
    accepted.push(hit);
  }

  const firstSeen = new Map<number, number>();
  accepted.forEach((hit, order) => firstSeen.has(hit.entity) || firstSeen.set(hit.entity, order));
  const ranking = [...firstSeen.entries()].sort((a, b) => a[1] - b[1]).map(([entity]) => entity);
  // Per entity, its hits; per sentence, the entities it names (looked up, not searched for, so
  // the work stays linear in the number of hits).
  const hitsOf = entities.map(() => [] as Hit[]);
  const namedIn = new Map<number, Set<number>>();
  for (const hit of accepted) {
    hitsOf[hit.entity]!.push(hit);
    const named = namedIn.get(hit.sentence) ?? new Set<number>();
    namedIn.set(hit.sentence, named.add(hit.entity));
  }

  return entities.map((entity, index) => {
    const own = hitsOf[index]!;
    const texts = [...new Set(own.map((h) => h.sentence))].map((s) => {
      const sentence = sentences[s]!;
      if (namedIn.get(s)!.size === 1) return sentence;
      // Several entities in one sentence: judge only the clauses that name this one.
      const names = needles.filter((n) => n.entity === index).map((n) => n.text);
      const clauses = sentence.split(CLAUSE_BREAK).filter((clause) => names.some((name) => fold(clause).includes(name) || fold(clause, false).includes(name)));
      return clauses.length ? clauses.join(". ") : sentence;
    });
    const position = ranking.indexOf(index);
    return {
      name: entity.name,
      kind: entity.kind,
      mentioned: own.length > 0,
      count: own.length,
      position: position >= 0 ? position + 1 : null,
      sentiment: sentimentOf(texts),
    };
  });
}
