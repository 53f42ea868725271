// Brands that are also ordinary words ("Notion", "Linear", «Магнит»): an answer can use the word
// as a word ("a linear pricing model", «магнит для холодильника»). No dictionary is loaded to
// know which names are words; the answer tells: a single-word name that the answer also writes
// in lower case (not as a domain) is used as a word there, and then only its occurrences written
// as a name count: capitalised inside a sentence, or capitalised at a sentence's start with a sign
// that the name is meant (introduced as "Linear: ..." or «Магнит — ...», next to another tracked
// name, its domain, or a word such as "app", «сервис», "Anbieter"). An answer that never writes
// it in lower case is matched as before, so English analysis is unchanged where no name is used
// as a word. Linear: one pass over the hits.

import { unicodeHost } from "@/lib/analysis/host";

/** A single word of letters written as a word would be (Notion, linear, Магнит), not HubSpot or SFDC. */
export function isWordLike(name: string): boolean {
  return /^[\p{Lu}\p{Ll}]+$/u.test(name) && name.slice(1) === name.slice(1).toLowerCase();
}

export type RawHit = { wordLike: boolean; capitalised?: boolean; initial?: boolean; domain?: boolean; introduced?: boolean };

const CUE = /\b(?:app|apps|tool|tools|platform|software|service|crm|saas|plattform|anbieter|dienst|werkzeug)\b|(?:^|[^\p{L}])(?:сервис|приложени|платформ|маркетплейс|магазин|сеть|сети|компани|площадк)/iu;

type Hit = RawHit & { entity: number; sentence: number };

/** The hits that name an entity: all of them, except where the answer uses the name as a word. */
export function acceptedAsName<H extends Hit>(hits: H[], lowerSentences: string[], entities: { domains?: string[] }[]): H[] {
  const usedAsWord = new Set<number>();
  const namedIn = new Map<number, Set<number>>();
  for (const hit of hits) {
    if (hit.wordLike && !hit.capitalised && !hit.domain) usedAsWord.add(hit.entity);
    const named = namedIn.get(hit.sentence) ?? new Set<number>();
    namedIn.set(hit.sentence, named.add(hit.entity));
  }
  if (!usedAsWord.size) return hits;
  const cued = (hit: H) => {
    const sentence = lowerSentences[hit.sentence] ?? "";
    if (hit.introduced || (namedIn.get(hit.sentence)?.size ?? 0) > 1) return true;
    // Stored in ASCII form; an answer may write an international one either way (линия-техно.рф).
    if ((entities[hit.entity]?.domains ?? []).some((domain) => domain && (sentence.includes(domain.toLowerCase()) || sentence.includes(unicodeHost(domain.toLowerCase()))))) return true;
    return CUE.test(sentence);
  };
  return hits.filter((hit) => !hit.wordLike || !usedAsWord.has(hit.entity) || hit.domain || (hit.capitalised && (!hit.initial || cued(hit))));
}
