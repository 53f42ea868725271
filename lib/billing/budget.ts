import "server-only";
import { formatMicros } from "@/lib/format";
import { db } from "@/lib/db/prisma";
import { UserError } from "@/lib/errors";
import { Prisma } from "@/lib/generated/prisma/client";

type Tx = Prisma.TransactionClient;

// A workspace's monthly budget (DESIGN.md "Money"), kept per UTC month of the DATABASE clock, so
// that web servers and workers on machines whose clocks disagree (or a check created at midnight
// on the 1st) all count in the same month. Three sums:
//   reservedMicros  holds of unfinished captures: their expected cost, taken when a check is
//                   created or retried (admission: charged + reserved + new <= budget)
//   inFlightMicros  worst cases of the calls reserved and not yet settled: a capture's open
//                   attempt (beacon_claim) and a setup wizard call from its request until its
//                   row leaves `running` (reserveCall). The view beacon_in_flight (migration
//                   20261205120000) lists exactly these, one row per reservation; the repair
//                   pass holds the ledgers to it, so anything new that reserves in flight must
//                   appear in that view, or the repair pass zeroes its reservation mid-call
//   chargedMicros   what calls cost, attempts' and setup wizard calls' (actual, or the estimate
//                   of an unknown or aborted call)
// The hard cap is charged + inFlight <= budget: a call starts only if its worst case fits, and
// it is charged at most that worst case. Both admissions are one rule, the SQL function
// beacon_fits (charged + in use + amount <= limit, no limit: always), and the month is
// beacon_month(). grant_spend_periods keeps the same two sums per
// workspace, connection and month, capped by the grant's monthly limit.
//
// Each month's sums are spread over LEDGER_SHARDS rows (migration 20261130152000_ledger_shards),
// because every claim and every result of a workspace writes them. Shard 0 is the admission row:
// what adds to the sums (a hold, a call's worst case) adds there, in one statement that locks it
// and adds only what fits the totals over all shards; additions take turns. What gives back (a
// result: the worst case leaves "in flight", at most that much is charged, the hold is released)
// adds its deltas to one of the other shards and waits for no claim. An addition that reads the
// totals while a result is uncommitted sees more in use than there will be: the cap can only be
// too strict, never exceeded (see holdBudget). Only lib/lifecycle calls the writers
// below, inside its transitions, last (the lock order); and lib/setup for a first run's one
// call (reserveCall, settleLedgers), also last in its transactions.

export class BudgetExceededError extends UserError {
  override readonly status = 402;
  override readonly code = "budget_exceeded";
}

/** Rows per month and ledger: the admission row (0) and the rows results add to (1..). */
export const LEDGER_SHARDS = 8;

/**
 * Admission: holds `amountMicros` of this month's budget for new or retried captures, atomically
 * (two checks created at once cannot both squeeze under the limit). Returns the month the hold
 * is in; refuses with the shortfall otherwise.
 */
export async function holdBudget(tx: Tx, workspaceId: string, amountMicros: number): Promise<Date> {
  // beacon_budget_add (migration 20261201140000_lifecycle_hot_path): one statement, so the
  // admission row is held from here to the commit only. Its own sums are read at their latest
  // (ON CONFLICT locks the row and reads its newest version: additions take turns); the other
  // shards may miss results committed since. For calls in flight that is safe: a result only
  // gives back (charged at most the worst case it releases), so the totals can only be
  // overstated. For holds (admission of a check, an estimate: the hard cap is the call's) a
  // result charged more than its capture's hold may be missed for that instant.
  const [added] = await tx.$queryRaw<{ period: Date | null }[]>`SELECT beacon_budget_add(${workspaceId}::uuid, false, ${amountMicros}::bigint) AS period`;
  if (added?.period) return added.period;
  const status = await budgetStatus(workspaceId, tx);
  const limitMicros = status.limitMicros ?? 0;
  const left = status.leftMicros ?? 0;
  throw new BudgetExceededError(
    `This would cost about ${formatMicros(amountMicros)}, which is ${formatMicros(amountMicros - left)} over this month's budget ` +
      `(${formatMicros(left)} of ${formatMicros(limitMicros)} left). Ask an admin to raise the budget or run fewer prompts, providers or samples.`,
  );
}

/**
 * Would a call with this worst case fit now, in the budget and in the grant's limit (read only,
 * beacon_call_would_fit)? For a claim that was refused, to look again once the results in flight
 * have committed.
 */
export async function callWouldFit(tx: Tx, call: { workspaceId: string; connectionId: string; worstMicros: number }): Promise<boolean> {
  const [row] = await tx.$queryRaw<{ fits: boolean }[]>`
    SELECT beacon_call_would_fit(${call.workspaceId}::uuid, ${call.connectionId}::uuid, ${call.worstMicros}::bigint) AS fits`;
  return row?.fits === true;
}

/**
 * A call outside any capture (a first run's suggestions, lib/setup): reserves its worst case "in
 * flight" on the budget and on the workspace's grant of the connection, as a capture's claim does
 * (beacon_claim: beacon_budget_add and beacon_grant_add), so the hard caps hold for it too.
 * Refuses with the shortfall, and then nothing is reserved (the caller's transaction rolls back).
 * The caller's row must be one beacon_in_flight lists while the call is unsettled (a
 * setup_suggestions row `queued` or `running`), in the same transaction; settled with
 * settleLedgers like any call, in the transaction that takes the row out of that view.
 */
