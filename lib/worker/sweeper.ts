import "server-only";
import { expireAttempt } from "@/lib/lifecycle/lease";
import { pausePoint } from "@/lib/db/pause-points";
import { transaction } from "@/lib/db/transaction";
import type { JobName } from "@/lib/jobs/catalog";
import { enqueueCaptureJobs } from "@/lib/jobs/enqueue";
import { leaseOver, orphanReason, runIsOrphaned, type OrphanReason } from "@/lib/jobs/heartbeats";
import { expireSetupRuns, orphanedSetupRuns } from "@/lib/setup/run";
import type { Prisma } from "@/lib/generated/prisma/client";

/** `setupEnded`: setup-wizard calls whose run was taken over (ended failed, charged their estimate). */
export type SweepResult = { workers: string[]; expired: number; recovered: number; failed: number; setupEnded: number };

/**
 * Takes over the runs whose worker will not finish them (DESIGN.md "Leases, crashes and
 * restarts"). Workers are known by their pool id and lease only, never by host or pid:
 *
 * 1. Workers whose lease ran out (crashed, frozen, cut off) get their graphile-worker jobs
 *    unlocked at once, instead of after graphile's 4 hours (their capture jobs replaced).
 * 2. Every open attempt of such a worker, and every open attempt a LIVE worker no longer lists as
 *    running (a result it could not write), ends `unknown` through the lifecycle's expireLease
 *    transition: the capture runs again, fails, or ends cancelled if a cancel was requested.
 * 3. The same for the setup wizard's calls (lib/setup/run.ts expireSetupRuns): ended `failed`,
 *    charged their estimate.
 *
 * Each attempt is one guarded transition, so two sweepers (every worker runs one) or a slow
 * worker writing its result at the same moment cannot both win: no lock is needed here.
 */
export async function sweepDeadWorkers(): Promise<SweepResult> {
  // One transaction, so one now(): the attempts are judged by the leases the workers were judged
  // by. Read in a later transaction, a lease that ran out in between had its attempts taken over
  // while its worker stayed "running", its jobs still locked to it.
  const { unlocked, orphaned, orphanedSetupRuns: setupRuns } = await transaction(async (tx) => {
    const dead = await tx.$queryRaw<{ workerId: string; slotIds: string[] }[]>`
      UPDATE worker_heartbeats h SET "expiredAt" = now() AT TIME ZONE 'UTC', status = 'expired'
      WHERE h."expiredAt" IS NULL AND h.status <> 'stopped' AND ${leaseOver("h")}
      RETURNING h."workerId", h."slotIds"`;
    await pausePoint("sweep:after-workers", { tx });
    if (dead.length) await unlockJobsOf(tx, dead);
    const orphaned = await tx.$queryRaw<{ runToken: string; reason: OrphanReason }[]>`
      SELECT a."runToken", ${orphanReason("h")} AS reason
      FROM attempts a LEFT JOIN worker_heartbeats h ON h."workerId" = a."workerId"
      WHERE a.outcome IS NULL AND ${runIsOrphaned("a", "h")}
      ORDER BY a."startedAt"`;
    return { unlocked: dead.map((w) => w.workerId), orphaned, orphanedSetupRuns: await orphanedSetupRuns(tx) };
  });
  await pausePoint("sweep:after-read");

  const result: SweepResult = { workers: unlocked, expired: 0, recovered: 0, failed: 0, setupEnded: 0 };
  for (const attempt of orphaned) {
    const outcome = await expireAttempt(attempt.runToken, attempt.reason);
    if (!outcome) continue;
    result.expired++;
    if (outcome === "queued") result.recovered++;
    else result.failed++;
  }
  result.setupEnded = await expireSetupRuns(setupRuns);
  return result;
}

/**
 * The graphile-worker jobs of dead workers unlocked at once, instead of after graphile's 4 hours:
 * their capture jobs retired (retireCaptureJobs); running captures get their fresh job when their
 * run is expired. The payload is only in graphile's private table (the public view leaves it
 * out), and a running job's key may already be cleared by a re-enqueue: the payload names the capture.
 */
async function unlockJobsOf(tx: Prisma.TransactionClient, dead: { workerId: string; slotIds: string[] }[]): Promise<void> {
  const lockIds = dead.flatMap((w) => [w.workerId, ...w.slotIds]);
  const captureJobs = await tx.$queryRaw<{ id: bigint; captureId: string }[]>`
    SELECT j.id, j.payload->>'captureId' AS "captureId"
    FROM graphile_worker._private_jobs j JOIN graphile_worker._private_tasks t ON t.id = j.task_id
    WHERE j.locked_by = ANY(${lockIds}::text[]) AND t.identifier = ${"capture" satisfies JobName}`;
  await tx.$executeRaw`SELECT graphile_worker.force_unlock_workers(${lockIds}::text[])`;
  await retireCaptureJobs(tx, captureJobs);
}

/**
 * Capture jobs taken from a worker that will not finish them, retired rather than handed back: a
 * worker that was only frozen or cut off finishes its job by deleting it by id (graphile's
 * completeJob does not check the lock), and must not delete a job that now stands for a later
 * run. Each capture that is waiting gets a fresh job (enqueueCaptureJobs skips the others).
 * The jobs must be unlocked first: graphile's complete_jobs deletes no locked job.
 */
export async function retireCaptureJobs(tx: Prisma.TransactionClient, jobs: { id: bigint; captureId: string }[]): Promise<void> {
  if (!jobs.length) return;
  await tx.$queryRaw`SELECT count(*) FROM graphile_worker.complete_jobs(${jobs.map((j) => j.id)}::bigint[])`;
  await enqueueCaptureJobs(tx, { captureIds: jobs.map((j) => j.captureId) });
}
