// The capture lifecycle under races, one defect of the first round each (issue 8): the two sides
// of each race run in this process against the file's real database, and one of them is held at
// the worst moment (a pause point inside its transaction, or a row lock the other must wait for)
// while the other acts. No sleeps: every wait is for an event.
import { randomUUID } from "node:crypto";
import pg from "pg";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { actAt, gateAt, waitForLockWaiter } from "../support/pause";
import { waitFor } from "../support/wait-for";
import {
  budgetNow,
  captureRow,
  claim,
  claimed,
  expectBudgetConsistent,
  jobOf,
  liveWorker,
  newSpace,
  repairsIn,
  startSpaceCheck,
  succeed,
  type Space,
} from "../support/lifecycle-fixtures";
import { failCapture, type Failure } from "@/lib/lifecycle/results";
import { runRepairPass } from "@/lib/lifecycle/repair";
import { cancelCapture, retryCaptures } from "@/lib/checks/cancel-retry";
import { checkTally } from "@/lib/captures/check-counts";
import { db } from "@/lib/db/prisma";
import { UserError } from "@/lib/errors";
import { beat, leaseOver, markStopped } from "@/lib/jobs/heartbeats";
import { sweepDeadWorkers } from "@/lib/worker/sweeper";
import { cancelCheckNow } from "../support/check-fixtures";

let space: Space;
let workerId: string;

beforeAll(async () => {
  space = await newSpace({ prompts: 4 });
  workerId = await liveWorker();
});

afterEach(() => {
  vi.useRealTimers();
});

const transient = (overrides: Partial<Failure> = {}): Failure => ({
  next: "retry_wait",
  delayMs: 1_000,
  lastError: "Simulated overload (503)",
  attempt: { outcome: "failed", reason: "server_error", errorClass: "transient", httpStatus: 503, costMicros: 0, costIsEstimate: false, latencyMs: 5 },
  ...overrides,
});

/** Makes a worker's lease run out now (a process frozen or cut off), keeping its row. */
async function expireLease(id: string) {
  await db().$executeRaw`UPDATE worker_heartbeats SET "leaseExpiresAt" = now() AT TIME ZONE 'UTC' - interval '1 second' WHERE "workerId" = ${id}`;
}

