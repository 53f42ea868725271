import "server-only";
import { releaseHolds, settleCall } from "@/lib/billing/budget";
import { TRANSITIONS, deriveCheckStatus, isTerminal, type CaptureStatus, type CheckStatus, type TransitionName } from "@/lib/captures/states";
import { db } from "@/lib/db/prisma";
import { enqueueCaptureJobs } from "@/lib/jobs/enqueue";
import { Prisma } from "@/lib/generated/prisma/client";

export type Tx = Prisma.TransactionClient;

// The building blocks of every transition (see index.ts for the transitions themselves).
//
// Lock order, the same in every transaction that moves a capture, so that none can deadlock
// against another: capture rows (by id when there are several) -> its slot row -> attempt row ->
// check row -> budget row -> events and jobs. The triggers on captures give the slot back and
// lock the check row right after the capture, which is why the check comes next and budget
// writes come after refreshCheck. Captures locked later (woken ones) are taken SKIP LOCKED.

/** A capture a transition moved: its new status, and its budget hold (for release when terminal). */
export type Moved = {
  id: string;
  checkId: string;
  workspaceId: string;
  connectionId: string;
  /** The status it had before the transition. */
  fromStatus: CaptureStatus;
  status: CaptureStatus;
  hold: bigint;
  holdPeriod: Date | null;
  cancelRequested: boolean;
};

/**
 * The one guarded statement: moves the captures among `ids` that are in one of the transition's
 * `from` statuses (and, when given, still carry `runToken`), setting `set`. Returns the captures
 * it moved; a capture that lost the guard is simply absent, and nothing is written for it.
 * The captures are locked by id first (in the same statement), so two multi-capture transitions
 * cannot deadlock.
 */
export async function guardedUpdate(tx: Tx, name: TransitionName, guard: { ids: string[]; runToken?: string }, set: Prisma.Sql): Promise<Moved[]> {
  if (!guard.ids.length) return [];
  const { from, to } = TRANSITIONS[name];
  const token = guard.runToken === undefined ? Prisma.empty : Prisma.sql`AND c."runToken" = ${guard.runToken}::uuid`;
  const rows = await tx.$queryRaw<Moved[]>`
    UPDATE captures c SET ${set}, "updatedAt" = now()
    FROM (SELECT id, status FROM captures WHERE id = ANY(${guard.ids}::uuid[]) ORDER BY id FOR UPDATE) prior
    WHERE c.id = prior.id AND c.status = ANY(${[...from]}::"CaptureStatus"[]) ${token}
    RETURNING c.id, c."checkId", c."workspaceId", c."connectionId", prior.status::text AS "fromStatus", c.status::text AS status,
              c."reservedMicros" AS hold, c."reservedPeriod" AS "holdPeriod", c."cancelRequestedAt" IS NOT NULL AS "cancelRequested",
              -- A capture leaving running gives its slot back (trigger): see handOnSlots.
              CASE WHEN prior.status = 'running' AND c.status <> 'running'
                   THEN pg_advisory_xact_lock_shared(hashtextextended('slot-wait:' || c."connectionId", 0))::text END AS "slotWaitLock"`;
  for (const row of rows) {
    if (!(to as readonly string[]).includes(row.status)) throw new Error(`transition ${name} moved capture ${row.id} to ${row.status}, which it may not`);
  }
  return rows;
}

/**
 * A status expression that honours a cancel request: a capture that carries one ends
 * `cancelled`, whatever the transition meant to do (DESIGN.md "Cancellation").
 */
export const cancelAware = (next: CaptureStatus) =>
  Prisma.sql`(CASE WHEN c."cancelRequestedAt" IS NOT NULL THEN 'cancelled' ELSE ${next} END)::"CaptureStatus"`;

type Hold = { workspaceId: string; period: Date; micros: bigint };
type EventRow = { workspaceId: string; checkId: string; captureId?: string; kind: string; data?: Prisma.InputJsonValue; actorUserId?: string | null; actorApiKeyId?: string | null };

/**
 * What a transition does besides moving captures, collected while it runs and applied at the end
 * by `applyEffects` in the lock order: checks (money and status), budget, events, jobs.
 */
