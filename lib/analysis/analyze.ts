// The whole analysis of one answer: mentions of the brand and competitors, and citations.
// Pure; used by the worker after each capture, by re-analysis, by the demo history and by
// `npm run beacon -- analyze`.
//
// An answer is untrusted text (a provider, or whatever stands in for one, can send anything), and
// the analysis runs synchronously in the worker, so it must not stall it: every step is linear
// in the answer's length (lib/analysis/text.ts, inline.ts, mentions.ts, citations.ts), nothing in
// it throws on odd markdown, and only the first ANALYSIS_MAX_CHARS characters are read.
import { extractCitations, type Citation } from "@/lib/analysis/citations";
import { answerLanguage, type AnalysisLanguage } from "@/lib/analysis/language";
import { analyzeMentions, type EntityResult } from "@/lib/analysis/mentions";
import type { Source } from "@/lib/providers/types";

/**
 * 200,000 characters is about 50,000 tokens of English: ten times a long answer (the default
 * output limit is 2,048 tokens, about 8,000 characters), and still analysed in well under a
 * second even when it is built to be slow (bench: "analysis of a hostile answer").
 */
export const ANALYSIS_MAX_CHARS = 200_000;

export type TrackedEntity = { name: string; aliases?: string[]; caseSensitiveAliases?: string[]; domains?: string[] };

export type AnalysisInput = {
  answer: string;
  brand: TrackedEntity;
  competitors: TrackedEntity[];
  sources?: Source[];
  /** The prompt's language (BCP 47), when it was set; else the answer's is detected. */
  language?: string | null;
};

/** `truncated`: the answer was longer than ANALYSIS_MAX_CHARS and only its start was analysed. */
export type AnalysisResult = { entities: EntityResult[]; citations: Citation[]; truncated: boolean; language: AnalysisLanguage };

/** The first `max` characters, not splitting a surrogate pair (an emoji) in two. */
function head(text: string, max: number): string {
  if (text.length <= max) return text;
  const code = text.charCodeAt(max - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? max - 1 : max);
}

export function analyzeAnswer(input: AnalysisInput): AnalysisResult {
  const answer = head(input.answer, ANALYSIS_MAX_CHARS);
  const language = answerLanguage(answer, input.language);
  const entities = analyzeMentions(
    answer,
    [{ ...input.brand, kind: "brand" }, ...input.competitors.map((c) => ({ ...c, kind: "competitor" as const }))],
    language,
  );
  const citations = extractCitations({ text: answer, sources: input.sources ?? [], ownDomains: input.brand.domains ?? [] });
  return { entities, citations, truncated: answer.length < input.answer.length, language };
}
