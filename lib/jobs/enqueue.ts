import "server-only";
import { WAITING_STATUSES } from "@/lib/captures/states";
import { Prisma } from "@/lib/generated/prisma/client";
import { jobCatalog, type JobName, type JobPayload } from "@/lib/jobs/catalog";

type Sql = Pick<Prisma.TransactionClient, "$executeRaw">;

// Producers of graphile-worker jobs, through its SQL API inside the caller's transaction, so a
// job exists exactly when the state change that needs it commits. Names and options come from
// lib/jobs/catalog.ts; run_at is computed from the database clock, the one graphile compares.

const capture = jobCatalog.capture;

/** The catalog's jobs that producers enqueue (the cron ones graphile-worker adds itself). */
type QueuedJob = { [N in JobName]: (typeof jobCatalog)[N] extends { maxAttempts: number } ? N : never }[JobName];

/**
 * `graphile_worker.add_job(…)` for a job of the catalog, as an SQL expression (a caller may add
 * a WHERE): its name, its payload checked by the catalog's schema and its max attempts come from
 * the catalog, so no producer spells a task's name or options itself. Due `delayMs` after the
 * database's now.
 */
export function addJobSql<N extends QueuedJob>(name: N, payload: JobPayload<N>, options: { queueName?: string; jobKey?: string; delayMs?: number } = {}): Prisma.Sql {
  const job = jobCatalog[name];
  const parsed: unknown = job.payload.parse(payload);
  return Prisma.sql`graphile_worker.add_job(${name}::text, ${JSON.stringify(parsed)}::json,
    queue_name => ${options.queueName ?? null}::text, run_at => now() + make_interval(secs => ${(options.delayMs ?? 0) / 1000}::float8),
    max_attempts => ${job.maxAttempts}::int, job_key => ${options.jobKey ?? null}::text)`;
}

/** Enqueues a job of the catalog in the caller's transaction (addJobSql). */
export async function addJob<N extends QueuedJob>(tx: Sql, name: N, payload: JobPayload<N>, options: { queueName?: string; jobKey?: string; delayMs?: number } = {}): Promise<void> {
  await tx.$executeRaw`SELECT ${addJobSql(name, payload, options)}`;
}

/**
 * The capture job's spec, for the database functions that enqueue capture jobs (migration
 * 20261201140000_lifecycle_hot_path): the catalog stays the one place it is defined.
 */
export const CAPTURE_JOB_SPEC = JSON.stringify({
  task: "capture" satisfies JobName,
  maxAttempts: capture.maxAttempts,
  keyPrefix: capture.jobKey({ captureId: "" }),
  flagPrefix: capture.flag(""),
  waiting: WAITING_STATUSES,
});

/**
 * One capture job per waiting capture of the target (a check, or some captures), to run
 * `delayMs` after the database's now. Captures that are not waiting get none.
 *
 * Fair sharing between workspaces (DESIGN.md "How work flows" 2): a job's priority is its place
 * in its workspace's queue for that connection (the workspace's other waiting captures on it,
 * plus its rank among those enqueued now). graphile-worker takes the lowest priority first, so
 * the connection's slots go round-robin across workspaces: the first capture of a workspace
 * comes before the 5,000th of another. (beacon_enqueue_captures, one statement.)
 */
export async function enqueueCaptureJobs(tx: Sql, target: { checkId: string } | { captureIds: string[] }, delayMs = 0): Promise<void> {
  const ids =
    "checkId" in target ? Prisma.sql`ARRAY(SELECT id FROM captures WHERE "checkId" = ${target.checkId}::uuid)` : target.captureIds.length ? Prisma.sql`${target.captureIds}::uuid[]` : null;
  if (!ids) return;
  await tx.$executeRaw`SELECT beacon_enqueue_captures(${ids}, ${delayMs}::float8, ${CAPTURE_JOB_SPEC}::jsonb)`;
}

/**
 * The re-analysis job's spec, for beacon_reanalysis_run (prisma/sql/functions), which queues a
 * brand's run (one at a time per brand: the queue is the prefix and the brand's id).
 */
export const REANALYSIS_JOB_SPEC = JSON.stringify({
  task: "reanalyze" satisfies JobName,
  maxAttempts: jobCatalog.reanalyze.maxAttempts,
  queuePrefix: jobCatalog.reanalyze.queueName(""),
});

const alerts = jobCatalog.evaluate_alerts;

/**
 * An evaluation of a workspace's alert rules for one reason (replacing one still waiting), if
 * the workspace has any enabled rule: one statement, and for a workspace without rules nothing
 * is enqueued.
 */
export async function enqueueAlertEvaluation(tx: Sql, payload: JobPayload<"evaluate_alerts">): Promise<void> {
  await tx.$executeRaw`
    SELECT ${addJobSql("evaluate_alerts", payload, { jobKey: alerts.jobKey(payload) })}
    WHERE EXISTS (SELECT 1 FROM alert_rules r WHERE r."workspaceId" = ${payload.workspaceId}::uuid AND r.enabled)`;
}

/** A cancel or retry of a whole check (lib/checks/operations.ts); one at a time per check. */
export async function enqueueCheckOperation(tx: Sql, payload: JobPayload<"check_operation">, checkId: string): Promise<void> {
  await addJob(tx, "check_operation", payload, { queueName: jobCatalog.check_operation.queueName(checkId) });
}

/** The call that writes a first run's suggestions (lib/setup/suggestions.ts). */
export async function enqueueSetupSuggestions(tx: Sql, payload: JobPayload<"setup_suggestions">): Promise<void> {
  await addJob(tx, "setup_suggestions", payload, { jobKey: jobCatalog.setup_suggestions.jobKey(payload) });
}

/** A site readiness check of the workspace's own domains (replacing one still waiting). */
export async function enqueueSiteReadiness(tx: Sql, payload: JobPayload<"site_readiness">): Promise<void> {
  await addJob(tx, "site_readiness", payload, { jobKey: jobCatalog.site_readiness.jobKey(payload), queueName: jobCatalog.site_readiness.queueName(payload.workspaceId) });
}