describe("cancel racing a failing call (defect 1)", () => {
  it.each([
    ["a transient error (retry_wait)", transient()],
    ["a shutdown abort (queued)", transient({ next: "queued", delayMs: undefined, attempt: { outcome: "cancelled", reason: "shutdown", costMicros: 40, costIsEstimate: true, latencyMs: 5 } })],
    ["an unknown outcome (retry_wait)", transient({ attempt: { outcome: "unknown", reason: "timeout", errorClass: "unknown", costMicros: 40, costIsEstimate: true, latencyMs: 5 } })],
  ])("ends cancelled when the cancel lands between the provider's failure and its record: %s", async (_label, failure) => {
    const before = await budgetNow(space.workspaceId);
    const { checkId, captureIds } = await startSpaceCheck(space);
    const captureId = captureIds[0]!;
    const runToken = await claimed(captureId, workerId);
    // (No worker runs here, so the job from the check's creation is still queued; it must not be
    // rescheduled, and when it runs it finds nothing to do.)
    const job = await jobOf(captureId);

    // The provider has failed; before the worker writes that, the user cancels.
    expect(await cancelCapture(space.owner, captureId)).toEqual({ cancelledNow: 0, aborting: 1 });
    expect(await failCapture(captureId, runToken, failure)).toEqual({ kind: "written", status: "cancelled" });

    const capture = await captureRow(captureId);
    expect(capture).toMatchObject({ status: "cancelled", reservedMicros: 0n, nextAttemptAt: null });
    expect(capture.finishedAt).not.toBeNull();
    expect(await jobOf(captureId), "not rescheduled").toEqual(job);
    expect((await db().check.findUniqueOrThrow({ where: { id: checkId } })).status).toBe("cancelled");
    expect((await checkTally(checkId)).reservedMicros, "nothing held for the check").toBe(0n);
    const after = await budgetNow(space.workspaceId);
    expect(after.reserved, "its hold is released").toBe(before.reserved);
    expect(after.inFlight).toBe(before.inFlight);
    await expectBudgetConsistent(space.workspaceId);
    // A second cancel is not needed, and the repair pass finds nothing to do.
    await expect(cancelCapture(space.owner, captureId)).rejects.toThrow(/already cancelled/);
    expect(await runRepairPass()).toEqual({});
  });

  it("a worker that records success after the cancel request keeps the answer, and the capture ends succeeded (the cancel came too late)", async () => {
    const { captureIds } = await startSpaceCheck(space);
    const captureId = captureIds[0]!;
    const runToken = await claimed(captureId, workerId);
    await cancelCapture(space.owner, captureId);
    expect(await succeed(captureId, runToken, 2_500)).toEqual({ kind: "written", status: "succeeded" });
    const capture = await captureRow(captureId);
    expect(capture).toMatchObject({ status: "succeeded", answerIsPartial: false, costMicros: 2_500n });
    expect(capture.attempts[0]).toMatchObject({ outcome: "succeeded", costMicros: 2_500n });
    await expectBudgetConsistent(space.workspaceId);
  });

  it("a cancel that lands while the sweeper expires the run still ends the capture cancelled", async () => {
    const { captureIds } = await startSpaceCheck(space);
    const captureId = captureIds[0]!;
    const doomed = await liveWorker();
    await claimed(captureId, doomed);
    await expireLease(doomed);
    const job = await jobOf(captureId);

    // The sweeper has read the dead worker's attempts; the cancel lands before it writes.
    const read = gateAt("sweep:after-read");
    const sweeping = sweepDeadWorkers();
    await read.reached;
    await cancelCapture(space.owner, captureId);
    read.open();
    await sweeping;

    const capture = await captureRow(captureId);
    expect(capture).toMatchObject({ status: "cancelled", reservedMicros: 0n });
    expect(capture.attempts[0]).toMatchObject({ outcome: "unknown", reason: "lease_expired", costIsEstimate: true });
    expect(await jobOf(captureId), "not rescheduled").toEqual(job);
    await expectBudgetConsistent(space.workspaceId);
  });
});

