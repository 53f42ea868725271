import { checkSiteReadiness } from "@/lib/traffic/readiness-check";
import { defineTask } from "@/worker/tasks/define";

/** Site readiness of one workspace's own domains (lib/traffic/readiness-check.ts). */
export const site_readiness = defineTask("site_readiness", async ({ workspaceId }, helpers) => {
  await checkSiteReadiness(workspaceId, { signal: helpers.abortSignal });
});
