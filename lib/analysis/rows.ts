import type { AnalysisResult } from "@/lib/analysis/analyze";
import { candidateKey } from "@/lib/analysis/brand-candidates";

export type MentionRow = {
  kind: "brand" | "competitor";
  brandId: string | null;
  competitorId: string | null;
  name: string;
  mentioned: boolean;
  count: number;
  position: number | null;
  sentiment: "positive" | "neutral" | "negative" | null;
};

/** A row type's columns as a list the compiler checks is whole: a column left out is a type error. */
const everyColumn =
  <Row>() =>
  <const List extends readonly (keyof Row)[]>(list: List & ([Exclude<keyof Row, List[number]>] extends [never] ? unknown : never)) =>
    list;

/** Every column of a mention row: what a re-analysis reads back and compares (lib/brands/reanalysis.ts). */
export const MENTION_COLUMNS = everyColumn<MentionRow>()(["kind", "brandId", "competitorId", "name", "mentioned", "count", "position", "sentiment"]);

/**
 * Mentions as rows: the analysis returns the brand first, then the competitors in the order
 * given, which is how the ids are matched back.
 */
export function mentionRows(result: AnalysisResult, brandId: string, competitorIds: string[]): MentionRow[] {
  return result.entities.map((entity, index) => ({
    kind: entity.kind,
    brandId: index === 0 ? brandId : null,
    competitorId: index === 0 ? null : (competitorIds[index - 1] ?? null),
    name: entity.name,
    mentioned: entity.mentioned,
    count: entity.count,
    position: entity.position,
    sentiment: entity.sentiment,
  }));
}

/** A candidate as stored (capture_candidates): its counting key and the spelling the answer used. */
export type CandidateRow = { key: string; name: string };
/** Every column of a candidate row, as MENTION_COLUMNS. */
export const CANDIDATE_COLUMNS = everyColumn<CandidateRow>()(["key", "name"]);

/** The answer's untracked candidates as rows (brandCandidates gives each key once). */
export function candidateRows(result: AnalysisResult): CandidateRow[] {
  return result.candidates.map((name) => ({ key: candidateKey(name), name }));
}
