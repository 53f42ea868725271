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
const CONNECTION_FLAG_PREFIX = capture.flag("");

/**
 * One capture job per waiting capture of the target (a check, or some captures), to run
 * `delayMs` after the database's now. Captures that are not waiting get none.
 *
 * Fair sharing between workspaces (DESIGN.md "How work flows" 2): a job's priority is its place
 * in its workspace's queue for that connection (the workspace's other waiting captures on it,
 * plus its rank among those enqueued now). graphile-worker takes the lowest priority first, so
 * the connection's slots go round-robin across workspaces: the first capture of a workspace
 * comes before the 5,000th of another.
 */
export async function enqueueCaptureJobs(tx: Sql, target: { checkId: string } | { captureIds: string[] }, delayMs = 0): Promise<void> {
  const scope =
    "checkId" in target ? Prisma.sql`c."checkId" = ${target.checkId}::uuid` : target.captureIds.length ? Prisma.sql`c.id = ANY(${target.captureIds}::uuid[])` : null;
  if (!scope) return;
  // Each (workspace, connection) pair's queue length is read once (MATERIALIZED: the rows of a
  // check inserted in this transaction have no statistics, and a per-row plan was cubic).
  await tx.$executeRaw`
    WITH targets AS MATERIALIZED (
      SELECT c.id, c."workspaceId", c."connectionId", c.sample, c."createdAt" FROM captures c
      WHERE ${scope} AND c.status = ANY(${[...WAITING_STATUSES]}::"CaptureStatus"[])
    ), pairs AS MATERIALIZED (
      SELECT "workspaceId", "connectionId", count(*)::int AS enqueued FROM targets GROUP BY 1, 2
    ), queues AS MATERIALIZED (
      SELECT p."workspaceId", p."connectionId",
             (SELECT count(*)::int FROM captures o WHERE o."connectionId" = p."connectionId" AND o."workspaceId" = p."workspaceId"
                AND o.status = ANY(${[...WAITING_STATUSES]}::"CaptureStatus"[])) - p.enqueued AS ahead
      FROM pairs p
    )
    SELECT count(*) FROM graphile_worker.add_jobs(ARRAY(
      SELECT ROW('capture', json_build_object('captureId', t.id), NULL, now() + make_interval(secs => ${delayMs / 1000}::float8),
                 ${capture.maxAttempts}::int, ${CAPTURE_KEY_PREFIX} || t.id,
                 LEAST(32767, q.ahead + row_number() OVER (PARTITION BY t."workspaceId", t."connectionId" ORDER BY t.sample, t."createdAt", t.id) - 1)::int,
                 ARRAY[${CONNECTION_FLAG_PREFIX} || t."connectionId"])::graphile_worker.job_spec
      FROM targets t JOIN queues q ON q."workspaceId" = t."workspaceId" AND q."connectionId" = t."connectionId"
      ORDER BY t.sample, t."createdAt", t.id))`;
}

/** The re-analysis of a brand's answers; one run at a time per brand. */
export async function enqueueReanalysis(tx: Sql, payload: JobPayload<"reanalyze">, brandId: string): Promise<void> {
  const job = jobCatalog.reanalyze;
  await tx.$executeRaw`
    SELECT graphile_worker.add_job('reanalyze', ${JSON.stringify(job.payload.parse(payload))}::json,
      queue_name => ${job.queueName(brandId)}, max_attempts => ${job.maxAttempts}::int)`;
}
