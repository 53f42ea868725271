import "server-only";
import { expireAttempt, type ExpireReason } from "@/lib/captures/lifecycle/lease";
import { pausePoint } from "@/lib/captures/lifecycle/pause-points";
import { db } from "@/lib/db/prisma";

export type SweepResult = { workers: string[]; expired: number; recovered: number; failed: number };

/**
 * Takes over the runs whose worker will not finish them (DESIGN.md "Leases, crashes and
 * restarts"). Workers are known by their pool id and lease only, never by host or pid:
 *
 * 1. Workers whose lease ran out (crashed, frozen, cut off; or stopped cleanly) get their
 *    graphile-worker jobs unlocked at once, instead of after graphile's 4 hours.
 * 2. Every open attempt of such a worker, and every open attempt a LIVE worker no longer lists as
 *    running (a result it could not write), ends `unknown` through the lifecycle's expireLease
 *    transition: the capture runs again, fails, or ends cancelled if a cancel was requested.
 *
 * Each attempt is one guarded transition, so two sweepers (every worker runs one) or a slow
 * worker writing its result at the same moment cannot both win: no lock is needed here.
 */
export async function sweepDeadWorkers(): Promise<SweepResult> {
  const unlocked = await db().$queryRaw<{ workerId: string }[]>`
    WITH dead AS (
      UPDATE worker_heartbeats SET "expiredAt" = now() AT TIME ZONE 'UTC', status = 'expired'
      WHERE "expiredAt" IS NULL AND status <> 'stopped' AND "leaseExpiresAt" < now() AT TIME ZONE 'UTC'
      RETURNING "workerId", "slotIds"
    )
    SELECT "workerId" FROM dead, LATERAL (SELECT graphile_worker.force_unlock_workers(ARRAY["workerId"] || "slotIds")) unlock`;

  const orphaned = await db().$queryRaw<{ runToken: string; reason: ExpireReason }[]>`
    SELECT a."runToken",
           CASE WHEN h."workerId" IS NULL OR h."leaseExpiresAt" < now() AT TIME ZONE 'UTC' THEN 'lease_expired' ELSE 'abandoned' END AS reason
    FROM attempts a LEFT JOIN worker_heartbeats h ON h."workerId" = a."workerId"
    WHERE a.outcome IS NULL
      AND (h."workerId" IS NULL OR h."leaseExpiresAt" < now() AT TIME ZONE 'UTC'
           OR (a."startedAt" < h."activeAsOf" AND NOT (a."runToken" = ANY(h."activeRunTokens"))))
    ORDER BY a."startedAt"`;
  await pausePoint("sweep:after-read");

  const result: SweepResult = { workers: unlocked.map((w) => w.workerId), expired: 0, recovered: 0, failed: 0 };
  for (const attempt of orphaned) {
    const outcome = await expireAttempt(attempt.runToken, attempt.reason);
    if (!outcome) continue;
    result.expired++;
    if (outcome === "queued") result.recovered++;
    else result.failed++;
  }
  return result;
}
