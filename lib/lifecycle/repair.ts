import "server-only";
import { unknownOutcomeCost, type PriceTable } from "@/lib/billing/money";
import { inTransaction } from "@/lib/db/transaction";
import { pausePoint } from "@/lib/db/pause-points";
import { jobCatalog, type JobName } from "@/lib/jobs/catalog";
import { enqueueSetupSuggestions } from "@/lib/jobs/enqueue";
import { CANCEL_SET } from "@/lib/lifecycle/admin";
import { REPAIR_EVENT } from "@/lib/lifecycle/lease";
import { Effects, applyEffects, cancelAware, chargeFinishedCheck, closeAttempt, guardedUpdate, settleMoved, type Moved, type Tx } from "@/lib/lifecycle/transition";
import { TERMINAL_STATUSES, WAITING_STATUSES } from "@/lib/captures/states";
import { PENDING_OPERATION_STATUSES } from "@/lib/captures/states";
import { Prisma } from "@/lib/generated/prisma/client";
import type { CallLimits, SearchMode } from "@/lib/providers/types";

// The repair pass (part of every worker's maintenance, and `npm run beacon -- doctor`): finds
// captures, attempts, checks, setup wizard calls and budgets in states the lifecycle cannot
// produce, repairs each through the same transitions, and records a `lifecycle_repaired` event
// per repair (counted in beacon_lifecycle_repairs_total{kind}). A healthy system gives it nothing to do; tests assert
// that. Each kind runs in its own transaction under its own advisory lock, so two workers
// repairing at once do not both repair (or count) the same thing.

export const REPAIR_KINDS = [
  "operation_without_job",
  "cancel_requested_not_final",
  "running_without_open_attempt",
  "open_attempt_of_moved_capture",
  "waiting_without_job",
  "hold_on_finished_capture",
  "slot_of_capture_not_running",
  "setup_waiting_without_job",
  "budget_drift",
] as const;
export type RepairKind = (typeof REPAIR_KINDS)[number] | "abandoned_attempt" | "stranded_job";

export type RepairReport = Partial<Record<RepairKind, number>>;

const WAITING = Prisma.sql`${[...WAITING_STATUSES]}::"CaptureStatus"[]`;
const TERMINAL = Prisma.sql`${[...TERMINAL_STATUSES]}::"CaptureStatus"[]`;
const CAPTURE_KEY_PREFIX = jobCatalog.capture.jobKey({ captureId: "" });
const SETUP_KEY_PREFIX = jobCatalog.setup_suggestions.jobKey({ suggestionId: "" });
const PENDING_OPERATION = Prisma.sql`${[...PENDING_OPERATION_STATUSES]}::"CheckOperationStatus"[]`;

/**
 * The check (`c."checkId"`) carries a cancel that no pending operation will carry out: a check's
 * cancel from its page (lib/checks/operations.ts) marks the check at once, its claims refuse
 * its waiting captures from then on, and the operation's job cancels them; once no such
 * operation is pending, nothing else will.
 */
const CHECK_CANCEL_LEFT = Prisma.sql`EXISTS (
  SELECT 1 FROM checks ch WHERE ch.id = c."checkId" AND ch."cancelRequestedAt" IS NOT NULL
    AND NOT EXISTS (SELECT 1 FROM check_operations o WHERE o."checkId" = ch.id AND o.kind = 'cancel' AND o.status = ANY(${PENDING_OPERATION})))`;

function logged(effects: Effects, moved: Pick<Moved, "workspaceId" | "checkId" | "id">, kind: RepairKind, data: Record<string, string | number | null> = {}) {
  effects.event({ workspaceId: moved.workspaceId, checkId: moved.checkId, captureId: moved.id, kind: REPAIR_EVENT, data: { kind, ...data } });
}

type Repair = (tx: Tx) => Promise<number>;