export class Effects {
  readonly checks = new Map<string, CheckMoney>();
  readonly holdsToRelease: Hold[] = [];
  readonly callsToSettle: ClosedAttempt[] = [];
  readonly events: EventRow[] = [];
  readonly jobs: { captureIds: string[]; delayMs: number }[] = [];
  /** Workspaces where money was freed: a capture waiting for budget may run now. */
  readonly moneyFreedIn = new Set<string>();
  /** Connections where captures left `running` (their slots were given back), with how many. */
  readonly slotsFreedOn = new Map<string, number>();

  check(checkId: string, money: CheckMoney = {}): this {
    const current = this.checks.get(checkId) ?? {};
    this.checks.set(checkId, {
      releaseMicros: (current.releaseMicros ?? 0n) + (money.releaseMicros ?? 0n),
      holdMicros: (current.holdMicros ?? 0n) + (money.holdMicros ?? 0n),
      chargeMicros: (current.chargeMicros ?? 0n) + (money.chargeMicros ?? 0n),
      cancelRequested: money.cancelRequested ?? current.cancelRequested,
    });
    return this;
  }

  call(closed: ClosedAttempt | null, checkId: string): this {
    if (!closed) return this;
    this.callsToSettle.push(closed);
    this.check(checkId, { chargeMicros: closed.charged });
    if (closed.reserved > closed.charged) this.moneyFreedIn.add(closed.workspaceId);
    return this;
  }

  event(row: EventRow): this {
    this.events.push(row);
    return this;
  }

  enqueue(captureIds: string[], delayMs = 0): this {
    if (captureIds.length) this.jobs.push({ captureIds, delayMs });
    return this;
  }
}

/**
 * What every transition that moved captures owes besides the move: the budget holds of those
 * that ended are released (they cost what their attempts were charged; the hold was only for
 * admission), and the slots of those that left `running` are noted, to wake captures waiting for
 * one (the trigger on captures gave the slots back). The capture rows are already locked.
 */
export async function settleMoved(tx: Tx, moved: Moved[], effects: Effects): Promise<void> {
  for (const m of moved) {
    if (m.fromStatus === "running" && m.status !== "running") effects.slotsFreedOn.set(m.connectionId, (effects.slotsFreedOn.get(m.connectionId) ?? 0) + 1);
  }
  const ended = moved.filter((m) => isTerminal(m.status) && m.hold > 0n);
  if (!ended.length) return;
  await tx.$executeRaw`UPDATE captures SET "reservedMicros" = 0 WHERE id = ANY(${ended.map((m) => m.id)}::uuid[])`;
  for (const m of ended) {
    effects.check(m.checkId, { releaseMicros: m.hold });
    if (m.holdPeriod) effects.holdsToRelease.push({ workspaceId: m.workspaceId, period: m.holdPeriod, micros: m.hold });
    effects.moneyFreedIn.add(m.workspaceId);
  }
}

/** Applies what a transition collected, in the lock order: checks, budget, events, jobs. */
export async function applyEffects(tx: Tx, effects: Effects): Promise<Map<string, CheckStatus>> {
  const statuses = new Map<string, CheckStatus>();
  for (const checkId of [...effects.checks.keys()].sort()) statuses.set(checkId, await refreshCheck(tx, checkId, effects.checks.get(checkId)));
  await releaseHolds(tx, effects.holdsToRelease);
  for (const call of effects.callsToSettle) {
    await settleCall(tx, { workspaceId: call.workspaceId, connectionId: call.connectionId, period: call.period, reservedMicros: call.reserved, chargeMicros: call.charged });
  }
  if (effects.events.length) await tx.event.createMany({ data: effects.events });
  for (const job of effects.jobs) await enqueueCaptureJobs(tx, { captureIds: job.captureIds }, job.delayMs);
  for (const workspaceId of effects.moneyFreedIn) await wakeBudgetWaiters(tx, workspaceId, WAKE_ON_FREED_MONEY);
  for (const [connectionId, freed] of effects.slotsFreedOn) await handOnSlots(tx, connectionId, freed);
  return statuses;
}

/** The advisory lock that orders a claim finding no free slot against releases of the connection's slots. */
export const slotWaitLock = (connectionId: string) => Prisma.sql`hashtextextended(${`slot-wait:${connectionId}`}, 0)`;

/**
 * Slots of the connection were given back: their captures' successors start now, not at their
 * next retry. Captures that found every slot taken wait `postponed` for a slot; the longest
 * waiting of the workspace holding the fewest slots is woken first (its job made due now, and
 * its wait marked over, so that the next freed slot wakes another). When the connection was
 * full, idle workers are also nudged: they skip a full connection's jobs (forbidden flags) and
 * would otherwise only look again at their next poll.
 */
