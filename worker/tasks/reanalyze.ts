import { runReanalysis } from "@/lib/analysis/reanalyze";
import { defineTask } from "@/worker/tasks/define";

/** Re-applies a brand's current names and competitors to its stored answers (lib/analysis/reanalyze.ts). */
export const reanalyze = defineTask("reanalyze", async ({ analysisRunId }) => {
  await runReanalysis(analysisRunId);
});
