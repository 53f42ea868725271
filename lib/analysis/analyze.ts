// The whole analysis of one answer: mentions of the brand and competitors, and citations.
// Pure; used by the worker after each capture, by re-analysis, by the demo history and by
// `npm run beacon -- analyze`.
import { extractCitations, type Citation } from "@/lib/analysis/citations";
import { analyzeMentions, type EntityResult } from "@/lib/analysis/mentions";
import type { Source } from "@/lib/providers/types";

export type TrackedEntity = { name: string; aliases?: string[]; caseSensitiveAliases?: string[]; domains?: string[] };

export type AnalysisInput = {
  answer: string;
  brand: TrackedEntity;
  competitors: TrackedEntity[];
  sources?: Source[];
};

export type AnalysisResult = { entities: EntityResult[]; citations: Citation[] };

export function analyzeAnswer(input: AnalysisInput): AnalysisResult {
  const entities = analyzeMentions(input.answer, [
    { ...input.brand, kind: "brand" },
    ...input.competitors.map((c) => ({ ...c, kind: "competitor" as const })),
  ]);
  const citations = extractCitations({ text: input.answer, sources: input.sources ?? [], ownDomains: input.brand.domains ?? [] });
  return { entities, citations };
}
