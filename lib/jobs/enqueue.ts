import "server-only";
import { WAITING_STATUSES } from "@/lib/captures/states";
import { Prisma } from "@/lib/generated/prisma/client";
import { jobCatalog, type JobPayload } from "@/lib/jobs/catalog";

type Sql = Pick<Prisma.TransactionClient, "$executeRaw">;

// Producers of graphile-worker jobs, through its SQL API inside the caller's transaction, so a
// job exists exactly when the state change that needs it commits. Names and options come from
// lib/jobs/catalog.ts; run_at is computed from the database clock, the one graphile compares.

const capture = jobCatalog.capture;
const CAPTURE_KEY_PREFIX = capture.jobKey({ captureId: "" });
const PROVIDER_FLAG_PREFIX = capture.flag("");

/**
 * One capture job per waiting capture of the target (a check, or some captures), to run
 * `delayMs` after the database's now. Captures that are not waiting get none.
 */
export async function enqueueCaptureJobs(tx: Sql, target: { checkId: string } | { captureIds: string[] }, delayMs = 0): Promise<void> {
  const scope =
    "checkId" in target ? Prisma.sql`c."checkId" = ${target.checkId}::uuid` : target.captureIds.length ? Prisma.sql`c.id = ANY(${target.captureIds}::uuid[])` : null;
  if (!scope) return;
  await tx.$executeRaw`
    SELECT count(*) FROM graphile_worker.add_jobs(ARRAY(
      SELECT ROW('capture', json_build_object('captureId', c.id), NULL, now() + make_interval(secs => ${delayMs / 1000}::float8),
                 ${capture.maxAttempts}::int, ${CAPTURE_KEY_PREFIX} || c.id, NULL, ARRAY[${PROVIDER_FLAG_PREFIX} || c."providerConfigId"])::graphile_worker.job_spec
      FROM captures c WHERE ${scope} AND c.status = ANY(${[...WAITING_STATUSES]}::"CaptureStatus"[])
      ORDER BY c.sample, c."createdAt", c.id))`;
}

/** The re-analysis of a brand's answers; one run at a time per brand. */
export async function enqueueReanalysis(tx: Sql, payload: JobPayload<"reanalyze">, brandId: string): Promise<void> {
  const job = jobCatalog.reanalyze;
  await tx.$executeRaw`
    SELECT graphile_worker.add_job('reanalyze', ${JSON.stringify(job.payload.parse(payload))}::json,
      queue_name => ${job.queueName(brandId)}, max_attempts => ${job.maxAttempts}::int)`;
}
