import { scheduleSiteReadiness } from "@/lib/traffic/readiness-check";
import { defineTask } from "@/worker/tasks/define";

/** Daily (cron): a site readiness check per workspace with own domains, one job each. */
export const readiness_daily = defineTask("readiness_daily", async () => {
  await scheduleSiteReadiness();
});
