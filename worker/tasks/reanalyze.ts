import type { Task } from "graphile-worker";
import { runReanalysis } from "@/lib/analysis/reanalyze";
import { reanalyzePayload } from "@/lib/jobs/payloads";

/** Re-applies a brand's current names and competitors to its stored answers (lib/analysis/reanalyze.ts). */
export const reanalyze: Task = async (payload) => {
  const { analysisRunId } = reanalyzePayload.parse(payload);
  await runReanalysis(analysisRunId);
};
