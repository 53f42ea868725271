import { enqueueWeeklyDigests } from "@/lib/alerts/digest";
import { defineTask } from "@/worker/tasks/define";

/** Monday 08:00 UTC: the weekly digest deliveries (lib/alerts/digest.ts); running it twice creates none twice. */
export const alert_digest = defineTask("alert_digest", async (_payload, helpers) => {
  helpers.logger.info(`weekly digest: ${await enqueueWeeklyDigests()} deliveries created`);
});