describe("the sweeper against a slow, live worker (defect 2)", () => {
  it("does not undo a success committed between the sweeper's read and its write", async () => {
    const { captureIds } = await startSpaceCheck(space);
    const captureId = captureIds[0]!;
    const slow = await liveWorker();
    const runToken = await claimed(captureId, slow);
    await expireLease(slow); // a GC pause: the lease ran out, the process did not die
    const job = await jobOf(captureId);

    const read = gateAt("sweep:after-read");
    const sweeping = sweepDeadWorkers();
    await read.reached;
    expect(await succeed(captureId, runToken, 3_000)).toEqual({ kind: "written", status: "succeeded" });
    read.open();
    expect((await sweeping).expired, "the sweeper lost the race and wrote nothing").toBe(0);

    const capture = await captureRow(captureId);
    expect(capture).toMatchObject({ status: "succeeded", costMicros: 3_000n, runToken });
    expect(capture.attempts).toHaveLength(1);
    expect(capture.attempts[0]).toMatchObject({ outcome: "succeeded", reason: null });
    expect(await jobOf(captureId), "no second call is queued").toEqual(job);
    await expectBudgetConsistent(space.workspaceId);
  });

  it("does not revive a permanent failure committed while it waits for the capture's row lock", async () => {
    const { captureIds } = await startSpaceCheck(space);
    const captureId = captureIds[0]!;
    const slow = await liveWorker();
    const runToken = await claimed(captureId, slow);
    await expireLease(slow);
    const job = await jobOf(captureId);

    // The worker's failure is written but not committed; the sweeper must wait for its row lock.
    const committing = gateAt("fail:before-commit");
    const failing = failCapture(captureId, runToken, transient({ next: "failed", lastError: "Invalid request (400)" }));
    await committing.reached;
    const sweeping = sweepDeadWorkers();
    await waitForLockWaiter();
    committing.open();
    expect(await failing).toEqual({ kind: "written", status: "failed" });
    expect((await sweeping).expired).toBe(0);

    const capture = await captureRow(captureId);
    expect(capture).toMatchObject({ status: "failed", lastError: "Invalid request (400)" });
    expect(capture.attempts.map((a) => a.outcome)).toEqual(["failed"]);
    expect(await jobOf(captureId), "not rescheduled").toEqual(job);
    await expectBudgetConsistent(space.workspaceId);
  });

  it("expires the run when the sweeper wins, and the late worker then writes nothing", async () => {
    const { captureIds } = await startSpaceCheck(space);
    const captureId = captureIds[0]!;
    const slow = await liveWorker();
    const runToken = await claimed(captureId, slow);
    await expireLease(slow);
    expect((await sweepDeadWorkers()).recovered).toBe(1);
    expect(await succeed(captureId, runToken)).toEqual({ kind: "lost" });
    const capture = await captureRow(captureId);
    expect(capture).toMatchObject({ status: "queued", runToken: null, answerText: null });
    expect(capture.attempts[0]).toMatchObject({ outcome: "unknown", reason: "lease_expired" });
    expect((await jobOf(captureId))?.run_at.getTime(), "its job runs now").toBeLessThanOrEqual(Date.now() + 1_000);
    await expectBudgetConsistent(space.workspaceId);
  });

  it("judges every lease at one moment: a lease that runs out during a sweep is taken over by the next, the worker with its attempts", async () => {
    const { captureIds } = await startSpaceCheck(space);
    const captureId = captureIds[0]!;
    const worker = await liveWorker(1); // its lease runs out in a second
    await claimed(captureId, worker);
    const leaseIsOver = () =>
      db().$queryRaw<{ over: boolean }[]>`SELECT ${leaseOver("h")} AS over FROM worker_heartbeats h WHERE h."workerId" = ${worker}`.then(([row]) => row!.over);

    // The sweep has judged the workers (this one alive); its lease runs out before the open attempts are read.
    const judged = gateAt("sweep:after-workers");
    const sweeping = sweepDeadWorkers();
    await judged.reached;
    expect(await leaseIsOver()).toBe(false);
    await waitFor(leaseIsOver, { what: "the worker's lease to run out", timeoutMs: 10_000 });
    judged.open();
    const first = await sweeping;
    // Judged alive: neither the worker nor its attempt was taken over (its jobs stay locked to it).
    expect(first.workers).not.toContain(worker);
    expect((await db().workerHeartbeat.findUniqueOrThrow({ where: { workerId: worker } })).status).toBe("running");
    expect((await captureRow(captureId)).attempts[0]!.outcome).toBeNull();

    // The next sweep judges it dead: the worker expired, its jobs unlocked and its attempt ended, together.
    const second = await sweepDeadWorkers();
    expect(second.workers).toContain(worker);
    expect(await db().workerHeartbeat.findUniqueOrThrow({ where: { workerId: worker } })).toMatchObject({ status: "expired", expiredAt: expect.any(Date) });
    const capture = await captureRow(captureId);
    expect(capture).toMatchObject({ status: "queued", runToken: null });
    expect(capture.attempts[0]).toMatchObject({ outcome: "unknown", reason: "lease_expired" });
    await expectBudgetConsistent(space.workspaceId);
  });

  it("a frozen worker that thaws and completes its old job cannot delete the job of the capture's next run", async () => {
    const { captureIds } = await startSpaceCheck(space);
    const captureId = captureIds[0]!;
    const frozen = await liveWorker();
    // The frozen worker holds the capture's job (as graphile-worker locks it) and runs it.
    const job = (await jobOf(captureId))!;
    await db().$executeRaw`UPDATE graphile_worker._private_jobs SET locked_by = ${frozen}, locked_at = now() WHERE id = ${job.id}`;
    await claimed(captureId, frozen);
    await expireLease(frozen);
    expect((await sweepDeadWorkers()).recovered).toBe(1);
    const next = (await jobOf(captureId))!;
    expect(next.id, "the next run has a job of its own").not.toBe(job.id);
    // It thaws and finishes its job: graphile-worker deletes it by id, without checking the lock.
    await db().$executeRaw`SELECT graphile_worker.complete_jobs(ARRAY[${job.id}]::bigint[])`;
    expect((await jobOf(captureId))?.id, "the capture still has its job").toBe(next.id);
    expect(await runRepairPass()).toEqual({});
  });
});