async function handOnSlots(tx: Tx, connectionId: string, freed: number): Promise<void> {
  // guardedUpdate took slotWaitLock(connectionId) shared: a claim that found every slot taken
  // and waits for it exclusively has committed before this statement (so it is seen here), or
  // looks again at the slots after this transaction commits.
  // SKIP LOCKED: these captures are locked after the check (out of the lock order), so never wait.
  const woken = await tx.$queryRaw<{ id: string }[]>`
    UPDATE captures c SET "nextAttemptAt" = now(), "updatedAt" = now()
    WHERE c.id IN (
      SELECT w.id FROM captures w
      WHERE w."connectionId" = ${connectionId}::uuid AND w.status = 'postponed' AND w."waitingFor" = 'slot'
        AND w."cancelRequestedAt" IS NULL AND w."nextAttemptAt" > now()
      ORDER BY (SELECT count(*) FROM connection_slots s WHERE s."connectionId" = w."connectionId" AND s."workspaceId" = w."workspaceId"), w."nextAttemptAt", w.id
      LIMIT ${freed} FOR UPDATE SKIP LOCKED)
    RETURNING c.id`;
  await enqueueCaptureJobs(tx, { captureIds: woken.map((w) => w.id) });
  if (woken.length < freed) {
    await tx.$executeRaw`
      SELECT pg_notify('jobs:insert', json_build_object('count', ${freed - woken.length}::int)::text)
      WHERE (SELECT count(*) FROM connection_slots s JOIN provider_connections pc ON pc.id = s."connectionId"
             WHERE s."connectionId" = ${connectionId}::uuid AND s."captureId" IS NULL AND s.slot < pc."maxConcurrency") <= ${freed}`;
  }
}

/** Captures woken when a call or capture frees money; the rest wake on their own recheck. */
const WAKE_ON_FREED_MONEY = 4;

/**
 * Captures waiting for budget in the workspace get their job now instead of at their next
 * recheck (money was freed, or the budget was raised), oldest first.
 */
export async function wakeBudgetWaiters(tx: Tx, workspaceId: string, limit: number): Promise<number> {
  const waiting = await tx.$queryRaw<{ id: string }[]>`
    SELECT id FROM captures WHERE "workspaceId" = ${workspaceId}::uuid AND status = 'postponed' AND "waitingFor" = 'budget'
    ORDER BY "nextAttemptAt", id LIMIT ${limit}`;
  await enqueueCaptureJobs(tx, { captureIds: waiting.map((w) => w.id) });
  return waiting.length;
}

export type AttemptClose = {
  outcome: "succeeded" | "failed" | "unknown" | "cancelled";
  reason?: string | null;
  errorClass?: "permanent" | "transient" | "unknown" | null;
  httpStatus?: number | null;
  providerRequestId?: string | null;
  usage?: { inputTokens: number; outputTokens: number; reasoningTokens: number; cachedTokens: number; searchCalls: number };
  costMicros: number;
  costIsEstimate: boolean;
  latencyMs: number;
};

export type ClosedAttempt = { workspaceId: string; connectionId: string; reserved: bigint; period: Date; charged: bigint };

/**
 * Ends an open attempt (guarded: an attempt is closed once) and charges its cost to the month
 * its worst case was reserved in, releasing that reservation. Null when it was already closed.
 * Call it after the capture's guarded update, and hand the result to `Effects.call`.
 */
