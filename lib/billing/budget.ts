import "server-only";
import { formatMicros } from "@/lib/billing/money";
import { db } from "@/lib/db/prisma";
import { UserError } from "@/lib/errors";
import { Prisma } from "@/lib/generated/prisma/client";

type Tx = Prisma.TransactionClient;

// A workspace's monthly budget (DESIGN.md "Money"), one `budget_periods` row per UTC month of the
// DATABASE clock, so that web servers and workers on machines whose clocks disagree (or a check
// created at midnight on the 1st) all count in the same month. Three sums:
//   reservedMicros  holds of unfinished captures: their expected cost, taken when a check is
//                   created or retried (admission: charged + reserved + new <= budget)
//   inFlightMicros  worst cases of the calls running now, taken before each call
//   chargedMicros   what attempts cost (actual, or the estimate of an unknown or aborted call)
// The hard cap is charged + inFlight <= budget: a call starts only if its worst case fits, and
// it is charged at most that worst case. grant_spend_periods keeps the same two sums per
// workspace, connection and month, capped by the grant's monthly limit. Only lib/captures/lifecycle calls the writers below,
// inside its transitions, after the capture and check rows are locked (one lock order).

/** The current month in the database's clock, as a `date`. */
export const CURRENT_PERIOD = Prisma.sql`date_trunc('month', now() AT TIME ZONE 'UTC')::date`;

export class BudgetExceededError extends UserError {
  override readonly status = 402;
  override readonly code = "budget_exceeded";
}

/** A monthly ledger with a limit: the workspace's budget, or its spend on one granted connection. */
type Ledger = { table: Prisma.Sql; keyColumns: Prisma.Sql; keyValues: Prisma.Sql; limit: Prisma.Sql };

const workspaceBudget = (workspaceId: string): Ledger => ({
  table: Prisma.raw("budget_periods"),
  keyColumns: Prisma.raw(`"workspaceId", "periodStart"`),
  keyValues: Prisma.sql`${workspaceId}::uuid, ${CURRENT_PERIOD}`,
  limit: Prisma.sql`(SELECT w."monthlyBudgetMicros" FROM workspaces w WHERE w.id = ${workspaceId}::uuid)`,
});

const grantSpend = (workspaceId: string, connectionId: string): Ledger => ({
  table: Prisma.raw("grant_spend_periods"),
  keyColumns: Prisma.raw(`"connectionId", "workspaceId", "periodStart"`),
  keyValues: Prisma.sql`${connectionId}::uuid, ${workspaceId}::uuid, ${CURRENT_PERIOD}`,
  limit: Prisma.sql`(SELECT g."monthlySpendLimitMicros" FROM connection_grants g WHERE g."connectionId" = ${connectionId}::uuid AND g."workspaceId" = ${workspaceId}::uuid)`,
});

/**
 * Adds `amount` to this month's `column` of the ledger, atomically and only if `column` plus the
 * charged sum stays within its limit (no limit: always). Returns the month, or null when it did
 * not fit.
 */
async function addWithinLimit(tx: Tx, ledger: Ledger, column: "reservedMicros" | "inFlightMicros", amount: number): Promise<Date | null> {
  const { table, limit } = ledger;
  const col = Prisma.raw(`"${column}"`);
  const rows = await tx.$queryRaw<{ period: Date }[]>`
    INSERT INTO ${table} (${ledger.keyColumns}, ${col}, "updatedAt")
    SELECT ${ledger.keyValues}, ${amount}, now()
    WHERE ${limit} IS NULL OR ${amount} <= ${limit}
    ON CONFLICT (${ledger.keyColumns}) DO UPDATE
      SET ${col} = ${table}.${col} + EXCLUDED.${col}, "updatedAt" = now()
      WHERE ${limit} IS NULL OR ${table}."chargedMicros" + ${table}.${col} + EXCLUDED.${col} <= ${limit}
    RETURNING "periodStart" AS period`;
  return rows[0]?.period ?? null;
}

/**
 * Admission: holds `amountMicros` of this month's budget for new or retried captures, atomically
 * (two checks created at once cannot both squeeze under the limit). Returns the month the hold
 * is in; refuses with the shortfall otherwise.
 */
export async function holdBudget(tx: Tx, workspaceId: string, amountMicros: number): Promise<Date> {
  const period = await addWithinLimit(tx, workspaceBudget(workspaceId), "reservedMicros", amountMicros);
  if (period) return period;
  const status = await budgetStatus(workspaceId, tx);
  const limitMicros = status.limitMicros ?? 0;
  const left = Math.max(0, status.leftMicros ?? 0);
  throw new BudgetExceededError(
    `This would cost about ${formatMicros(amountMicros)}, which is ${formatMicros(amountMicros - left)} over this month's budget ` +
      `(${formatMicros(left)} of ${formatMicros(limitMicros)} left). Ask an admin to raise the budget or run fewer prompts, providers or samples.`,
  );
}

