import "server-only";
import { env } from "@/lib/config/env";
import { databaseNow } from "@/lib/db/clock";
import { db } from "@/lib/db/prisma";
import { inOneStatement } from "@/lib/db/transaction";

const HEARTBEAT_RETENTION_DAYS = 7;
/** Days a digest's delivery is kept at least: longer than the week in which its pass may run again. */
export const DIGEST_MIN_RETENTION_DAYS = 8;

/** The alert deliveries that ended, which retention deletes in time. */
export const RETAINED_DELIVERY_STATUSES = ["delivered", "failed", "unknown"] as const;
/** Attempts deleted per statement: each batch is a short transaction of its own (docs/operating.md "Retention"). */
const ATTEMPT_BATCH = 5_000;
/** Raw crawler hits deleted per statement (narrow rows, no trigger): a big import's month goes in short batches too. */
const TRAFFIC_HIT_BATCH = 20_000;
/** After this much time a pass stops deleting attempts; the next hour's pass goes on. */
const ATTEMPT_BUDGET_MS = 5 * 60_000;

type AttemptRetention = { attemptsDeleted: number; attemptBatches: number; longestAttemptBatchMs: number; attemptsLeft: boolean };

/**
 * Ended attempts that started before `cutoff`, deleted in batches of at most `batchSize` rows,
 * each one statement committed on its own: a batch holds its rows' locks for milliseconds, and
 * a pass that dies half-way leaves only whole batches done (the next pass finds the rest). Per
 * workspace, in start order through the (workspaceId, startedAt) index, going on from the last
 * batch's start (no batch rereads the dead rows of the ones before). The rows are not locked
 * before the DELETE (FOR UPDATE would write every row twice): nothing
 * writes an ended attempt, and should a batch deadlock with, say, a workspace's deletion, the
 * batch runs again (inOneStatement's retries). Open attempts are never deleted: their delete trigger (attempts_metrics_deleted) is then never queued, and
 * the metric counters, which count every attempt ever made, take nothing back. At least one
 * batch runs per pass; after `budgetMs` the pass stops and says so (attemptsLeft). The same
 * statement adds what the batch's attempts cost to their checks' retiredAttemptMicros: a check's
 * charge is recomputed from its attempts when it finishes again after a retry, and must not drop.
 */
async function deleteOldAttempts(cutoff: Date, batchSize: number, budgetMs: number): Promise<AttemptRetention> {
  const started = performance.now();
  const result: AttemptRetention = { attemptsDeleted: 0, attemptBatches: 0, longestAttemptBatchMs: 0, attemptsLeft: false };
  const workspaces = await db().workspace.findMany({ select: { id: true }, orderBy: { id: "asc" } });
  const cutoffText = cutoff.toISOString();
  for (const { id } of workspaces) {
    // The start of the last row deleted (as text: microseconds, which a Date would cut).
    let from: string | null = null;
    for (;;) {
      if (result.attemptBatches > 0 && performance.now() - started >= budgetMs) return { ...result, attemptsLeft: true };
      const t0 = performance.now();
      const [batch] = await inOneStatement(
        (client) => client.$queryRaw<{ n: number; last: string | null }[]>`
          -- = ANY(ARRAY(...)): the batch's rows are then found through the primary key; a join
          -- with the subquery may be planned as a hash join over the whole table, every batch.
          WITH gone AS (
            DELETE FROM attempts WHERE id = ANY(ARRAY(
              SELECT a.id FROM attempts a
              WHERE a."workspaceId" = ${id}::uuid AND a."startedAt" < (${cutoffText}::timestamptz AT TIME ZONE 'UTC')
                AND a."startedAt" >= coalesce(${from}::timestamp, '-infinity') AND a.outcome IS NOT NULL
              ORDER BY a."startedAt" LIMIT ${batchSize}::int))
            RETURNING "startedAt", "captureId", "costMicros"
          ),
          -- Their checks keep what they cost: a check finishing again (a retry) charges it.
          retired AS (
            UPDATE checks ch SET "retiredAttemptMicros" = ch."retiredAttemptMicros" + r.micros
            FROM (SELECT c."checkId", sum(gone."costMicros")::bigint AS micros FROM gone JOIN captures c ON c.id = gone."captureId" GROUP BY 1) r
            WHERE ch.id = r."checkId" AND r.micros <> 0
          )
          SELECT count(*)::int AS n, max("startedAt")::text AS last FROM gone`,
        { beforeCommit: "retention:batch-before-commit", context: {} },
      );
      result.attemptBatches++;
      result.longestAttemptBatchMs = Math.max(result.longestAttemptBatchMs, performance.now() - t0);
      result.attemptsDeleted += batch!.n;
      if (batch!.n < batchSize) break;
      from = batch!.last;
    }
  }
  return result;
}

