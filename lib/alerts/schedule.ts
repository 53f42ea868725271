import "server-only";
import { ALERT_KINDS_BY_REASON } from "@/lib/alerts/kinds";
import { db } from "@/lib/db/prisma";
import { transaction } from "@/lib/db/transaction";
import type { AlertReason } from "@/lib/jobs/catalog";
import { enqueueAlertEvaluation } from "@/lib/jobs/enqueue";

/**
 * One evaluation job per workspace with enabled rules of the reason's kinds (the crons fan out,
 * so one slow workspace does not hold up the others). Returns the workspaces.
 */
export async function scheduleAlertEvaluations(reason: AlertReason): Promise<string[]> {
  const rows = await db().alertRule.findMany({
    where: { enabled: true, kind: { in: [...ALERT_KINDS_BY_REASON[reason]] } },
    select: { workspaceId: true },
    distinct: ["workspaceId"],
  });
  const workspaceIds = rows.map((r) => r.workspaceId);
  await transaction(async (tx) => {
    for (const workspaceId of workspaceIds) await enqueueAlertEvaluation(tx, { workspaceId, reason });
  });
  return workspaceIds;
}

/** "Evaluate now" on the Alerts page: a full evaluation of the workspace's rules, in the worker. */
export async function requestAlertEvaluation(workspaceId: string): Promise<void> {
  await transaction((tx) => enqueueAlertEvaluation(tx, { workspaceId, reason: "daily" }));
}
