import { evaluateAlerts } from "@/lib/alerts/evaluate";
import { ALERT_KINDS_BY_REASON } from "@/lib/alerts/kinds";
import { defineTask } from "@/worker/tasks/define";

/** Evaluates one workspace's alert rules of the kinds its reason covers (lib/alerts/evaluate.ts). */
export const evaluate_alerts = defineTask("evaluate_alerts", async ({ workspaceId, reason }, helpers) => {
  const results = await evaluateAlerts(workspaceId, { kinds: ALERT_KINDS_BY_REASON[reason] });
  const fired = results.reduce((sum, r) => sum + r.outcome.fired, 0);
  const failed = results.filter((r) => r.outcome.status === "error");
  for (const r of failed) helpers.logger.warn(`alert rule ${r.ruleId}: ${r.outcome.message}`);
  if (fired) helpers.logger.info(`workspace ${workspaceId}: ${fired} alert${fired === 1 ? "" : "s"} fired (${reason})`);
});
