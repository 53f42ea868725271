// The whole analysis of one answer: mentions of the brand and competitors, citations, and the
// names it presents as options that are not tracked (brand-candidates.ts, for competitor discovery).
// Pure; used by the worker after each capture, by re-analysis, by the demo history and by
// `npm run beacon -- analyze`.
//
// An answer is untrusted text (a provider, or whatever stands in for one, can send anything), and
// the analysis runs synchronously in the worker, so it must not stall it: every step is linear
// in the answer's length (lib/analysis/text.ts, inline.ts, mentions.ts, citations.ts), nothing in
// it throws on odd markdown, and only the first ANALYSIS_MAX_CHARS characters are read.
import { extractCitations, type Citation } from "@/lib/analysis/citations";
import { brandCandidates } from "@/lib/analysis/brand-candidates";
import { answerLanguage, type AnalysisLanguage } from "@/lib/analysis/language";
import { analyzeMentions, type EntityResult } from "@/lib/analysis/mentions";
import { ANALYSIS_MAX_CHARS, type TrackedEntity } from "@/lib/analysis/tracked";
import type { Source } from "@/lib/providers/types";

export { ANALYSIS_MAX_CHARS, type TrackedEntity };

export type AnalysisInput = {
  answer: string;
  brand: TrackedEntity;
  competitors: TrackedEntity[];
  sources?: Source[];
  /** The prompt's language (BCP 47), when it was set; else the answer's is detected. */
  language?: string | null;
};

/**
 * `truncated`: the answer was longer than ANALYSIS_MAX_CHARS and only its start was analysed.
 * `candidates`: the untracked names it presents as options, each once, in reading order.
 */
export type AnalysisResult = { entities: EntityResult[]; citations: Citation[]; candidates: string[]; truncated: boolean; language: AnalysisLanguage };

/** The first `max` characters, not splitting a surrogate pair (an emoji) in two. */
function head(text: string, max: number): string {
  if (text.length <= max) return text;
  const code = text.charCodeAt(max - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? max - 1 : max);
}

/**
 * The answer's citations alone (its sources and inline links, own domains marked), read from the
 * same head of the answer: also what a paid answer keeps when the rest of its analysis throws,
 * since a provider's sources cannot be rebuilt later.
 */
export function answerCitations(input: Pick<AnalysisInput, "answer" | "sources" | "brand">): Citation[] {
  return extractCitations({ text: head(input.answer, ANALYSIS_MAX_CHARS), sources: input.sources ?? [], ownDomains: input.brand.domains ?? [] });
}

export function analyzeAnswer(input: AnalysisInput): AnalysisResult {
  const answer = head(input.answer, ANALYSIS_MAX_CHARS);
  const language = answerLanguage(answer, input.language);
  const entities = analyzeMentions(
    answer,
    [{ ...input.brand, kind: "brand" }, ...input.competitors.map((c) => ({ ...c, kind: "competitor" as const }))],
    language,
  );
  const citations = answerCitations(input);
  // Given the whole answer and the prompt's language, as discovery once read it from the raw text.
  const candidates = brandCandidates(input.answer, [input.brand, ...input.competitors], input.language);
  return { entities, citations, candidates, truncated: answer.length < input.answer.length, language };
}