export async function closeAttempt(tx: Tx, runToken: string, facts: AttemptClose): Promise<ClosedAttempt | null> {
  const usage = facts.usage ?? { inputTokens: 0, outputTokens: 0, reasoningTokens: 0, cachedTokens: 0, searchCalls: 0 };
  const [row] = await tx.$queryRaw<{ workspaceId: string; connectionId: string; reserved: bigint; period: Date }[]>`
    WITH open AS (
      SELECT id, "reservedMicros" AS reserved, coalesce("budgetPeriod", date_trunc('month', now() AT TIME ZONE 'UTC')::date) AS period,
             (SELECT c."connectionId" FROM captures c WHERE c.id = attempts."captureId") AS "connectionId"
      FROM attempts WHERE "runToken" = ${runToken}::uuid AND outcome IS NULL FOR UPDATE
    )
    UPDATE attempts a SET
      outcome = ${facts.outcome}::"AttemptOutcome", reason = ${facts.reason ?? null}, "errorClass" = ${facts.errorClass ?? null}::"ErrorClass",
      "httpStatus" = ${facts.httpStatus ?? null}::int, "providerRequestId" = ${facts.providerRequestId ?? null},
      "inputTokens" = ${usage.inputTokens}::int, "outputTokens" = ${usage.outputTokens}::int, "reasoningTokens" = ${usage.reasoningTokens}::int,
      "cachedTokens" = ${usage.cachedTokens}::int, "searchCalls" = ${usage.searchCalls}::int,
      "costMicros" = ${facts.costMicros}, "costIsEstimate" = ${facts.costIsEstimate}, "latencyMs" = ${facts.latencyMs}::int,
      "endedAt" = clock_timestamp(), "reservedMicros" = 0, "budgetPeriod" = open.period
    FROM open WHERE a.id = open.id
    RETURNING a."workspaceId", open."connectionId", open.reserved, open.period`;
  return row ? { ...row, charged: BigInt(facts.costMicros) } : null;
}

export type CheckMoney = { releaseMicros?: bigint; holdMicros?: bigint; chargeMicros?: bigint; cancelRequested?: boolean };

/**
 * Brings a check up to date after its captures moved: its money (holds released or taken,
 * attempts charged) and its status, derived from the capture counts the trigger keeps
 * (migration 20261129150000). Locks the check row (FOR NO KEY UPDATE, which does not conflict
 * with the KEY SHARE locks of events referencing it).
 */
export async function refreshCheck(tx: Tx, checkId: string, money: CheckMoney = {}): Promise<CheckStatus> {
  const [check] = await tx.$queryRaw<
    { status: CheckStatus; cancelRequested: boolean; finished: boolean; queued: number; running: number; succeeded: number; failed: number; cancelled: number; total: number }[]
  >`
    UPDATE checks SET
      "reservedMicros" = "reservedMicros" + ${money.holdMicros ?? 0n} - ${money.releaseMicros ?? 0n},
      "chargedMicros" = "chargedMicros" + ${money.chargeMicros ?? 0n},
      "cancelRequestedAt" = CASE WHEN ${money.cancelRequested ?? null}::boolean IS NULL THEN "cancelRequestedAt"
                                 WHEN ${money.cancelRequested ?? null}::boolean THEN coalesce("cancelRequestedAt", now()) ELSE NULL END
    WHERE id = ${checkId}::uuid
    RETURNING status, "cancelRequestedAt" IS NOT NULL AS "cancelRequested", "finishedAt" IS NOT NULL AS finished,
              "queuedCount" AS queued, "runningCount" AS running, "succeededCount" AS succeeded, "failedCount" AS failed,
              "cancelledCount" AS cancelled, "totalCaptures" AS total`;
  if (!check) throw new Error(`check ${checkId} not found`);
  const status = deriveCheckStatus(check, check.cancelRequested);
  const terminal = !["queued", "running"].includes(status);
  if (status !== check.status || terminal !== check.finished) {
    await tx.$executeRaw`
      UPDATE checks SET status = ${status}::"CheckStatus", "finishedAt" = CASE WHEN ${terminal} THEN coalesce("finishedAt", now()) END, "updatedAt" = now()
      WHERE id = ${checkId}::uuid`;
  }
  return status;
}

/**
 * Runs a transition's transaction, again when PostgreSQL picked it as a deadlock victim or a
 * serialization failure (a transition is all or nothing, so running it again is safe).
 */
export async function inTransaction<T>(work: (tx: Tx) => Promise<T>, options: { timeout?: number } = {}): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await db().$transaction(work, { timeout: options.timeout ?? 20_000, maxWait: 15_000 });
    } catch (error) {
      if (!isRetryableConflict(error) || attempt >= 4) throw error;
      await new Promise((resolve) => setTimeout(resolve, 20 * attempt + Math.random() * 50));
    }
  }
}

export function isRetryableConflict(error: unknown): boolean {
  const e = error as { code?: string; meta?: { code?: string }; message?: string };
  return /40P01|40001|deadlock|could not serialize/i.test(`${e?.meta?.code ?? ""} ${e?.code ?? ""} ${e?.message ?? ""}`);
}
