import "server-only";
import { EventEmitter, setMaxListeners } from "node:events";
import os from "node:os";
import { Logger, parseCronItems, run, type CronItem, type TaskList, type WorkerEvents, type WorkerPool } from "graphile-worker";
import { env, requireDatabaseUrl } from "@/lib/config/env";
import { lastLine } from "@/lib/errors";
import { jobCatalog } from "@/lib/jobs/catalog";
import { forbiddenProviderFlags, slotsMayHaveFreed } from "@/lib/jobs/forbidden-flags";
import { patientPool } from "@/lib/jobs/patient-pool";
import { beat, markStopped, type WorkerIdentity } from "@/lib/jobs/heartbeats";
import { setWorkerIdentity } from "@/lib/jobs/identity";
import { clockSkewMs, CLOCK_SKEW_WARN_MS } from "@/lib/worker/clock";
import { startMaintenance } from "@/lib/worker/maintenance";
import { strandedJobWatch } from "@/lib/worker/stranded-jobs";
import { labelWorker, workerMetricsSnapshot } from "@/lib/jobs/worker-metrics";

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


/** Slack after the abort signal for tasks to record their cancelled attempts and return. */
const ABORT_SLACK_MS = 5_000;

/**
 * graphile-worker logs every finished job at "info"; at thousands of captures that drowns the
 * launcher's output. Keep its warnings and errors, and the lines that say the worker is up.
 */
function quietLogger(log: (line: string) => void): Logger {
  return new Logger(() => (level, message) => {
    // It also warns at every start when its pool is smaller than the concurrency, which ours is on
    // purpose: the jobs run their queries on Prisma's pool, graphile-worker's only fetches and
    // finishes jobs (BEACON_WORKER_QUEUE_POOL_SIZE, docs/operating.md "Database connections").
    if (/^WARNING: having maxPoolSize/.test(message)) return;
    if (level === "error" || level === "warning" || (level === "info" && !/^(Completed|Failed) task/.test(message))) log(message);
  });
}

// A daily or weekly job whose minute no worker was up for (a deploy, a restart) runs when one
// starts, within its period: each is safe to run late (one digest per channel and week, firings
// keyed). The minutely and hourly ones just wait for their next slot.
const BACKFILL_MS = { day: 86_400_000, week: 7 * 86_400_000 } as const;

