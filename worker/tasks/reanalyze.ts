import { runReanalysis } from "@/lib/brands/reanalysis";
import { defineTask } from "@/worker/tasks/define";

/** Re-applies a brand's current names and competitors to its stored answers (lib/brands/reanalysis.ts). */
export const reanalyze = defineTask("reanalyze", async ({ analysisRunId }) => {
  await runReanalysis(analysisRunId);
});