describe("a worker identified by pool id and lease only (defect 6)", () => {
  it("never sweeps a live peer that shares this host name and a pid that does not exist here", async () => {
    const { captureIds } = await startSpaceCheck(space);
    const captureId = captureIds[0]!;
    const peer = `peer-${randomUUID().slice(0, 8)}`;
    // Another container with host networking: same host name, a pid this process cannot see.
    await beat({ workerId: peer, slotIds: [], hostname: (await import("node:os")).hostname(), pid: 2 ** 22 - 3, concurrency: 4 }, "running", 600);
    const runToken = await claim(captureId, peer).then((c) => c.runToken);
    await sweepDeadWorkers();
    expect(await runRepairPass()).toEqual({});
    const capture = await captureRow(captureId);
    expect(capture).toMatchObject({ status: "running", runToken });
    expect(capture.attempts[0]!.outcome).toBeNull();
    expect(await succeed(captureId, runToken)).toEqual({ kind: "written", status: "succeeded" });
  });
});

describe("a result write that fails (defect 3)", () => {
  it("an attempt claimed after its worker was swept, by a worker that then died, is swept too", async () => {
    const { captureIds } = await startSpaceCheck(space);
    const captureId = captureIds[0]!;
    const flaky = await liveWorker();
    await expireLease(flaky);
    await sweepDeadWorkers(); // marks it expired
    // It was only slow: it claims before its next heartbeat, then dies for good.
    await claimed(captureId, flaky);
    await sweepDeadWorkers();
    const capture = await captureRow(captureId);
    expect(capture.status).toBe("queued");
    expect(capture.attempts[0]).toMatchObject({ outcome: "unknown", reason: "lease_expired" });
  });

  it("an attempt left open by a worker that stopped cleanly is swept (a stopped worker holds nothing)", async () => {
    const { captureIds } = await startSpaceCheck(space);
    const captureId = captureIds[0]!;
    const restarted = await liveWorker();
    await claimed(captureId, restarted);
    await markStopped(restarted);
    await sweepDeadWorkers();
    expect((await captureRow(captureId)).status).toBe("queued");
  });

  it("a run a live worker gave up (its token left the heartbeat) is taken over, and counted as a repair", async () => {
    const { captureIds } = await startSpaceCheck(space);
    const captureId = captureIds[0]!;
    const alive = await liveWorker();
    await claimed(captureId, alive);
    // The worker could not write the result and gave the run up; its next heartbeat lists no run.
    await beat({ workerId: alive, slotIds: [], hostname: "test-host", pid: 1, concurrency: 4 }, "running", 600);
    expect((await sweepDeadWorkers()).recovered).toBe(1);
    const capture = await captureRow(captureId);
    expect(capture.status).toBe("queued");
    expect(capture.attempts[0]).toMatchObject({ outcome: "unknown", reason: "abandoned", costIsEstimate: true });
    expect(await repairsIn(space.workspaceId)).toContain("abandoned_attempt");
    await expectBudgetConsistent(space.workspaceId);
  });

  it("a run still listed by its live worker is left alone, however long it takes", async () => {
    const { captureIds } = await startSpaceCheck(space);
    const captureId = captureIds[0]!;
    const alive = await liveWorker();
    const runToken = randomUUID();
    const { activeRuns } = await import("@/lib/captures/active-runs");
    activeRuns.add(runToken);
    try {
      await claim(captureId, alive, runToken);
      await beat({ workerId: alive, slotIds: [], hostname: "test-host", pid: 1, concurrency: 4 }, "running", 600);
      await sweepDeadWorkers();
      expect((await captureRow(captureId)).status).toBe("running");
    } finally {
      activeRuns.delete(runToken);
    }
    expect(await succeed(captureId, runToken)).toEqual({ kind: "written", status: "succeeded" });
  });
});