export async function reserveCall(tx: Tx, call: { workspaceId: string; connectionId: string; worstMicros: number }): Promise<Date> {
  const [row] = await tx.$queryRaw<{ budget: Date | null; grant: Date | null }[]>`
    SELECT b AS budget, CASE WHEN b IS NULL THEN NULL ELSE beacon_grant_add(${call.connectionId}::uuid, ${call.workspaceId}::uuid, ${call.worstMicros}::bigint) END AS grant
    FROM beacon_budget_add(${call.workspaceId}::uuid, true, ${call.worstMicros}::bigint) AS b`;
  if (row?.budget && row.grant) return row.budget;
  if (!row?.budget) {
    const status = await budgetStatus(call.workspaceId, tx);
    const left = moneyLeft(status, "call") ?? 0;
    throw new BudgetExceededError(
      `This could cost up to ${formatMicros(call.worstMicros)}, which is ${formatMicros(call.worstMicros - left)} over this month's budget ` +
        `(${formatMicros(left)} of ${formatMicros(status.limitMicros ?? 0)} left). Ask an admin to raise the budget, or pick the simulator.`,
    );
  }
  throw new BudgetExceededError(
    `This could cost up to ${formatMicros(call.worstMicros)}, more than is left of this month's limit on this connection. Ask an operator to raise it, or pick another connection.`,
  );
}

/** A hold given back: a capture that held `micros` of `period`'s budget ended. */
export type HoldRelease = { workspaceId: string; period: Date; micros: bigint };
/** A call that ended: its worst case (`reserved`) leaves "in flight" and `charged` is charged, in its month. */
export type CallSettlement = { workspaceId: string; connectionId: string; period: Date; reserved: bigint; charged: bigint };

/**
 * What a transition owes the ledgers, in one statement: holds given back and calls settled,
 * summed per workspace and month (budget_periods) and per grant and month (grant_spend_periods),
 * added as deltas to one shard other than the admission row, picked at random (results do not
 * wait for claims, and seldom for each other). Each month's totals are the sums over its shards.
 */
export async function settleLedgers(tx: Tx, holds: HoldRelease[], calls: CallSettlement[]): Promise<void> {
  const released = holds.filter((hold) => hold.micros > 0n);
  if (!released.length && !calls.length) return;
  const budgetRows = [
    ...released.map((h) => ({ workspaceId: h.workspaceId, period: h.period, reserved: h.micros, inFlight: 0n, charged: 0n })),
    ...calls.map((c) => ({ workspaceId: c.workspaceId, period: c.period, reserved: 0n, inFlight: c.reserved, charged: c.charged })),
  ];
  await tx.$executeRaw`
    SELECT beacon_settle_ledgers(${resultShard()}::smallint,
      ${budgetRows.map((r) => r.workspaceId)}::uuid[], ${budgetRows.map((r) => r.period)}::date[], ${budgetRows.map((r) => r.reserved)}::bigint[],
      ${budgetRows.map((r) => r.inFlight)}::bigint[], ${budgetRows.map((r) => r.charged)}::bigint[],
      ${calls.map((c) => c.connectionId)}::uuid[], ${calls.map((c) => c.workspaceId)}::uuid[], ${calls.map((c) => c.period)}::date[],
      ${calls.map((c) => c.reserved)}::bigint[], ${calls.map((c) => c.charged)}::bigint[])`;
}

/** A ledger shard other than the admission row, at random: where a result adds its deltas. */
export const resultShard = () => 1 + Math.floor(Math.random() * (LEDGER_SHARDS - 1));

/** A month's sums of a ledger (over its shards) and its limit (null: none). */
export type LedgerTotals = { limitMicros: number | null; reservedMicros: number; inFlightMicros: number; chargedMicros: number };

/**
 * What the money rule counts as in use of the month for an addition of one kind: charged plus
 * the holds (a check's "hold") or plus the calls in flight (a "call"). The rule itself lives in
 * SQL only (beacon_fits: charged + in use + amount <= limit, inside the guarded upserts); these
 * two report the same sums to people (refusals, settings, the costs dashboard).
 */
export const moneyUsed = (t: LedgerTotals, use: "hold" | "call") => t.chargedMicros + (use === "hold" ? t.reservedMicros : t.inFlightMicros);

/** What is left of the limit for an addition of one kind (never below 0); null without a limit. */
export const moneyLeft = (t: LedgerTotals, use: "hold" | "call") => (t.limitMicros === null ? null : Math.max(0, t.limitMicros - moneyUsed(t, use)));

export type BudgetStatus = LedgerTotals & {
  /** The month, first day (database clock, beacon_month()). */
  period: Date;
  /** What a new check may still hold: moneyLeft(…, "hold"). */
  leftMicros: number | null;
};

/** This month's budget: limit, holds of unfinished captures, calls in flight, charged, left. */
export async function budgetStatus(workspaceId: string, client: Tx = db()): Promise<BudgetStatus> {
  const [row] = await client.$queryRaw<{ period: Date; limit: bigint | null; reserved: bigint | null; inFlight: bigint | null; charged: bigint | null }[]>`
    SELECT p.period, w."monthlyBudgetMicros" AS limit,
           sum(b."reservedMicros")::bigint AS reserved, sum(b."inFlightMicros")::bigint AS "inFlight", sum(b."chargedMicros")::bigint AS charged
    FROM workspaces w CROSS JOIN (SELECT beacon_month() AS period) p
    LEFT JOIN budget_periods b ON b."workspaceId" = w.id AND b."periodStart" = p.period
    WHERE w.id = ${workspaceId}::uuid
    GROUP BY p.period, w."monthlyBudgetMicros"`;
  if (!row) throw new Error(`workspace ${workspaceId} not found`);
  const totals: LedgerTotals = {
    limitMicros: row.limit === null ? null : Number(row.limit),
    reservedMicros: Number(row.reserved ?? 0),
    inFlightMicros: Number(row.inFlight ?? 0),
    chargedMicros: Number(row.charged ?? 0),
  };
  return { period: row.period, ...totals, leftMicros: moneyLeft(totals, "hold") };
}
