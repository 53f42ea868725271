import "server-only";
import { EventEmitter, setMaxListeners } from "node:events";
import os from "node:os";
import { Logger, parseCronItems, run, type CronItem, type TaskList, type WorkerEvents, type WorkerPool } from "graphile-worker";
import { env, requireDatabaseUrl } from "@/lib/config/env";
import { jobCatalog } from "@/lib/jobs/catalog";
import { forbiddenProviderFlags } from "@/lib/jobs/forbidden-flags";
import { beat, markStopped, type WorkerIdentity } from "@/lib/jobs/heartbeats";
import { setWorkerIdentity } from "@/lib/jobs/identity";
import { startMaintenance } from "@/lib/jobs/maintenance";
import { labelWorker, workerMetricsSnapshot } from "@/lib/metrics/worker-metrics";

export type WorkerProcess = {
  /** The pool id, which graphile-worker writes to `locked_by` of the jobs this process holds. */
  workerId: string;
  /** Settles when the runner has stopped; rejects if it stopped on a fatal error. */
  done: Promise<void>;
  /**
   * Drain: stop taking jobs, let running ones finish for the grace period, then abort them
   * through the task's abortSignal; if they still have not finished, fail them so they run
   * again elsewhere. Ends with the heartbeat marked stopped. Safe to call more than once.
   */
  stop: () => Promise<void>;
};

/** Prisma's messages start with a multi-line preamble; the last line says what happened. */
export const lastLine = (error: unknown) => (error instanceof Error ? error.message : String(error)).trim().split("\n").at(-1) ?? "";

/** Slack after the abort signal for tasks to record their cancelled attempts and return. */
const ABORT_SLACK_MS = 5_000;

/**
 * graphile-worker logs every finished job at "info"; at thousands of captures that drowns the
 * launcher's output. Keep its warnings and errors, and the lines that say the worker is up.
 */
function quietLogger(log: (line: string) => void): Logger {
  return new Logger(() => (level, message) => {
    if (level === "error" || level === "warning" || (level === "info" && !/^(Completed|Failed) task/.test(message))) log(message);
  });
}

function cronItems(): CronItem[] {
  return Object.entries(jobCatalog).flatMap(([task, job]) =>
    "cron" in job ? [{ task, match: job.cron, identifier: task, options: { backfillPeriod: 0 } }] : [],
  );
}

export async function startWorkerProcess(options: { taskList: TaskList; log: (line: string) => void }): Promise<WorkerProcess> {
  const { log } = options;
  const e = env();
  const graceMs = e.BEACON_WORKER_SHUTDOWN_GRACE_SECONDS * 1000;
  const leaseSeconds = e.BEACON_WORKER_LEASE_SECONDS;

  // `run()` creates the pool synchronously before it resolves, so the listener must exist first.
  const events: WorkerEvents = new EventEmitter();
  let pool: WorkerPool | undefined;
  const slotIds: string[] = [];
  events.on("pool:create", ({ workerPool }) => {
    pool = workerPool;
  });
  events.on("worker:create", ({ worker }) => {
    slotIds.push(worker.workerId);
  });

  const runner = await run({
    connectionString: requireDatabaseUrl(),
    concurrency: e.BEACON_WORKER_CONCURRENCY,
    taskList: options.taskList,
    // Recurring jobs come from the job catalog; no crontab file is read from the cwd.
    // graphile-worker's cron runs each item once per slot across all workers, and missed slots
    // need no backfill (an overdue schedule runs on the next tick).
    parsedCronItems: parseCronItems(cronItems()),
    events,
    logger: quietLogger(log),
    // The process owns its signals: the first one drains (see stop), it does not exit at once.
    noHandleSignals: true,
    gracefulShutdownAbortTimeout: graceMs,
    // Jobs scheduled for later (retries, postponed and re-queued captures) are found by polling.
    pollInterval: 1000,
    // Skip the jobs of providers that are at their concurrency cap across all workers.
    forbiddenFlags: forbiddenProviderFlags,
    // With the default (-1) graphile-worker 0.17.3 deletes a finished job without awaiting it,
    // and a stop() right after the task returns closes the pool first: the job stays locked by
    // a stopped worker and runs again. A batcher (even with no delay) is flushed before exit.
    preset: { worker: { completeJobBatchDelay: 0, failJobBatchDelay: 0 } },
  });
  if (!pool) {
    await runner.stop();
    throw new Error("graphile-worker did not report its worker pool");
  }
  const workerPool = pool;
  // Every running capture listens to the pool's abort signal; that is concurrency listeners.
  setMaxListeners(e.BEACON_WORKER_CONCURRENCY + 10, workerPool.abortSignal);

  const worker: WorkerIdentity = { workerId: workerPool.id, slotIds, hostname: os.hostname(), pid: process.pid, concurrency: e.BEACON_WORKER_CONCURRENCY };
  let status: "running" | "draining" = "running";
  try {
    await beat(worker, status, leaseSeconds);
  } catch (error) {
    await runner.stop();
    throw error;
  }
  setWorkerIdentity(worker.workerId);
  labelWorker(worker.workerId);
  log(`worker ${worker.workerId} running (concurrency ${worker.concurrency}, lease ${leaseSeconds} s)`);

  // A failed renewal is not fatal: the database may be back before the lease runs out, and if
  // it is not, the sweeper takes the jobs over and the capture's run token fences this process.
  let renewing: Promise<void> | null = null;
  const renew = () => {
    renewing ??= workerMetricsSnapshot()
      .then((metrics) => beat(worker, status, leaseSeconds, metrics))
      .catch((error: unknown) => log(`heartbeat failed: ${lastLine(error)}`))
      .finally(() => (renewing = null));
    return renewing;
  };
  const timer = setInterval(renew, Math.min((leaseSeconds * 1000) / 4, 5_000));
  const stopMaintenance = startMaintenance({ sweepMs: e.BEACON_SWEEP_INTERVAL_SECONDS * 1000, repairMs: e.BEACON_REPAIR_INTERVAL_SECONDS * 1000, log });

  let stopping: Promise<void> | null = null;
  const stop = () => {
    stopping ??= (async () => {
      status = "draining";
      await renewing;
      await renew();
      log(`draining: waiting up to ${graceMs / 1000} s for running jobs`);
      const force = setTimeout(() => {
        log("running jobs did not finish after the abort; failing them so they run again");
        // Not runner.kill(): once stop() has begun it sees an inactive pool and does nothing.
        void Promise.resolve(workerPool.forcefulShutdown("worker shutdown grace period exceeded")).catch(() => {});
      }, graceMs + ABORT_SLACK_MS);
      // Rejects only if the runner had already stopped on its own; there is nothing left to drain.
      await runner.stop().catch(() => {});
      clearTimeout(force);
      clearInterval(timer);
      await stopMaintenance();
      await renewing;
      await markStopped(worker.workerId);
      log(`worker ${worker.workerId} stopped`);
    })();
    return stopping;
  };

  const done = runner.promise.finally(() => clearInterval(timer));
  return { workerId: worker.workerId, done, stop };
}
