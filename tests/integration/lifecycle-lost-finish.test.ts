// A job whose "failed" record loses its connection while its worker stays alive (seen once in CI
// in lifecycle-db-restart.test.ts: job 156 stayed locked by the live worker w1, attempts 1,
// last_error null, after w1 had logged "Failed task 156 … Connection terminated"; its capture
// never ran again, so the check never finished).
//
// Reproduced without a restart, with real processes: a worker (graphile-worker's default pool of
// BEACON_WORKER_QUEUE_POOL_SIZE=2, one connection held by LISTEN) claims a capture; the claim is
// held before its commit and its connection terminated, so the task fails; the worker's
// `fail_job` statement is held on the job's row lock and its connection terminated too. The
// worker must still record the failure, so that the capture runs again (lib/jobs/patient-pool.ts).
//
// And whatever graphile-worker loses (a finish it fired and forgot, a fetch whose reply never
// came), a job locked by a live worker that does not run it is handed back by that worker
// (lib/worker/stranded-jobs.ts), here after BEACON_STRANDED_JOB_SECONDS=2 rather than 10.
import pg from "pg";
import { describe, expect, it } from "vitest";
import { captureStatusCounts, waitForCheckToFinish } from "../support/check-fixtures";
import { expectBudgetConsistent, newSpace, repairsIn, startSpaceCheck } from "../support/lifecycle-fixtures";
import { holdInWorkers } from "../support/pause";
import { waitFor } from "../support/wait-for";
import { startWorkers } from "../support/worker-process";
import { runRepairPass } from "@/lib/lifecycle/repair";
import { db } from "@/lib/db/prisma";

type JobRow = { id: bigint; locked_by: string | null; attempts: number; last_error: string | null };

const jobsOf = (captureId: string) =>
  db().$queryRaw<JobRow[]>`
    SELECT id, locked_by, attempts, last_error FROM graphile_worker._private_jobs
    WHERE key = ${`capture:${captureId}`} OR payload->>'captureId' = ${captureId} ORDER BY id`;

/** The capture's jobs all finished (a job is deleted just after its task returns, so after the check finished). */
const noJobLeft = (captureId: string, details: () => string) =>
  waitFor(async () => (await jobsOf(captureId)).length === 0, { what: `no job of capture ${captureId} left`, timeoutMs: 15_000, intervalMs: 50, details });

/** The one backend of this database that waits for a lock and matches `where` (pg_stat_activity). */
async function waitingBackend(client: pg.Client, what: string, where: string): Promise<number> {
  return waitFor(
    async () => {
      const { rows } = await client.query<{ pid: number }>(
        `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND pid <> pg_backend_pid() AND ${where}`,
      );
      return rows.length === 1 ? rows[0]!.pid : undefined;
    },
    { what, timeoutMs: 30_000, intervalMs: 10 },
  );
}

