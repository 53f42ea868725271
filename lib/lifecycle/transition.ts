import "server-only";
import { recordRollups } from "@/lib/analytics/rollups";
import { settleLedgers, type CallSettlement, type HoldRelease } from "@/lib/billing/budget";
import { pausePoint } from "@/lib/db/pause-points";
import { TRANSITIONS, UNFINISHED_STATUSES, deriveCheckStatus, isCheckFinished, isTerminal, type CaptureStatus, type CheckStatus, type TransitionName } from "@/lib/captures/states";
import { checkTally } from "@/lib/captures/check-counts";
import { db } from "@/lib/db/prisma";
import { afterCommit, inTransaction } from "@/lib/db/transaction";
import { CAPTURE_JOB_SPEC, enqueueAlertEvaluation, enqueueCaptureJobs } from "@/lib/jobs/enqueue";
import { Prisma } from "@/lib/generated/prisma/client";

export type Tx = Prisma.TransactionClient;

// The building blocks of every transition (see index.ts for the transitions themselves).
//
// Lock order, the same in every transaction that moves a capture, so that none can deadlock
// against another: capture rows (by id when there are several) -> its slot row (the trigger on
// captures gives it back) -> attempt row (and, as it ends, its cost rollup row: a trigger; several
// attempts closed in one transaction are closed in that rollup's key order) -> check row -> events and jobs -> rollup rows -> budget
// and grant ledger rows, last (every capture of a workspace writes them: held from the last statement to
// the commit only). A worker's transitions do not lock the check row at all (the first claim of
// a check excepted); captures locked later (woken ones) are taken SKIP LOCKED.

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
                   THEN pg_advisory_xact_lock_shared(beacon_slot_wait_key(c."connectionId"))::text END AS "slotWaitLock"`;
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

type EventRow = { workspaceId: string; checkId: string; captureId?: string; kind: string; data?: Prisma.InputJsonValue; actorUserId?: string | null; actorApiKeyId?: string | null };

/**
 * What a person changes on a check besides its captures. `cancelRequested`: "asked" stamps the
 * check's cancel with this transaction's time (a cancel asked now: the time of its latest cancel,
 * which a retry asked earlier compares with); "carried" keeps the time it was asked at (a cancel
 * operation's job, asked when the page recorded it); false clears it (a retry).
 */
export type CheckFlags = { cancelRequested?: "asked" | "carried" | false; reopened?: boolean };

/**
 * What a transition does besides moving captures, collected while it runs and applied at the end
 * by `applyEffects` in the lock order: budget, checks, events, jobs. A worker's transitions
 * (claim, result, postpone) never write the check row; checks whose captures may all have
 * finished are finished after the commit (see `finishAfterCommit`).
 */
export class Effects {
  /** Checks whose row is brought up to date in this transaction (people's actions, repairs). */
  readonly checks = new Map<string, CheckFlags>();
  /** Checks one of whose captures ended: finished after the commit if none is left. */
  readonly finishing = new Set<string>();
  readonly holdsToRelease: HoldRelease[] = [];
  readonly callsToSettle: ClosedAttempt[] = [];
  readonly events: EventRow[] = [];
  readonly jobs: { captureIds: string[]; delayMs: number }[] = [];
  /** Workspaces where money was freed: a capture waiting for budget may run now. */
  readonly moneyFreedIn = new Set<string>();
  /** Succeeded captures whose answers enter the dashboards' daily rollups. */
  readonly rollups: string[] = [];
  /** Connections where captures left `running` (their slots were given back), with how many. */
  readonly slotsFreedOn = new Map<string, number>();

  check(checkId: string, flags: CheckFlags = {}): this {
    this.checks.set(checkId, { ...this.checks.get(checkId), ...flags });
    return this;
  }

  call(closed: ClosedAttempt | null): this {
    if (!closed) return this;
    this.callsToSettle.push(closed);
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
 * admission), their checks are looked at after the commit, and the slots of those that left
 * `running` are noted, to wake captures waiting for one (the trigger on captures gave the slots
 * back). The capture rows are already locked.
 */
export async function settleMoved(tx: Tx, moved: Moved[], effects: Effects): Promise<void> {
  for (const m of moved) {
    if (m.fromStatus === "running" && m.status !== "running") effects.slotsFreedOn.set(m.connectionId, (effects.slotsFreedOn.get(m.connectionId) ?? 0) + 1);
    if (isTerminal(m.status)) effects.finishing.add(m.checkId);
  }
  const ended = moved.filter((m) => isTerminal(m.status) && m.hold > 0n);
  if (!ended.length) return;
  // What each gives back is beacon_hold_released's to say, as for beacon_succeed and beacon_claim's refusal.
  const released = await tx.$queryRaw<{ workspaceId: string; period: Date; micros: bigint }[]>`
    UPDATE captures c SET "reservedMicros" = 0
    FROM (SELECT id, "reservedMicros" AS hold, "reservedPeriod" AS period FROM captures WHERE id = ANY(${ended.map((m) => m.id)}::uuid[])) held
    WHERE c.id = held.id
    RETURNING c."workspaceId", held.period, beacon_hold_released(held.hold, held.period) AS micros`;
  for (const hold of released) {
    if (hold.micros === 0n) continue;
    effects.holdsToRelease.push(hold);
    effects.moneyFreedIn.add(hold.workspaceId);
  }
}

/**
 * Applies what a transition collected, in the lock order: checks, events, jobs, slots handed on,
 * and the ledgers last: every capture of a workspace writes its ledger rows, so they are held
 * only for the last statements before the commit.
 */
export async function applyEffects(tx: Tx, effects: Effects): Promise<Map<string, CheckStatus>> {
  const statuses = new Map<string, CheckStatus>();
  for (const checkId of [...effects.checks.keys()].sort()) statuses.set(checkId, await syncCheck(tx, checkId, effects.checks.get(checkId)));
  if (effects.events.length) await tx.event.createMany({ data: effects.events });
  for (const job of effects.jobs) await enqueueCaptureJobs(tx, { captureIds: job.captureIds }, job.delayMs);
  for (const [connectionId, freed] of effects.slotsFreedOn) await handOnSlots(tx, connectionId, freed);
  // Rollup rows are shared by every answer of a day (a cited domain's, say): late, like the ledgers.
  await recordRollups(tx, effects.rollups);
  await settleLedgers(tx, effects.holdsToRelease, effects.callsToSettle);
  for (const workspaceId of effects.moneyFreedIn) await wakeBudgetWaiters(tx, workspaceId, WAKE_ON_FREED_MONEY);
  finishAfterCommit(tx, [...effects.finishing].filter((id) => !effects.checks.has(id)));
  return statuses;
}

/** Captures of these checks ended in the transaction: finish the checks after its commit if nothing is left (lib/db/transaction.ts inTransaction). */
export function finishAfterCommit(tx: Tx, checkIds: string[]): void {
  for (const checkId of checkIds) {
    afterCommit(tx, finishKey(checkId), () => finishCheckIfDone(checkId), "a transition that ends captures must run in inTransaction, which finishes their checks after the commit");
  }
}

/** The after-commit step that finishes a check (for a one-statement transition: lib/db/transaction.ts inOneStatement). */
export const finishAfter = (checkId: string | null) => (checkId ? { key: finishKey(checkId), run: () => finishCheckIfDone(checkId) } : null);

const finishKey = (checkId: string) => `finish-check:${checkId}`;

/** The advisory lock that orders a claim refused for budget against results (and raises) freeing money in the workspace. */
export const budgetWaitLock = (workspaceId: string) => Prisma.sql`beacon_budget_wait_key(${workspaceId}::uuid)`;

/** The advisory lock that orders a claim finding no free slot against releases of the connection's slots. */
export const slotWaitLock = (connectionId: string) => Prisma.sql`beacon_slot_wait_key(${connectionId}::uuid)`;

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
  // looks again at the slots after this transaction commits. The waiting captures are locked
  // SKIP LOCKED (after the check, out of the lock order: never wait). When fewer wait than slots
  // were freed, and the connection was full before, idle workers are nudged on graphile-worker's
  // channel. (beacon_hand_on_slots, one statement.)
  await tx.$executeRaw`SELECT beacon_hand_on_slots(${connectionId}::uuid, ${freed}::int, ${CAPTURE_JOB_SPEC}::jsonb)`;
}

/** Captures woken when a call or capture frees money; the rest wake on their own recheck. */
export const WAKE_ON_FREED_MONEY = 4;

/**
 * Captures waiting for budget in the workspace get their job now instead of at their next
 * recheck (money was freed, or the budget was raised), oldest first.
 */
export async function wakeBudgetWaiters(tx: Tx, workspaceId: string, limit: number): Promise<number> {
  // It takes budgetWaitLock shared, like every other waker; a claim refused for budget takes it
  // exclusively before it looks again and waits (claim.ts): this transaction has committed before
  // that look, or looks for waiters only once that claim has committed.
  const [row] = await tx.$queryRaw<{ woken: number }[]>`SELECT beacon_wake_budget_waiters(${workspaceId}::uuid, ${limit}::int, ${CAPTURE_JOB_SPEC}::jsonb) AS woken`;
  return row?.woken ?? 0;
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

/** An attempt closed: what its call settles in the ledgers. */
export type ClosedAttempt = CallSettlement;

/**
 * Ends an open attempt (guarded: an attempt is closed once) and charges its cost, at most its
 * reserved worst case (beacon_attempt_charge), to the month it was reserved in, releasing that
 * reservation. Null when it was already closed. Call it after the capture's guarded update, and
 * hand the result to `Effects.call`.
 */
export async function closeAttempt(tx: Tx, runToken: string, facts: AttemptClose): Promise<ClosedAttempt | null> {
  const usage = facts.usage ?? { inputTokens: 0, outputTokens: 0, reasoningTokens: 0, cachedTokens: 0, searchCalls: 0 };
  const [row] = await tx.$queryRaw<{ workspaceId: string; connectionId: string; reserved: bigint; period: Date; charged: bigint }[]>`
    SELECT * FROM beacon_close_attempt(${runToken}::uuid, ${facts.outcome}::"AttemptOutcome", ${facts.reason ?? null}, ${facts.errorClass ?? null}::"ErrorClass",
      ${facts.httpStatus ?? null}::int, ${facts.providerRequestId ?? null}, ${usage.inputTokens}::int, ${usage.outputTokens}::int,
      ${usage.reasoningTokens}::int, ${usage.cachedTokens}::int, ${usage.searchCalls}::int, ${facts.costMicros}::bigint, ${facts.costIsEstimate}, ${facts.latencyMs}::int)`;
  return row ?? null;
}

/**
 * An attempt closed after its capture moved on (the sweeper's and the repair's close of an
 * abandoned attempt): a check that already finished was charged its attempts' costs then, so
 * this one's charge (what closeAttempt returned, capped at its reservation) joins it. An open
 * check counts it when it finishes (syncCheck sums the attempts). The row is locked either way,
 * after the attempt: a finish that began first commits before this reads finishedAt, and one that
 * begins now waits and sums this cost (tests/integration/lifecycle-repair.test.ts holds both).
 */
export async function chargeFinishedCheck(tx: Tx, checkId: string, closed: ClosedAttempt): Promise<void> {
  await tx.$executeRaw`
    UPDATE checks SET "chargedMicros" = "chargedMicros" + CASE WHEN "finishedAt" IS NOT NULL THEN ${closed.charged}::bigint ELSE 0 END
    WHERE id = ${checkId}::uuid`;
}

/**
 * Brings a check's row up to date with its captures, under its lock (FOR NO KEY UPDATE, which
 * does not conflict with the KEY SHARE locks of events referencing it): a person's cancel
 * request or retry, then its status derived from its captures' counts; when none is left
 * unfinished, it finishes (finishedAt, and what its attempts cost in chargedMicros, those
 * retention deleted included).
 */
export async function syncCheck(tx: Tx, checkId: string, flags: CheckFlags = {}): Promise<CheckStatus> {
  const cancel = flags.cancelRequested === undefined ? null : flags.cancelRequested !== false;
  const askedNow = flags.cancelRequested === "asked";
  const [check] = await tx.$queryRaw<{ workspaceId: string; status: CheckStatus; cancelRequested: boolean; finished: boolean }[]>`
    UPDATE checks SET
      "cancelRequestedAt" = CASE WHEN ${cancel}::boolean IS NULL THEN "cancelRequestedAt"
                                 WHEN ${cancel}::boolean THEN (CASE WHEN ${askedNow} THEN now() ELSE coalesce("cancelRequestedAt", now()) END) ELSE NULL END
    WHERE id = ${checkId}::uuid
    RETURNING "workspaceId", status, "cancelRequestedAt" IS NOT NULL AS "cancelRequested", "finishedAt" IS NOT NULL AS finished`;
  if (!check) throw new Error(`check ${checkId} not found`);
  const status = deriveCheckStatus(await checkTally(checkId, tx), check.cancelRequested);
  const finished = isCheckFinished(status);
  if (status !== check.status || finished !== check.finished || (finished && flags.reopened)) {
    // A check that finishes now (first time, or again after a retry): its alert rules look at the new answers.
    if (finished && (!check.finished || flags.reopened)) await enqueueAlertEvaluation(tx, { workspaceId: check.workspaceId, reason: "check" });
    await tx.$executeRaw`
      UPDATE checks SET status = ${status}::"CheckStatus", "finishedAt" = CASE WHEN ${finished} THEN coalesce("finishedAt", now()) END,
        "chargedMicros" = CASE WHEN ${finished}
          THEN "retiredAttemptMicros" + (SELECT coalesce(sum(a."costMicros"), 0) FROM attempts a JOIN captures c ON c.id = a."captureId" WHERE c."checkId" = ${checkId}::uuid)
          ELSE "chargedMicros" END,
        "updatedAt" = now()
      WHERE id = ${checkId}::uuid`;
  }
  return status;
}

/** Of the check `ch`: no capture is left unfinished. */
const allCapturesEnded = Prisma.sql`NOT EXISTS (SELECT 1 FROM captures c WHERE c."checkId" = ch.id AND c.status = ANY(${[...UNFINISHED_STATUSES]}::"CaptureStatus"[]))`;

/**
 * A capture of the check ended: if none is left unfinished and the check has not finished,
 * finish it. Run after the transition committed, so that of several captures ending at once
 * the last to commit sees all the others ended (inside their transactions none would see the
 * others' uncommitted ends). A process that dies between the two leaves the check to the
 * maintenance pass (finishStaleChecks).
 */
export async function finishCheckIfDone(checkId: string): Promise<void> {
  await pausePoint("finish:before", { checkId });
  const [probe] = await db().$queryRaw<{ done: boolean }[]>(checkDoneProbe(checkId));
  if (probe?.done) await inTransaction((tx) => syncCheck(tx, checkId));
}

/**
 * finishCheckIfDone's question, `done`: the check is open and none of its captures is unfinished.
 * The check is named in the subquery itself, not joined to it (as allCapturesEnded does for many
 * checks): joined, the planner could hash every unfinished capture of the database when its
 * statistics said few were waiting, so another check's backlog made every finish read it all
 * (tests/integration/check-finish-backlog.test.ts). Named, it reads the check's own unfinished
 * captures through captures ("checkId", status).
 */
export function checkDoneProbe(checkId: string): Prisma.Sql {
  return Prisma.sql`
    SELECT ch."finishedAt" IS NULL
      AND NOT EXISTS (SELECT 1 FROM captures c WHERE c."checkId" = ${checkId}::uuid AND c.status = ANY(${[...UNFINISHED_STATUSES]}::"CaptureStatus"[])) AS done
    FROM checks ch WHERE ch.id = ${checkId}::uuid`;
}

/** Checks whose captures all ended but that did not finish (see finishCheckIfDone): finish them. */
export async function finishStaleChecks(): Promise<number> {
  const stale = await db().$queryRaw<{ id: string }[]>`
    SELECT ch.id FROM checks ch
    WHERE ch."finishedAt" IS NULL AND ${allCapturesEnded}
    LIMIT 500`;
  for (const { id } of stale) await inTransaction((tx) => syncCheck(tx, id));
  return stale.length;
}
