import "server-only";
import type { Prisma } from "@/lib/generated/prisma/client";

type Sql = Pick<Prisma.TransactionClient, "$executeRawUnsafe">;

/** One job per capture: the key makes a re-enqueue replace a waiting job instead of adding one. */
export const captureJobKey = (captureId: string) => `capture:${captureId}`;

/**
 * Each capture job carries its provider's flag so a worker can skip the jobs of a provider that
 * is at its concurrency cap (graphile-worker `forbiddenFlags`). An open breaker works through the
 * job's run_at instead (the capture is postponed).
 */
export const providerFlag = (providerConfigId: string) => `p:${providerConfigId}`;

// graphile-worker's own retries are only a safety net for crashes and bugs; the capture's
// attempts follow the app's policy (DESIGN.md "Retries by error class").
const JOB_MAX_ATTEMPTS = 10;

/**
 * Enqueues capture jobs with graphile-worker's SQL API, inside the caller's transaction, so the
 * jobs exist exactly when the state change that needs them commits.
 */
export async function enqueueCaptureJobs(
  tx: Sql,
  target: { checkId: string } | { captureIds: string[] },
  runAt: Date | null = null,
): Promise<void> {
  const filter = "checkId" in target ? { column: "checkId", ids: [target.checkId] } : { column: "id", ids: target.captureIds };
  if (!filter.ids.length) return;
  const where = filter.column === "checkId" ? `c."checkId" = ANY($1::uuid[])` : `c.id = ANY($1::uuid[])`;
  await tx.$executeRawUnsafe(
    `SELECT count(*) FROM graphile_worker.add_jobs(ARRAY(
       SELECT ROW('capture', json_build_object('captureId', c.id), NULL, $2::timestamptz, ${JOB_MAX_ATTEMPTS}, 'capture:' || c.id, NULL, ARRAY['p:' || c."providerConfigId"])::graphile_worker.job_spec
       FROM captures c WHERE ${where} AND c.status IN ('queued', 'retry_wait', 'postponed')
       ORDER BY c.sample, c."createdAt", c.id))`,
    filter.ids,
    runAt,
  );
}
