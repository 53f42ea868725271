import "server-only";
import type { Prisma } from "@/lib/generated/prisma/client";
import { formatMicros } from "@/lib/billing/money";
import { db } from "@/lib/db/prisma";
import { UserError } from "@/lib/errors";

type Tx = Prisma.TransactionClient;

export class BudgetExceededError extends UserError {
  override readonly status = 402;
  override readonly code = "budget_exceeded";
}

/** Budgets are per calendar month in UTC; a check counts in the month it was created. */
export function periodStartOf(date: Date): Date {
  return new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1));
}

/**
 * Reserves `amountMicros` against the workspace's monthly budget, atomically: two checks
 * created at once cannot both squeeze under the limit. Refuses with the shortfall otherwise.
 */
export async function reserveBudget(tx: Tx, workspaceId: string, amountMicros: number, now = new Date()): Promise<void> {
  const period = periodStartOf(now);
  await tx.$executeRaw`
    INSERT INTO budget_periods ("workspaceId", "periodStart", "reservedMicros", "chargedMicros", "updatedAt")
    VALUES (${workspaceId}::uuid, ${period}::date, 0, 0, now())
    ON CONFLICT DO NOTHING`;
  const updated = await tx.$queryRaw<{ ok: number }[]>`
    UPDATE budget_periods b SET "reservedMicros" = b."reservedMicros" + ${amountMicros}, "updatedAt" = now()
    FROM workspaces w
    WHERE b."workspaceId" = ${workspaceId}::uuid AND b."periodStart" = ${period}::date AND w.id = b."workspaceId"
      AND (w."monthlyBudgetMicros" IS NULL OR b."reservedMicros" + b."chargedMicros" + ${amountMicros} <= w."monthlyBudgetMicros")
    RETURNING 1 AS ok`;
  if (updated.length) return;

  const [state] = await tx.$queryRaw<{ limit: bigint; used: bigint }[]>`
    SELECT w."monthlyBudgetMicros" AS limit, b."reservedMicros" + b."chargedMicros" AS used
    FROM workspaces w JOIN budget_periods b ON b."workspaceId" = w.id AND b."periodStart" = ${period}::date
    WHERE w.id = ${workspaceId}::uuid`;
  const limit = Number(state?.limit ?? 0);
  const left = Math.max(0, limit - Number(state?.used ?? 0));
  throw new BudgetExceededError(
    `This check would cost about ${formatMicros(amountMicros)}, which is ${formatMicros(amountMicros - left)} over this month's budget ` +
      `(${formatMicros(left)} of ${formatMicros(limit)} left). Ask an admin to raise the budget or run fewer prompts, providers or samples.`,
  );
}

/** Moves a settled check's money: releases its reservation and charges its accepted cost. */
export async function settleBudget(tx: Tx, workspaceId: string, periodOf: Date, releaseMicros: bigint, chargeMicros: bigint) {
  await tx.$executeRaw`
    UPDATE budget_periods SET
      "reservedMicros" = GREATEST(0, "reservedMicros" - ${releaseMicros}),
      "chargedMicros" = "chargedMicros" + ${chargeMicros},
      "updatedAt" = now()
    WHERE "workspaceId" = ${workspaceId}::uuid AND "periodStart" = ${periodStartOf(periodOf)}::date`;
}

export type BudgetStatus = { limitMicros: number | null; reservedMicros: number; chargedMicros: number; leftMicros: number | null };

/** This month's budget: limit, money reserved by running checks, money charged, what is left. */
export async function budgetStatus(workspaceId: string, now = new Date()): Promise<BudgetStatus> {
  const [workspace, period] = await Promise.all([
    db().workspace.findUniqueOrThrow({ where: { id: workspaceId }, select: { monthlyBudgetMicros: true } }),
    db().budgetPeriod.findUnique({ where: { workspaceId_periodStart: { workspaceId, periodStart: periodStartOf(now) } } }),
  ]);
  const limit = workspace.monthlyBudgetMicros === null ? null : Number(workspace.monthlyBudgetMicros);
  const reserved = Number(period?.reservedMicros ?? 0);
  const charged = Number(period?.chargedMicros ?? 0);
  return { limitMicros: limit, reservedMicros: reserved, chargedMicros: charged, leftMicros: limit === null ? null : Math.max(0, limit - reserved - charged) };
}
