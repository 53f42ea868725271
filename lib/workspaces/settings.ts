import "server-only";
import { refuseStaleEdit } from "@/lib/validation/edit-version";
import { budgetStatus } from "@/lib/billing/budget";
import { db } from "@/lib/db/prisma";
import { inTransaction } from "@/lib/db/transaction";
import { wakeBudgetWaiters } from "@/lib/lifecycle/transition";

/** The Settings page's workspace form: its name, its budget with this month's spend, and the row's version (updatedAt). */
export async function workspaceSettings(workspaceId: string) {
  const { name, updatedAt } = await db().workspace.findUniqueOrThrow({ where: { id: workspaceId }, select: { name: true, updatedAt: true } });
  return { name, updatedAt, budget: await budgetStatus(workspaceId) };
}

/**
 * Renames the workspace and sets its monthly budget. Captures waiting for budget look again at
 * once: a raised budget lets them run (one that is still too low sends them back to wait).
 * `version`: the row's updatedAt as the form read it (refuseStaleEdit: a rename from a form opened
 * before another admin's budget change would put the old budget back).
 */
export async function updateWorkspaceSettings(workspaceId: string, input: { name: string; monthlyBudgetMicros: number | null }, { version }: { version?: Date } = {}) {
  await inTransaction(async (tx) => {
    const [current] = await tx.$queryRaw<{ updatedAt: Date }[]>`SELECT "updatedAt" FROM workspaces WHERE id = ${workspaceId}::uuid FOR NO KEY UPDATE`;
    refuseStaleEdit("The workspace's settings", current!.updatedAt, version);
    await tx.workspace.update({
      where: { id: workspaceId },
      data: { name: input.name, monthlyBudgetMicros: input.monthlyBudgetMicros === null ? null : BigInt(input.monthlyBudgetMicros) },
    });
    await wakeBudgetWaiters(tx, workspaceId, 10_000);
  });
}