describe("retries (defects 4 and 5)", () => {
  async function failedCapture() {
    const { checkId, captureIds } = await startSpaceCheck(space);
    const captureId = captureIds[0]!;
    const runToken = await claimed(captureId, workerId);
    await failCapture(captureId, runToken, transient({ next: "failed", lastError: "Invalid request (400)" }));
    return { checkId, captureId };
  }

  it("two retries at once: one wins, the budget is held once, and only one job exists", async () => {
    const { captureId } = await failedCapture();
    const before = await budgetNow(space.workspaceId);
    const results = await Promise.allSettled([retryCaptures(space.owner, { captureId }), retryCaptures(space.owner, { captureId })]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const refused = results.find((r) => r.status === "rejected") as PromiseRejectedResult;
    expect(refused.reason).toBeInstanceOf(UserError);
    const capture = await captureRow(captureId);
    expect(capture.status).toBe("queued");
    expect((await budgetNow(space.workspaceId)).reserved - before.reserved, "held once").toBe(capture.reservedMicros);
    await expectBudgetConsistent(space.workspaceId);
  });

  it("a retry that arrives after a worker claimed the first retry's job does not reset the running capture", async () => {
    const { captureId } = await failedCapture();
    await retryCaptures(space.owner, { captureId });
    const runToken = await claimed(captureId, workerId);
    await expect(retryCaptures(space.owner, { captureId })).rejects.toThrow(/only failed or cancelled/i);
    expect(await captureRow(captureId)).toMatchObject({ status: "running", runToken });
    expect(await succeed(captureId, runToken)).toEqual({ kind: "written", status: "succeeded" });
  });

  it("a retry in a later month holds and releases in the month it runs; the check's old month is untouched", async () => {
    const { checkId, captureId } = await failedCapture();
    // The check was created last month (its budget row there is settled).
    await db().$executeRaw`UPDATE checks SET "createdAt" = "createdAt" - interval '40 days' WHERE id = ${checkId}::uuid`;
    const lastMonth = await db().$queryRaw<{ period: Date }[]>`SELECT (date_trunc('month', now() AT TIME ZONE 'UTC') - interval '1 month')::date AS period`;
    await db().$executeRaw`INSERT INTO budget_periods ("workspaceId", "periodStart", "updatedAt") VALUES (${space.workspaceId}::uuid, ${lastMonth[0]!.period}::date, now()) ON CONFLICT DO NOTHING`;
    const before = await budgetNow(space.workspaceId);

    await retryCaptures(space.owner, { captureId });
    const runToken = await claimed(captureId, workerId);
    await succeed(captureId, runToken, 1_234);

    const after = await budgetNow(space.workspaceId);
    expect(after.reserved, "this month's hold came and went").toBe(before.reserved);
    expect(after.charged - before.charged, "charged this month").toBe(1_234n);
    const [old] = await db().$queryRaw<{ reserved: bigint; charged: bigint }[]>`
      SELECT sum("reservedMicros")::bigint AS reserved, sum("chargedMicros")::bigint AS charged FROM budget_periods WHERE "workspaceId" = ${space.workspaceId}::uuid AND "periodStart" = ${lastMonth[0]!.period}::date`;
    expect(old, "last month is not released from (it would go negative) nor charged").toEqual({ reserved: 0n, charged: 0n });
    await expectBudgetConsistent(space.workspaceId);
  });

  it("a check created when this machine's clock says next month is held in the database's month", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date(Date.now() + 40 * 24 * 3600 * 1000));
    const { captureIds } = await startSpaceCheck(space);
    vi.useRealTimers();
    const capture = await captureRow(captureIds[0]!);
    const [db_] = await db().$queryRaw<{ period: Date }[]>`SELECT date_trunc('month', now() AT TIME ZONE 'UTC')::date AS period`;
    expect(capture.reservedPeriod?.toISOString()).toBe(db_!.period.toISOString());
    await expectBudgetConsistent(space.workspaceId);
  });
});