/** Gives holds back (captures that finished), each in the month it was taken. */
export async function releaseHolds(tx: Tx, holds: { workspaceId: string; period: Date; micros: bigint }[]): Promise<void> {
  for (const hold of holds) {
    if (hold.micros <= 0n) continue;
    await tx.$executeRaw`
      UPDATE budget_periods SET "reservedMicros" = "reservedMicros" - ${hold.micros}, "updatedAt" = now()
      WHERE "workspaceId" = ${hold.workspaceId}::uuid AND "periodStart" = ${hold.period}::date`;
  }
}

/**
 * The hard cap: takes `worstMicros` for a call about to start, only if charged + in flight +
 * worstMicros stays within the workspace's budget AND within its grant's monthly limit on the
 * connection. Returns the month it is taken in, or what refused it (the capture then waits).
 */
export async function reserveCall(tx: Tx, call: { workspaceId: string; connectionId: string; worstMicros: number }): Promise<{ period: Date } | { refusedBy: "budget" | "grant" }> {
  const period = await addWithinLimit(tx, workspaceBudget(call.workspaceId), "inFlightMicros", call.worstMicros);
  if (!period) return { refusedBy: "budget" };
  if (await addWithinLimit(tx, grantSpend(call.workspaceId, call.connectionId), "inFlightMicros", call.worstMicros)) return { period };
  await tx.$executeRaw`
    UPDATE budget_periods SET "inFlightMicros" = "inFlightMicros" - ${call.worstMicros}
    WHERE "workspaceId" = ${call.workspaceId}::uuid AND "periodStart" = ${period}::date`;
  return { refusedBy: "grant" };
}

/** A call ended: its worst case leaves "in flight" and what it cost is charged, in its month, in both ledgers. */
export async function settleCall(tx: Tx, call: { workspaceId: string; connectionId: string; period: Date; reservedMicros: bigint; chargeMicros: bigint }): Promise<void> {
  await tx.$executeRaw`
    INSERT INTO budget_periods ("workspaceId", "periodStart", "chargedMicros", "updatedAt")
    VALUES (${call.workspaceId}::uuid, ${call.period}::date, ${call.chargeMicros}, now())
    ON CONFLICT ("workspaceId", "periodStart") DO UPDATE SET
      "inFlightMicros" = budget_periods."inFlightMicros" - ${call.reservedMicros},
      "chargedMicros" = budget_periods."chargedMicros" + EXCLUDED."chargedMicros",
      "updatedAt" = now()`;
  await tx.$executeRaw`
    INSERT INTO grant_spend_periods ("connectionId", "workspaceId", "periodStart", "chargedMicros", "updatedAt")
    VALUES (${call.connectionId}::uuid, ${call.workspaceId}::uuid, ${call.period}::date, ${call.chargeMicros}, now())
    ON CONFLICT ("connectionId", "workspaceId", "periodStart") DO UPDATE SET
      "inFlightMicros" = grant_spend_periods."inFlightMicros" - ${call.reservedMicros},
      "chargedMicros" = grant_spend_periods."chargedMicros" + EXCLUDED."chargedMicros",
      "updatedAt" = now()`;
}

export type BudgetStatus = {
  /** The month, first day (database clock). */
  period: Date;
  limitMicros: number | null;
  reservedMicros: number;
  inFlightMicros: number;
  chargedMicros: number;
  /** What a new check may still hold: limit - charged - reserved. */
  leftMicros: number | null;
};

/** This month's budget: limit, holds of unfinished captures, calls in flight, charged, left. */
export async function budgetStatus(workspaceId: string, client: Tx = db()): Promise<BudgetStatus> {
  const [row] = await client.$queryRaw<{ period: Date; limit: bigint | null; reserved: bigint | null; inFlight: bigint | null; charged: bigint | null }[]>`
    SELECT p.period, w."monthlyBudgetMicros" AS limit, b."reservedMicros" AS reserved, b."inFlightMicros" AS "inFlight", b."chargedMicros" AS charged
    FROM workspaces w CROSS JOIN (SELECT ${CURRENT_PERIOD} AS period) p
    LEFT JOIN budget_periods b ON b."workspaceId" = w.id AND b."periodStart" = p.period
    WHERE w.id = ${workspaceId}::uuid`;
  if (!row) throw new Error(`workspace ${workspaceId} not found`);
  const limit = row.limit === null ? null : Number(row.limit);
  const reserved = Number(row.reserved ?? 0);
  const charged = Number(row.charged ?? 0);
  return {
    period: row.period,
    limitMicros: limit,
    reservedMicros: reserved,
    inFlightMicros: Number(row.inFlight ?? 0),
    chargedMicros: charged,
    leftMicros: limit === null ? null : Math.max(0, limit - reserved - charged),
  };
}
