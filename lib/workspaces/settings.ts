import "server-only";
import { inTransaction } from "@/lib/db/transaction";
import { wakeBudgetWaiters } from "@/lib/lifecycle/transition";

/**
 * Renames the workspace and sets its monthly budget. Captures waiting for budget look again at
 * once: a raised budget lets them run (one that is still too low sends them back to wait).
 */
export async function updateWorkspaceSettings(workspaceId: string, input: { name: string; monthlyBudgetMicros: number | null }) {
  await inTransaction(async (tx) => {
    await tx.workspace.update({
      where: { id: workspaceId },
      data: { name: input.name, monthlyBudgetMicros: input.monthlyBudgetMicros === null ? null : BigInt(input.monthlyBudgetMicros) },
    });
    await wakeBudgetWaiters(tx, workspaceId, 10_000);
  });
}
