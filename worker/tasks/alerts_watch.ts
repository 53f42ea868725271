import { scheduleAlertEvaluations } from "@/lib/alerts/schedule";
import { defineTask } from "@/worker/tasks/define";

/** Every minute (cron): breakers open too long and budget thresholds, for workspaces watching them. */
export const alerts_watch = defineTask("alerts_watch", async () => {
  await scheduleAlertEvaluations("watch");
});
