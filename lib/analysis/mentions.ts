// Finds the brand and its competitors in an answer: by name and aliases, case- and
// accent-insensitive, whole words only ("Notion" is not in "notional"), names with punctuation
// ("Monday.com", "AT&T", "Node.js"), possessives, and non-Latin scripts. Inflected forms of the
// names count in Russian, Ukrainian and German answers (lib/analysis/inflection.ts). A name that
// the answer also uses as an ordinary word ("a linear scale", «магнит притягивает») counts only
// where it is written as a name (lib/analysis/common-words.ts). An alias that is always a common
// word can be marked case-sensitive. Pure and synchronous: it runs in the worker after every
// capture and over history when aliases change.
import { acceptedAsName, isWordLike, type RawHit } from "@/lib/analysis/common-words";
import { inflectedForms } from "@/lib/analysis/inflection";
import type { AnalysisLanguage } from "@/lib/analysis/language";
import { clausesOf, sentimentOf, type Clause } from "@/lib/analysis/sentiment";
import { sentencesOfMarkdown } from "@/lib/analysis/text";

export type Entity = {
  name: string;
  kind: "brand" | "competitor";
  aliases?: string[];
  /** Aliases matched only with exactly this capitalisation (e.g. "Close" the CRM vs "close"). */
  caseSensitiveAliases?: string[];
  /** Its web domains: near a sentence-initial name, a sign that the name is meant. */
  domains?: string[];
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

type Needle = { text: string; caseSensitive: boolean; entity: number; wordLike: boolean };
type Hit = RawHit & { entity: number; sentence: number; start: number; end: number };

function findAll(haystack: string, exact: string, needle: Needle, sentence: number, hits: Hit[]) {
  if (!needle.text) return;
  const unspaced = UNSPACED.test(needle.text);
  for (let from = haystack.indexOf(needle.text); from >= 0; from = haystack.indexOf(needle.text, from + 1)) {
    const end = from + needle.text.length;
    const before = haystack[from - 1] ?? "";
    const after = haystack[end] ?? "";
    const startsWithWord = WORD.test(needle.text[0]!);
    const endsWithWord = WORD.test(needle.text[needle.text.length - 1]!);
    if (!unspaced && ((startsWithWord && WORD.test(before)) || (endsWithWord && WORD.test(after)))) continue;
    hits.push({ entity: needle.entity, sentence, start: from, end, ...hitShape(exact, from, end, needle.wordLike) });
  }
}

/** Where a word-like name stands and how it is written (see common-words.ts). */
function hitShape(exact: string, start: number, end: number, wordLike: boolean): RawHit {
  if (!wordLike) return { wordLike };
  const first = exact[start] ?? "";
  let initial = true;
  for (let i = start - 1; i >= 0 && initial; i--) if (WORD.test(exact[i]!)) initial = false;
  return {
    wordLike,
    capitalised: first !== first.toLowerCase(),
    initial,
    // "pipedrive.com": a domain names the brand, lower-case or not.
    domain: exact[end] === "." && WORD.test(exact[end + 1] ?? ""),
    // "Linear: ...", "Магнит — сеть ...": a name introduced as a list or definition.
    introduced: /^(?:'s|’s)?(?::| [—–-] )/u.test(exact.slice(end, end + 5)),
  };
}

export function analyzeMentions(answer: string, entities: Entity[], language: AnalysisLanguage = "en"): EntityResult[] {
  const sentences = sentencesOfMarkdown(answer);
  const needles: Needle[] = entities.flatMap((entity, index) => {
    const sensitive = new Set(entity.caseSensitiveAliases ?? []);
    const names = [entity.name, ...(entity.aliases ?? []), ...sensitive].map((n) => n.trim()).filter(Boolean);
    return [...new Set(names)].flatMap((name) => {
      const caseSensitive = sensitive.has(name);
      const wordLike = !caseSensitive && isWordLike(name);
      const forms = [name, ...inflectedForms(name, language)];
      return forms.map((form) => ({ text: fold(form, !caseSensitive), caseSensitive, entity: index, wordLike }));
    });
  });

  const found: Hit[] = [];
  const lowerSentences = sentences.map((sentence, i) => {
    const lower = fold(sentence);
    const exact = fold(sentence, false);
    for (const needle of needles) findAll(needle.caseSensitive ? exact : lower, exact, needle, i, found);
    return lower;
  });
  const hits = acceptedAsName(found, lowerSentences, entities);
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

  const clausesAbout = clausesByEntity(sentences, namedIn, entities.map((_, index) => needles.filter((n) => n.entity === index).map((n) => n.text)), language);
  return entities.map((entity, index) => {
    const own = hitsOf[index]!;
    const position = ranking.indexOf(index);
    return {
      name: entity.name,
      kind: entity.kind,
      mentioned: own.length > 0,
      count: own.length,
      position: position >= 0 ? position + 1 : null,
      sentiment: sentimentOf(clausesAbout[index]!, language),
    };
  });
}

/**
 * What each entity's tone is judged by: the clauses of the sentences that name it, and nothing
 * else. A sentence that names one entity speaks about it throughout; in one that names several,
 * each gets the clauses that name it, and a clause that names none ("..., but it is expensive")
 * goes on about the first entity named in the clause before it (else the one after).
 */
function clausesByEntity(sentences: string[], namedIn: Map<number, Set<number>>, namesOf: string[][], language: AnalysisLanguage): Clause[][] {
  const about = namesOf.map(() => [] as Clause[]);
  for (const [s, named] of namedIn) {
    const sentence = sentences[s]!;
    const clauses = clausesOf(sentence, language);
    if (named.size === 1) {
      about[[...named][0]!]!.push(...clauses);
      continue;
    }
    // The entities each clause names, in the order it names them.
    const subjects = clauses.map(({ text }) => {
      const lower = fold(text);
      const exact = fold(text, false);
      const at = (name: string) => Math.min(...[lower.indexOf(name), exact.indexOf(name)].map((i) => (i < 0 ? Infinity : i)));
      return [...named]
        .map((entity) => ({ entity, at: Math.min(...namesOf[entity]!.map(at)) }))
        .filter((e) => e.at < Infinity)
        .sort((a, b) => a.at - b.at)
        .map((e) => e.entity);
    });
    const judged = new Set<number>();
    clauses.forEach((clause, i) => {
      let owners = subjects[i]!;
      for (let j = i - 1; !owners.length && j >= 0; j--) owners = subjects[j]!.slice(0, 1);
      for (let j = i + 1; !owners.length && j < clauses.length; j++) owners = subjects[j]!.slice(0, 1);
      for (const entity of owners) {
        about[entity]!.push(clause);
        judged.add(entity);
      }
    });
    // A name the clause cuts split (rare): the whole sentence, as it was before clauses.
    for (const entity of named) if (!judged.has(entity)) about[entity]!.push({ text: sentence, weight: 1 });
  }
  return about;
}
