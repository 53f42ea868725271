import "server-only";
import { db } from "@/lib/db/prisma";
import { transaction } from "@/lib/db/transaction";
import type { JobName } from "@/lib/jobs/catalog";
import { REPAIR_EVENT } from "@/lib/lifecycle/lease";
import { retireCaptureJobs } from "@/lib/worker/sweeper";

/**
 * A LIVE worker's jobs that it holds locked but no longer runs: graphile-worker finishes a job
 * with a statement it fires and forgets, and fetches one with a statement whose reply can be lost
 * (a connection that dies between the commit and the answer). Such a job stays locked by a worker
 * whose lease is fine for graphile's 4 hours: the sweeper only unlocks dead workers' jobs, and the
 * repair pass takes a locked job for a running one. Its capture, if still waiting, never runs.
 *
 * Each worker looks at its own: a job locked by one of its lock ids (pool and runner ids) that it
 * did not run at looks at least `strandedAfterMs` apart (one look may fall between a fetch's
 * commit and its reply, or between a finish being sent and committed) is handed back the way the
 * sweeper does it for a dead worker: a capture job is retired and its capture, if waiting, gets a
 * fresh job (a finish that arrives late deletes by id, so it must not find the next run's job);
 * another job is unlocked and runs again (tasks are idempotent). Nothing is paid twice: a
 * capture's run is fenced by its run token, and its claim refuses a capture that is not waiting.
 */
export function strandedJobWatch(options: {
  lockIds: () => string[];
  running: () => ReadonlySet<string>;
  /**
   * How long a job must have been seen locked by this worker and not run before it is handed
   * back (BEACON_STRANDED_JOB_SECONDS): longer than a finish waiting for its turn on a busy queue
   * pool, whatever the repair interval.
   */
  strandedAfterMs: number;
}) {
  /** Jobs seen locked by this worker and not running, with when they were first seen so. */
  let suspects = new Map<string, number>();
  return async function handBackStrandedJobs(): Promise<string[]> {
    const lockIds = options.lockIds();
    const locked = await db().$queryRaw<{ id: string }[]>`
      SELECT id::text AS id FROM graphile_worker._private_jobs WHERE locked_by = ANY(${lockIds}::text[])`;
    // Read after the jobs: a job fetched before that read has started by now unless its reply is late.
    const running = options.running();
    const now = performance.now();
    const notRunning = new Map(locked.filter((j) => !running.has(j.id)).map((j) => [j.id, suspects.get(j.id) ?? now]));
    const stranded = [...notRunning].filter(([, since]) => now - since >= options.strandedAfterMs).map(([id]) => id);
    for (const id of stranded) notRunning.delete(id);
    suspects = notRunning;
    if (stranded.length) await handBack(lockIds, stranded);
    return stranded;
  };
}

async function handBack(lockIds: string[], jobIds: string[]): Promise<void> {
  await transaction(async (tx) => {
    const jobs = await tx.$queryRaw<{ id: bigint; captureId: string | null; queueId: number | null }[]>`
      SELECT j.id, CASE WHEN t.identifier = ${"capture" satisfies JobName} THEN j.payload->>'captureId' END AS "captureId", j.job_queue_id AS "queueId"
      FROM graphile_worker._private_jobs j JOIN graphile_worker._private_tasks t ON t.id = j.task_id
      WHERE j.id = ANY(${jobIds}::bigint[]) AND j.locked_by = ANY(${lockIds}::text[])
      FOR UPDATE OF j`;
    if (!jobs.length) return;
    // The fetch that locked it counted an attempt its run never used (or whose failure was lost):
    // given back, or a job fetched for its last attempt could never be fetched again.
    await tx.$executeRaw`
      UPDATE graphile_worker._private_jobs SET locked_by = NULL, locked_at = NULL, attempts = GREATEST(attempts - 1, 0)
      WHERE id = ANY(${jobs.map((j) => j.id)}::bigint[])`;
    const captureJobs = jobs.flatMap((j) => (j.captureId ? [{ id: j.id, captureId: j.captureId }] : []));
    await retireCaptureJobs(tx, captureJobs);
    // A job queue runs one job at a time: the queue was locked for the job handed back.
    const queueIds = jobs.flatMap((j) => (j.queueId === null ? [] : [j.queueId]));
    if (queueIds.length) {
      await tx.$executeRaw`
        UPDATE graphile_worker._private_job_queues SET locked_by = NULL, locked_at = NULL
        WHERE id = ANY(${queueIds}::int[]) AND locked_by = ANY(${lockIds}::text[])`;
    }
    if (!captureJobs.length) return;
    // Counted with the repairs (beacon_lifecycle_repairs_total{kind="stranded_job"}): a healthy system has none.
    const captures = await tx.capture.findMany({ where: { id: { in: captureJobs.map((j) => j.captureId) } }, select: { id: true, workspaceId: true, checkId: true } });
    await tx.event.createMany({
      data: captures.map((c) => ({
        workspaceId: c.workspaceId,
        checkId: c.checkId,
        captureId: c.id,
        kind: REPAIR_EVENT,
        data: { kind: "stranded_job", jobId: String(captureJobs.find((j) => j.captureId === c.id)!.id) },
      })),
    });
  });
}