describe("times other processes compare come from the database clock (defect 8)", () => {
  it("a retry's run_at is the database's now + the delay, whatever this machine's clock says", async () => {
    const { captureIds } = await startSpaceCheck(space);
    const captureId = captureIds[0]!;
    const runToken = await claimed(captureId, workerId);
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date(Date.now() + 3600 * 1000)); // this machine runs an hour ahead
    await failCapture(captureId, runToken, transient({ delayMs: 2_000 }));
    vi.useRealTimers();
    const [{ drift }] = (await db().$queryRaw<{ drift: number }[]>`
      SELECT extract(epoch FROM run_at - (now() + interval '2 seconds'))::float8 AS drift FROM graphile_worker.jobs WHERE key = ${`capture:${captureId}`}`) as [{ drift: number }];
    expect(Math.abs(drift)).toBeLessThan(5);
    const capture = await captureRow(captureId);
    expect(Math.abs(capture.nextAttemptAt!.getTime() - Date.now() - 2_000)).toBeLessThan(5_000);
  });

  it("cancel and a worker's transition on the same capture at the same moment: no deadlock, the capture ends cancelled", async () => {
    const { checkId, captureIds } = await startSpaceCheck(space, { prompts: 2 });
    const [running, waiting] = captureIds as [string, string];
    const runToken = await claimed(running, workerId);
    // Cancel holds the captures' row locks; the worker's failure comes in meanwhile.
    const locked = gateAt("cancel:after-lock");
    const cancelling = cancelCheckNow(space.owner, checkId);
    await locked.reached;
    const failing = failCapture(running, runToken, transient());
    await waitForLockWaiter();
    locked.open();
    await expect(cancelling).resolves.toEqual({ cancelledNow: 1, aborting: 1 });
    await expect(failing).resolves.toEqual({ kind: "written", status: "cancelled" });
    expect((await captureRow(waiting)).status).toBe("cancelled");
    expect((await db().check.findUniqueOrThrow({ where: { id: checkId } })).status).toBe("cancelled");
    await expectBudgetConsistent(space.workspaceId);
  });

  it("a result write cut off by a connection reset inside its transaction is written again, once", async () => {
    const { captureIds } = await startSpaceCheck(space);
    const captureId = captureIds[0]!;
    const runToken = await claimed(captureId, workerId);
    // The database connection of the success write dies before COMMIT (failover, proxy reset).
    actAt("succeed:before-commit", async ({ tx }) => {
      const [{ pid }] = (await tx!.$queryRaw<{ pid: number }[]>`SELECT pg_backend_pid() AS pid`) as [{ pid: number }];
      const killer = new pg.Client({ connectionString: process.env.DATABASE_URL });
      await killer.connect();
      await killer.query("SELECT pg_terminate_backend($1)", [pid]);
      await killer.end();
    });
    await expect(succeed(captureId, runToken)).rejects.toThrow();
    // What the worker's persist loop then does: the same transition again, now on a new connection.
    expect(await succeed(captureId, runToken, 4_321)).toEqual({ kind: "written", status: "succeeded" });
    const capture = await captureRow(captureId);
    expect(capture).toMatchObject({ status: "succeeded", costMicros: 4_321n });
    expect(capture.attempts).toHaveLength(1);
    await expectBudgetConsistent(space.workspaceId);
  });
});
