import { runDueSchedules } from "@/lib/schedules/run-due";
import { defineTask } from "@/worker/tasks/define";

/**
 * Every minute (graphile-worker cron, one job per minute across all workers): starts the checks
 * of the schedules that are due (lib/schedules/run-due.ts). Running it twice at once is harmless.
 */
export const schedules = defineTask("schedules", async (_payload, helpers) => {
  for (const run of await runDueSchedules()) {
    if (run.outcome === "failed") helpers.logger.warn(`schedule ${run.scheduleId}: slot ${run.slot.toISOString()} failed: ${run.message}`);
    else helpers.logger.info(`schedule ${run.scheduleId}: slot ${run.slot.toISOString()} -> check ${run.checkId}${run.outcome === "replayed" ? " (existing)" : ""}`);
  }
});
