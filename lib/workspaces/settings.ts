import "server-only";
import { db } from "@/lib/db/prisma";

export async function updateWorkspaceSettings(workspaceId: string, input: { name: string; monthlyBudgetMicros: number | null }) {
  await db().workspace.update({
    where: { id: workspaceId },
    data: { name: input.name, monthlyBudgetMicros: input.monthlyBudgetMicros === null ? null : BigInt(input.monthlyBudgetMicros) },
  });
}