const repairs: Record<(typeof REPAIR_KINDS)[number], Repair> = {
  /**
   * A check operation (a cancel or retry from the check page) that no runnable job will carry
   * out: its job failed for good or was deleted. The person who asked sees it failed and may ask
   * again; a cancel's waiting captures are then cancelled by the next repair.
   */
  async operation_without_job(tx) {
    const ended = await tx.$queryRaw<{ id: string; workspaceId: string; checkId: string }[]>`
      UPDATE check_operations o SET status = 'failed', "finishedAt" = now(),
        error = 'The operation stopped before it finished (its job failed); nothing more will happen unless you ask again.'
      WHERE o.status = ANY(${PENDING_OPERATION})
        AND NOT EXISTS (
          SELECT 1 FROM graphile_worker._private_jobs j JOIN graphile_worker._private_tasks t ON t.id = j.task_id
          WHERE t.identifier = ${"check_operation" satisfies JobName} AND j.payload->>'operationId' = o.id::text AND (j.attempts < j.max_attempts OR j.locked_at IS NOT NULL))
      RETURNING o.id, o."workspaceId", o."checkId"`;
    for (const row of ended) {
      await tx.event.create({ data: { workspaceId: row.workspaceId, checkId: row.checkId, kind: REPAIR_EVENT, data: { kind: "operation_without_job", operationId: row.id } } });
    }
    return ended.length;
  },

  /**
   * A waiting capture with a cancel request (cancel moves waiting captures at once), or of a
   * check whose cancel no pending operation will carry out (CHECK_CANCEL_LEFT): cancel it.
   */
  async cancel_requested_not_final(tx) {
    const CANCEL_LEFT = Prisma.sql`c.status = ANY(${WAITING}) AND (c."cancelRequestedAt" IS NOT NULL OR ${CHECK_CANCEL_LEFT})`;
    const found = await tx.$queryRaw<{ id: string; checkId: string }[]>`SELECT c.id, c."checkId" FROM captures c WHERE ${CANCEL_LEFT} ORDER BY c.id LIMIT 500`;
    if (!found.length) return 0;
    await pausePoint("repair:cancel-found", { tx });
    // Read again under their checks' locks, the order a retry takes them in (lib/checks/cancel-retry.ts):
    // a retry that took the check's cancel back meanwhile is seen, and one under way (its check
    // locked) is skipped until the next pass. The captures too are only taken while free, so the
    // pass waits for nothing and deadlocks with no claim.
    const checks = await tx.$queryRaw<{ id: string }[]>`
      SELECT id FROM checks WHERE id = ANY(${[...new Set(found.map((f) => f.checkId))]}::uuid[]) ORDER BY id FOR NO KEY UPDATE SKIP LOCKED`;
    const still = await tx.$queryRaw<{ id: string }[]>`
      SELECT c.id FROM captures c WHERE c.id = ANY(${found.map((f) => f.id)}::uuid[]) AND c."checkId" = ANY(${checks.map((ch) => ch.id)}::uuid[]) AND ${CANCEL_LEFT}
      ORDER BY c.id FOR UPDATE OF c SKIP LOCKED`;
    const moved = await guardedUpdate(tx, "cancel", { ids: still.map((f) => f.id) }, CANCEL_SET("Cancelled by user"));
    const effects = new Effects();
    for (const m of moved) logged(effects.check(m.checkId), m, "cancel_requested_not_final");
    await settleMoved(tx, moved, effects);
    await applyEffects(tx, effects);
    return moved.length;
  },

  /** A running capture whose run token has no open attempt: nobody runs it; run it again. */
  async running_without_open_attempt(tx) {
    const found = await tx.$queryRaw<{ id: string; runToken: string | null }[]>`
      SELECT c.id, c."runToken" FROM captures c
      WHERE c.status = 'running' AND NOT EXISTS (SELECT 1 FROM attempts a WHERE a."runToken" = c."runToken" AND a.outcome IS NULL)
      ORDER BY c.id LIMIT 500`;
    const effects = new Effects();
    const all: Moved[] = [];
    for (const capture of found) {
      const moved = await guardedUpdate(
        tx,
        "expireLease",
        { ids: [capture.id], ...(capture.runToken ? { runToken: capture.runToken } : {}) },
        Prisma.sql`status = ${cancelAware("queued")}, "runToken" = NULL, "lastError" = 'Recovered by the repair pass; running again',
                   "finishedAt" = CASE WHEN c."cancelRequestedAt" IS NOT NULL THEN now() END`,
      );
      for (const m of moved) {
        logged(effects.check(m.checkId), m, "running_without_open_attempt");
        if (m.status === "queued") effects.enqueue([m.id]);
      }
      all.push(...moved);
    }
    await settleMoved(tx, all, effects);
    await applyEffects(tx, effects);
    return all.length;
  },

  /** An open attempt whose capture moved on without closing it: close it, charging its estimate. */
  async open_attempt_of_moved_capture(tx) {
    // Closed in the order of their cost rollup rows (rollup_attempts' key, which each close
    // updates): two transactions closing several attempts then never wait on each other's rows.
    // With what its estimate needs: the provider may have been called, as for an expired lease.
    const found = await tx.$queryRaw<({ runToken: string; captureId: string; checkId: string; workspaceId: string; promptText: string; searchMode: SearchMode } & PriceTable & CallLimits)[]>`
      SELECT open.* FROM (
        SELECT a."runToken", c.id AS "captureId", c."checkId", c."workspaceId", c."brandId", a."startedAt", c."providerConfigId", c."promptId",
          p.text AS "promptText", c."searchMode"::text AS "searchMode", pc."inputPricePerMTokMicros", pc."outputPricePerMTokMicros",
          pc."cachedPricePerMTokMicros", pc."reasoningPricePerMTokMicros", pc."searchPriceMicros", pc."maxOutputTokens", pc."maxSearchCalls"
        FROM attempts a JOIN captures c ON c.id = a."captureId"
          JOIN prompt_versions p ON p.id = c."promptVersionId" JOIN provider_connections pc ON pc.id = c."connectionId"
        WHERE a.outcome IS NULL AND (c.status <> 'running' OR c."runToken" IS DISTINCT FROM a."runToken")
        ORDER BY a."startedAt" LIMIT 500 FOR UPDATE OF c
      ) open
      ORDER BY "workspaceId", "brandId", "startedAt"::date, "providerConfigId", "promptId"`;
    const effects = new Effects();
    let repaired = 0;
    for (const row of found) {
      const costMicros = unknownOutcomeCost(row.promptText, row.searchMode, row, row);
      const closed = await closeAttempt(tx, row.runToken, { outcome: "unknown", reason: "abandoned", errorClass: "unknown", costMicros, costIsEstimate: true, latencyMs: 0 });
      if (!closed) continue;
      repaired++;
      await chargeFinishedCheck(tx, row.checkId, closed);
      effects.call(closed);
      logged(effects, { id: row.captureId, checkId: row.checkId, workspaceId: row.workspaceId }, "open_attempt_of_moved_capture", { runToken: row.runToken });
    }
    await pausePoint("repair:attempts-closed-before-commit", { tx });
    await applyEffects(tx, effects);
    return repaired;
  },

  /**
   * A waiting capture that no runnable job will look at: give it one. Not one of a check that
   * carries a cancel: the claim would refuse it; the cancel's operation (or the repair above) ends it.
   */
  async waiting_without_job(tx) {
    const found = await tx.$queryRaw<{ id: string; checkId: string; workspaceId: string }[]>`
      SELECT c.id, c."checkId", c."workspaceId" FROM captures c
      WHERE c.status = ANY(${WAITING}) AND c."cancelRequestedAt" IS NULL
        AND NOT EXISTS (SELECT 1 FROM checks ch WHERE ch.id = c."checkId" AND ch."cancelRequestedAt" IS NOT NULL)
        AND NOT EXISTS (
          SELECT 1 FROM graphile_worker.jobs j
          WHERE j.key = ${CAPTURE_KEY_PREFIX} || c.id AND (j.attempts < j.max_attempts OR j.locked_at IS NOT NULL))
      ORDER BY c.id LIMIT 1000`;
    const effects = new Effects().enqueue(found.map((f) => f.id));
    for (const capture of found) logged(effects, capture, "waiting_without_job");
    await applyEffects(tx, effects);
    return found.length;
  },

  /** A finished capture still holding budget: release it. */
  async hold_on_finished_capture(tx) {
    const found = await tx.$queryRaw<Moved[]>`
      SELECT id, "checkId", "workspaceId", status::text AS status, "reservedMicros" AS hold, "reservedPeriod" AS "holdPeriod", "cancelRequestedAt" IS NOT NULL AS "cancelRequested"
      FROM captures WHERE status = ANY(${TERMINAL}) AND "reservedMicros" > 0 ORDER BY id LIMIT 1000 FOR UPDATE`;
    const effects = new Effects();
    for (const m of found) logged(effects, m, "hold_on_finished_capture", { micros: Number(m.hold) });
    await settleMoved(tx, found, effects);
    await applyEffects(tx, effects);
    return found.length;
  },

  /** A concurrency slot held for a capture that is not running (the trigger gives slots back): free it. */
  async slot_of_capture_not_running(tx) {
    const found = await tx.$queryRaw<{ id: string; checkId: string; workspaceId: string; connectionId: string; slot: number }[]>`
      UPDATE connection_slots s SET "captureId" = NULL, "workspaceId" = NULL, "takenAt" = NULL
      FROM captures c WHERE c.id = s."captureId" AND c.status <> 'running'
      RETURNING c.id, c."checkId", c."workspaceId", s."connectionId", s.slot`;
    const effects = new Effects();
    for (const f of found) {
      logged(effects, f, "slot_of_capture_not_running", { slot: f.slot });
      effects.slotsFreedOn.set(f.connectionId, (effects.slotsFreedOn.get(f.connectionId) ?? 0) + 1);
    }
    await applyEffects(tx, effects);
    return found.length;
  },

  /**
   * A setup wizard call still queued that no runnable job will run (its job failed for good, or
   * was deleted): its reservation is in flight until it settles, so it gets its job again.
   */
  async setup_waiting_without_job(tx) {
    const found = await tx.$queryRaw<{ id: string; workspaceId: string }[]>`
      SELECT s.id, s."workspaceId" FROM setup_suggestions s
      WHERE s.status = 'queued'
        AND NOT EXISTS (
          SELECT 1 FROM graphile_worker.jobs j
          WHERE j.key = ${SETUP_KEY_PREFIX} || s.id AND (j.attempts < j.max_attempts OR j.locked_at IS NOT NULL))
      ORDER BY s.id LIMIT 1000`;
    for (const row of found) {
      await enqueueSetupSuggestions(tx, { suggestionId: row.id });
      await tx.event.create({ data: { workspaceId: row.workspaceId, kind: REPAIR_EVENT, data: { kind: "setup_waiting_without_job", suggestionId: row.id } } });
    }
    return found.length;
  },

  /**
   * A month whose holds or in-flight sums disagree with the rows behind them: holds with the
   * captures', in flight with every reservation not yet settled, as the view beacon_in_flight
   * lists them (open attempts and the setup wizard's unsettled calls; migration
   * 20261205120000_beacon_in_flight). That view is the one definition of "in flight":
   * a reserver it does not list would have its reservation zeroed here while its call runs.
   */
  async budget_drift(tx) {
    const periods = await tx.$queryRaw<{ workspaceId: string; periodStart: Date }[]>`
      SELECT "workspaceId", "periodStart" FROM budget_periods GROUP BY 1, 2 HAVING sum("reservedMicros") <> 0 OR sum("inFlightMicros") <> 0
      UNION SELECT "workspaceId", "reservedPeriod" FROM captures WHERE "reservedMicros" > 0 AND "reservedPeriod" IS NOT NULL
      UNION SELECT "workspaceId", "periodStart" FROM beacon_in_flight WHERE micros > 0
      ORDER BY 1, 2`;
    let repaired = 0;
    for (const p of periods) {
      // The ledger rows are the last locks of every transition: with the month's shards locked,
      // transitions that wrote them have committed and the others wait. A result adding a shard
      // row that did not exist yet is not held, so the sums and what they should be are read in
      // one statement (one snapshot): it is in both or in neither.
      await tx.$executeRaw`
        INSERT INTO budget_periods ("workspaceId", "periodStart", shard, "updatedAt") VALUES (${p.workspaceId}::uuid, ${p.periodStart}::date, 0, now())
        ON CONFLICT DO NOTHING`;
      await tx.$executeRaw`
        SELECT 1 FROM budget_periods WHERE "workspaceId" = ${p.workspaceId}::uuid AND "periodStart" = ${p.periodStart}::date ORDER BY shard FOR UPDATE`;
      const [row] = await tx.$queryRaw<{ reserved: bigint; inFlight: bigint; actualReserved: bigint; actualInFlight: bigint }[]>`
        SELECT (SELECT sum("reservedMicros")::bigint FROM budget_periods WHERE "workspaceId" = ${p.workspaceId}::uuid AND "periodStart" = ${p.periodStart}::date) AS reserved,
               (SELECT sum("inFlightMicros")::bigint FROM budget_periods WHERE "workspaceId" = ${p.workspaceId}::uuid AND "periodStart" = ${p.periodStart}::date) AS "inFlight",
               (SELECT coalesce(sum("reservedMicros"), 0)::bigint FROM captures WHERE "workspaceId" = ${p.workspaceId}::uuid AND "reservedPeriod" = ${p.periodStart}::date) AS "actualReserved",
               (SELECT coalesce(sum(micros), 0)::bigint FROM beacon_in_flight WHERE "workspaceId" = ${p.workspaceId}::uuid AND "periodStart" = ${p.periodStart}::date) AS "actualInFlight"`;
      if (row!.reserved === row!.actualReserved && row!.inFlight === row!.actualInFlight) continue;
      repaired++;
      await tx.$executeRaw`
        UPDATE budget_periods SET "reservedMicros" = "reservedMicros" + ${row!.actualReserved - row!.reserved},
               "inFlightMicros" = "inFlightMicros" + ${row!.actualInFlight - row!.inFlight}, "updatedAt" = now()
        WHERE "workspaceId" = ${p.workspaceId}::uuid AND "periodStart" = ${p.periodStart}::date AND shard = 0`;
      await tx.event.create({
        data: {
          workspaceId: p.workspaceId,
          kind: REPAIR_EVENT,
          data: {
            kind: "budget_drift",
            period: p.periodStart.toISOString().slice(0, 10),
            reservedWas: String(row!.reserved),
            reservedNow: String(row!.actualReserved),
            inFlightWas: String(row!.inFlight),
            inFlightNow: String(row!.actualInFlight),
          },
        },
      });
    }
    // A grant's spend: what is in flight on its connection, by the same definition (charged is
    // its calls' costs too, but attempts are deleted after the retention period, so only in
    // flight is checked).
    await tx.$executeRaw`SELECT 1 FROM grant_spend_periods ORDER BY "connectionId", "workspaceId", "periodStart", shard FOR UPDATE`;
    const grants = await tx.$queryRaw<{ workspaceId: string; connectionId: string; periodStart: Date; inFlight: bigint; open: bigint }[]>`
      SELECT g."workspaceId", g."connectionId", g."periodStart", g."inFlight",
             (SELECT coalesce(sum(f.micros), 0)::bigint FROM beacon_in_flight f
              WHERE f."workspaceId" = g."workspaceId" AND f."connectionId" = g."connectionId" AND f."periodStart" = g."periodStart") AS open
      FROM (SELECT "workspaceId", "connectionId", "periodStart", sum("inFlightMicros")::bigint AS "inFlight"
            FROM grant_spend_periods GROUP BY 1, 2, 3) g
      WHERE g."inFlight" <> 0`;
    for (const g of grants.filter((row) => row.inFlight !== row.open)) {
      repaired++;
      await tx.$executeRaw`
        INSERT INTO grant_spend_periods ("connectionId", "workspaceId", "periodStart", shard, "inFlightMicros", "updatedAt")
        VALUES (${g.connectionId}::uuid, ${g.workspaceId}::uuid, ${g.periodStart}::date, 0, ${g.open - g.inFlight}, now())
        ON CONFLICT ("connectionId", "workspaceId", "periodStart", shard) DO UPDATE SET
          "inFlightMicros" = grant_spend_periods."inFlightMicros" + EXCLUDED."inFlightMicros", "updatedAt" = now()`;
      await tx.event.create({
        data: { workspaceId: g.workspaceId, kind: REPAIR_EVENT, data: { kind: "budget_drift", connectionId: g.connectionId, inFlightWas: String(g.inFlight), inFlightNow: String(g.open) } },
      });
    }
    return repaired;
  },
};

/** Runs every repair once; returns how many of each kind it repaired (kinds with none left out). */
export async function runRepairPass(options: { log?: (line: string) => void } = {}): Promise<RepairReport> {
  const report: RepairReport = {};
  for (const kind of REPAIR_KINDS) {
    const count = await inTransaction(async (tx) => {
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`beacon:repair:${kind}`}, 0))`;
      return repairs[kind](tx);
    }, { timeoutMs: 60_000 });
    if (count) {
      report[kind] = count;
      options.log?.(`repair pass: ${kind} x ${count}`);
    }
  }
  return report;
}