describe("a job locked by a live worker that no longer runs it", () => {
  it("a failure record whose connection died is recorded all the same, and the capture runs again", { timeout: 90_000 }, async () => {
    const space = await newSpace({ prompts: 1 });
    const claims = await holdInWorkers("claim:before-commit");
    const [worker] = await startWorkers(["w1"], { BEACON_WORKER_CONCURRENCY: 1, BEACON_TEST_PAUSE_POINTS: "claim:before-commit" });
    const details = () => worker!.output();
    const { checkId, captureIds } = await startSpaceCheck(space, { prompts: 1, providers: ["ChatGPT"] });
    const captureId = captureIds[0]!;

    const control = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await control.connect();
    const rowLock = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await rowLock.connect();
    try {
      // The claim waits at its pause point, inside its transaction, with the job locked by w1.
      const claimPid = await waitingBackend(control, "the claim held before its commit", `query ILIKE '%pg_advisory_xact_lock_shared%'`);
      const [job] = await jobsOf(captureId);
      expect(job, "the capture's job, locked by w1").toMatchObject({ locked_by: worker!.workerId, attempts: 1 });

      // Hold the job's row, so that w1's statement recording the failure waits for it.
      await rowLock.query("BEGIN");
      await rowLock.query("SELECT id FROM graphile_worker._private_jobs WHERE id = $1 FOR UPDATE", [job!.id]);
      // The claim's connection dies: nothing committed, the task fails ("Failed task …").
      await control.query("SELECT pg_terminate_backend($1)", [claimPid]);
      await claims.release();
      await worker!.waitForLine(/Failed task/, 30_000);
      // Its failure record, sent on graphile-worker's pool, waits for the row; its connection dies too.
      const failPid = await waitingBackend(control, "w1's fail_job statement waiting for the job's row", `application_name LIKE '%:jobs' AND query ILIKE '%_private_jobs%'`);
      await control.query("SELECT pg_terminate_backend($1)", [failPid]);
      await rowLock.query("ROLLBACK");

      // The worker is alive, and the capture runs again (on the same worker: it is the only one).
      const done = await waitForCheckToFinish(checkId, 30_000, details).catch(async (error: Error) => {
        const jobs = JSON.stringify(await jobsOf(captureId), (_, v: unknown) => (typeof v === "bigint" ? String(v) : v));
        throw new Error(`${error.message}\njobs of the capture: ${jobs}`);
      });
      expect(worker!.running, details()).toBe(true);
      expect(worker!.output()).not.toMatch(/pool failed|committing seppuku|inconsistent state/);
      expect(done.status, JSON.stringify(await captureStatusCounts(checkId))).toBe("completed");
      const capture = await db().capture.findUniqueOrThrow({ where: { id: captureId }, include: { attempts: true } });
      expect(capture.status).toBe("succeeded");
      // The claim that died never opened an attempt: one attempt, paid once.
      expect(capture.attempts.map((a) => a.outcome)).toEqual(["succeeded"]);
      await noJobLeft(captureId, details);
      await expectBudgetConsistent(space.workspaceId);
      expect(await runRepairPass()).toEqual({});
      expect(await repairsIn(space.workspaceId)).toEqual([]);
    } finally {
      await rowLock.end().catch(() => {});
      await control.end().catch(() => {});
    }
  });

  it("one whose fetch reply was lost is handed back by that worker, and its capture runs", { timeout: 90_000 }, async () => {
    const space = await newSpace({ prompts: 1 });
    const { checkId, captureIds } = await startSpaceCheck(space, { prompts: 1, providers: ["ChatGPT"] });
    const captureId = captureIds[0]!;
    // Out of reach until the worker is up (no worker runs yet): then locked in its name, as a
    // job fetch whose commit landed but whose reply never reached it would leave it.
    const [job] = await db().$queryRaw<{ id: bigint }[]>`
      UPDATE graphile_worker._private_jobs SET locked_by = 'not-yet', locked_at = now(), attempts = attempts + 1
      WHERE key = ${`capture:${captureId}`} RETURNING id`;
    expect(job).toBeDefined();
    const [worker] = await startWorkers(["w1"], { BEACON_WORKER_CONCURRENCY: 1, BEACON_REPAIR_INTERVAL_SECONDS: 1, BEACON_STRANDED_JOB_SECONDS: 2 });
    await db().$executeRaw`UPDATE graphile_worker._private_jobs SET locked_by = ${worker!.workerId} WHERE id = ${job!.id}`;

    const done = await waitForCheckToFinish(checkId, 30_000, () => worker!.output()).catch(async (error: Error) => {
      const jobs = JSON.stringify(await jobsOf(captureId), (_, v: unknown) => (typeof v === "bigint" ? String(v) : v));
      throw new Error(`${error.message}\njobs of the capture: ${jobs}`);
    });
    expect(done.status).toBe("completed");
    expect(worker!.output()).toMatch(/handed back 1 job\(s\) this worker held locked but no longer ran/);
    const capture = await db().capture.findUniqueOrThrow({ where: { id: captureId }, include: { attempts: true } });
    expect(capture.attempts.map((a) => a.outcome)).toEqual(["succeeded"]);
    await noJobLeft(captureId, () => worker!.output());
    // Counted with the repairs: a healthy system has none.
    expect(await repairsIn(space.workspaceId)).toEqual(["stranded_job"]);
    await expectBudgetConsistent(space.workspaceId);
  });

  it("one on its last attempt is handed back with that attempt given back, so it still runs", { timeout: 90_000 }, async () => {
    // A job that is not a capture's runs again as it is (tasks are idempotent); a fetch counts an
    // attempt, so one fetched for its last attempt, then lost, could never be fetched again.
    const [job] = await db().$queryRaw<{ id: bigint }[]>`
      SELECT id FROM graphile_worker.add_job('retention', '{}'::json, max_attempts := 2)`;
    await db().$executeRaw`UPDATE graphile_worker._private_jobs SET locked_by = 'not-yet', locked_at = now(), attempts = 2 WHERE id = ${job!.id}`;
    const [worker] = await startWorkers(["w1"], { BEACON_WORKER_CONCURRENCY: 1, BEACON_REPAIR_INTERVAL_SECONDS: 1, BEACON_STRANDED_JOB_SECONDS: 2 });
    await db().$executeRaw`UPDATE graphile_worker._private_jobs SET locked_by = ${worker!.workerId} WHERE id = ${job!.id}`;
    const left = () => db().$queryRaw<JobRow[]>`SELECT id, locked_by, attempts, last_error FROM graphile_worker._private_jobs WHERE id = ${job!.id}`;
    // It ran (retention logs its result) and its job is gone.
    await waitFor(async () => (await left()).length === 0, {
      what: `retention job ${job!.id} to run`,
      timeoutMs: 30_000,
      intervalMs: 100,
      details: () => worker!.output(),
    });
    expect(worker!.output()).toMatch(/retention: \{/);
  });
});