/**
 * Raw crawler hits of days before `cutoff`, in batches of at most `batchSize` rows, each a
 * statement committed on its own (as attempts: no batch holds locks for long, a pass cut short
 * leaves whole batches done). Found through the `day` index; the rollup stays.
 */
async function deleteOldTrafficHits(cutoff: Date, batchSize: number): Promise<number> {
  let deleted = 0;
  for (;;) {
    const n = await db().$executeRaw`
      DELETE FROM traffic_hits WHERE id = ANY(ARRAY(
        SELECT id FROM traffic_hits WHERE day < ${cutoff}::date LIMIT ${batchSize}::int))`;
    deleted += n;
    if (n < batchSize) return deleted;
  }
}

/**
 * Hourly housekeeping. graphile-worker deletes finished jobs by itself; here: attempts older than
 * the retention period, in bounded batches (deleteOldAttempts; captures keep their answer, cost and results), idempotency keys past
 * their 24 h, heartbeat rows of workers long gone, raw crawler hits past BEACON_TRAFFIC_HIT_RETENTION_DAYS, and alert deliveries that ended (delivered,
 * failed, or unknown and never sent again) longer ago than theirs, counted from when they ended (one sent again is kept as long as a new one; a pending or sending one is
 * never removed: its job still refers to it). Each statement is idempotent, so two
 * workers running it at once (or twice) is harmless.
 */
export async function runRetention(options: {
  attemptRetentionDays: number;
  deliveryRetentionDays?: number;
  trafficHitRetentionDays?: number;
  /** The database's clock unless given: idempotency keys expire by it, as they were set by it, whatever this worker's clock says. */
  now?: Date;
  /** Attempts per statement and the pass's time for them (ATTEMPT_BATCH, ATTEMPT_BUDGET_MS unless given). */
  attemptBatchSize?: number;
  attemptBudgetMs?: number;
  /** Raw crawler hits per statement (TRAFFIC_HIT_BATCH unless given). */
  trafficHitBatchSize?: number;
}) {
  const now = options.now ?? (await databaseNow());
  const day = 24 * 3600 * 1000;
  const attempts = await deleteOldAttempts(new Date(now.getTime() - options.attemptRetentionDays * day), options.attemptBatchSize ?? ATTEMPT_BATCH, options.attemptBudgetMs ?? ATTEMPT_BUDGET_MS);
  const keys = await db().check.updateMany({
    where: { idempotencyExpiresAt: { lt: now }, idempotencyKey: { not: null } },
    data: { idempotencyKey: null, requestHash: null },
  });
  // An access log import's record answers for its key as long as a check's does (one still
  // running keeps it: its next chunk would find no record and stop).
  const imports = await db().trafficImport.deleteMany({
    where: { expiresAt: { lt: now }, OR: [{ leaseUntil: null }, { leaseUntil: { lt: now } }] },
  });
  const heartbeats = await db().workerHeartbeat.deleteMany({
    where: { status: { in: ["stopped", "expired"] }, lastSeenAt: { lt: new Date(now.getTime() - HEARTBEAT_RETENTION_DAYS * day) } },
  });
  const deliveryDays = options.deliveryRetentionDays ?? env().ALERTS_DELIVERY_RETENTION_DAYS;
  // RETAINED_DELIVERY_STATUSES is lib/alerts' ENDED_DELIVERY_STATUSES (lib/jobs may not import
  // lib/alerts, which enqueues through it): lib/db/enums.test.ts holds the two equal.
  // A digest's row is how a digest pass run again in the same week (a retry of the cron job,
  // hours or days later) knows that workspace's digest went (lib/alerts/digest.ts): kept past
  // the week whatever the retention, or a short one would send it again.
  const cutoff = new Date(now.getTime() - deliveryDays * day);
  const digestCutoff = new Date(Math.min(cutoff.getTime(), now.getTime() - DIGEST_MIN_RETENTION_DAYS * day));
  const deliveries = await db().alertDelivery.deleteMany({
    where: {
      status: { in: [...RETAINED_DELIVERY_STATUSES] },
      OR: [{ kind: { not: "digest" }, endedAt: { lt: cutoff } }, { kind: "digest", endedAt: { lt: digestCutoff } }],
    },
  });
  // The daily rollup (traffic_daily) keeps the counts of the raw hits deleted here.
  const trafficDays = options.trafficHitRetentionDays ?? env().BEACON_TRAFFIC_HIT_RETENTION_DAYS;
  const trafficHits = await deleteOldTrafficHits(new Date(now.getTime() - trafficDays * day), options.trafficHitBatchSize ?? TRAFFIC_HIT_BATCH);
  return { trafficHitsDeleted: trafficHits, ...attempts, idempotencyKeysExpired: keys.count, trafficImportsExpired: imports.count, heartbeatsDeleted: heartbeats.count, deliveriesDeleted: deliveries.count };
}
