import { runReanalysis } from "@/lib/brands/reanalysis";
import { defineTask } from "@/worker/tasks/define";

/** Re-applies a brand's current names and competitors to its stored answers (lib/brands/reanalysis.ts). */
export const reanalyze = defineTask("reanalyze", async ({ analysisRunId }, helpers) => {
  // graphile-worker counts the attempt when it hands the job out: the first run sees 1.
  await runReanalysis(analysisRunId, { lastAttempt: helpers.job.attempts >= helpers.job.max_attempts });
});
