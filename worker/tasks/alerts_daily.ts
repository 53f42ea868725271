import { scheduleAlertEvaluations } from "@/lib/alerts/schedule";
import { defineTask } from "@/worker/tasks/define";

/** Daily (cron): a full evaluation for every workspace with alert rules, so quiet weeks are judged too. */
export const alerts_daily = defineTask("alerts_daily", async () => {
  await scheduleAlertEvaluations("daily");
});
