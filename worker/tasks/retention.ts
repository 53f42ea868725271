import { env } from "@/lib/config/env";
import { runRetention } from "@/lib/jobs/retention";
import { defineTask } from "@/worker/tasks/define";

/** Hourly (graphile-worker cron, one run across all workers): lib/jobs/retention.ts. */
export const retention = defineTask("retention", async (_payload, helpers) => {
  const result = await runRetention({ attemptRetentionDays: env().BEACON_ATTEMPT_RETENTION_DAYS });
  helpers.logger.info(`retention: ${JSON.stringify(result)}`);
});