function cronItems(): CronItem[] {
  return Object.entries(jobCatalog).flatMap(([task, job]) =>
    "cron" in job ? [{ task, match: job.cron, identifier: task, options: { backfillPeriod: "backfill" in job ? BACKFILL_MS[job.backfill] : 0 } }] : [],
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
  // A job was added or woken somewhere (a freed slot nudges idle workers this way).
  events.on("pool:listen:notification", ({ message }) => {
    if (message.channel === "jobs:insert") slotsMayHaveFreed();
  });
  // The jobs this process runs now, for its stranded-job watch (lib/worker/stranded-jobs.ts).
  const runningJobs = new Set<string>();
  events.on("job:start", ({ job }) => runningJobs.add(job.id));
  // This process finished a job: a capture of it may have given a slot back.
  events.on("job:complete", ({ job }) => {
    runningJobs.delete(job.id);
    slotsMayHaveFreed();
  });
  // If graphile-worker's pool fails anyway (a job it cannot mark finished for a reason other than
  // the connection), its shutdown may never finish (see patientPool) while our heartbeat keeps
  // the lease alive: a process that looks alive and runs nothing, whose jobs nobody takes over.
  // Give its shutdown the drain's time, then end the process (worker/index.ts exits on `done`)
  // so that the lease runs out and the sweeper takes its jobs.
  let failed: (error: Error) => void = () => {};
  const poolFailed = new Promise<never>((_, reject) => (failed = reject));
  poolFailed.catch(() => {}); // observed through `done`
  events.on("pool:fatalError", ({ error, action }) => {
    log(`graphile-worker's pool failed (${action}: ${lastLine(error)}); stopping this process in ${(graceMs + ABORT_SLACK_MS) / 1000} s`);
    setTimeout(() => failed(new Error(`graphile-worker's pool failed (${action}): ${lastLine(error)}`)), graceMs + ABORT_SLACK_MS);
  });

  const database = patientPool({ connectionString: requireDatabaseUrl(), max: e.BEACON_WORKER_QUEUE_POOL_SIZE, log });
  let poolEnded: Promise<void> | null = null;
  const endPool = () => (poolEnded ??= database.pool.end().catch(() => {}));
  const runner = await run({
    pgPool: database.pool,
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
    pollInterval: e.BEACON_WORKER_POLL_INTERVAL_MS,
    // Skip the jobs of providers that are at their concurrency cap across all workers.
    forbiddenFlags: forbiddenProviderFlags,
    // With the default (-1) graphile-worker 0.17.3 deletes a finished job without awaiting it,
    // and a stop() right after the task returns closes the pool first: the job stays locked by
    // a stopped worker and runs again. A batcher (even with no delay) is flushed before exit.
    preset: { worker: { completeJobBatchDelay: 0, failJobBatchDelay: 0 } },
  });
  if (!pool) {
    await runner.stop();
    await endPool();
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
    await endPool();
    throw error;
  }
  // Up and running: from now on the job queue waits out a database outage (see patientPool).
  database.state.patient = true;
  setWorkerIdentity(worker.workerId);
  labelWorker(worker.workerId);
  log(`worker ${worker.workerId} running (concurrency ${worker.concurrency}, lease ${leaseSeconds} s)`);

  // A failed renewal is not fatal: the database may be back before the lease runs out, and if
  // it is not, the sweeper takes the jobs over and the capture's run token fences this process.
  let renewing: Promise<void> | null = null;
  // One renewal at a time; renewLease fails when it does, renew logs it.
  const renewLease = () => (renewing ??= workerMetricsSnapshot()
    .then((metrics) => beat(worker, status, leaseSeconds, metrics))
    .finally(() => (renewing = null)));
  const renew = () => renewLease().catch((error: unknown) => log(`heartbeat failed: ${lastLine(error)}`));
  const timer = setInterval(renew, Math.min((leaseSeconds * 1000) / 4, 5_000));
  const handBackStrandedJobs = strandedJobWatch({
    lockIds: () => [worker.workerId, ...slotIds],
    running: () => runningJobs,
    strandedAfterMs: e.BEACON_STRANDED_JOB_SECONDS * 1000,
  });
  // graphile-worker's cron is timed by this process's clock (lib/worker/clock.ts): say so when it is off.
  void clockSkewMs()
    .then((skew) => {
      if (Math.abs(skew) > CLOCK_SKEW_WARN_MS) {
        log(`WARNING: this machine's clock is ${Math.round(Math.abs(skew) / 1000)} s ${skew > 0 ? "ahead of" : "behind"} the database's; recurring jobs (schedules, alerts, retention) run by it. Sync it (NTP).`);
      }
    })
    .catch(() => {});
  const stopMaintenance = startMaintenance({ sweepMs: e.BEACON_SWEEP_INTERVAL_SECONDS * 1000, repairMs: e.BEACON_REPAIR_INTERVAL_SECONDS * 1000, log, handBackStrandedJobs, renewLease });

  let stopping: Promise<void> | null = null;
  const stop = () => {
    stopping ??= (async () => {
      status = "draining";
      await renewing?.catch(() => {});
      await renew();
      log(`draining: waiting up to ${graceMs / 1000} s for running jobs`);
      const force = setTimeout(() => {
        log("running jobs did not finish after the abort; failing them so they run again");
        // A database that is still away must not hold the drain up for ever.
        database.state.patient = false;
        // Not runner.kill(): once stop() has begun it sees an inactive pool and does nothing.
        void Promise.resolve(workerPool.forcefulShutdown("worker shutdown grace period exceeded")).catch(() => {});
      }, graceMs + ABORT_SLACK_MS);
      // Rejects only if the runner had already stopped on its own; there is nothing left to drain.
      await runner.stop().catch(() => {});
      await endPool();
      clearTimeout(force);
      clearInterval(timer);
      await stopMaintenance();
      await renewing?.catch(() => {});
      await markStopped(worker.workerId);
      log(`worker ${worker.workerId} stopped`);
    })();
    return stopping;
  };

  const done = Promise.race([runner.promise, poolFailed]).finally(() => {
    clearInterval(timer);
    void endPool();
  });
  return { workerId: worker.workerId, done, stop };
}
