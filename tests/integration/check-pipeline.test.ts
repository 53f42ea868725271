// The check pipeline end to end, with real worker processes (worker/index.ts) against this
// file's database: a check's captures are answered exactly once across several workers, a
// crashed worker's captures are recovered after its lease, duplicate submissions create one
// check, cancel stops calls in flight, errors are retried per class, the per-provider cap holds
// across processes, and SIGTERM drains. DESIGN.md is the specification.
//
// Latencies are short except where a call must still be in flight when something happens to it.
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  attemptsOf,
  budgetPeriod,
  cancelUnfinishedChecks,
  capturesOf,
  checkRow,
  eventsOf,
  isTerminal,
  maxOverlap,
  newIdempotencyKey,
  PROVIDER_NAMES,
  resetProviders,
  sample,
  setSimulator,
  setUpDemo,
  startCheck,
  waitForCheckToFinish,
  type CheckBody,
  type Demo, cancelCheckNow } from "../support/check-fixtures";
import { waitFor } from "../support/wait-for";
import { liveWorkers, startWorker, startWorkers, type WorkerProcess } from "../support/worker-process";
import { forceBreaker } from "@/lib/breaker/breaker";
import { retryCaptures } from "@/lib/checks/cancel-retry";
import { IdempotencyMismatchError } from "@/lib/idempotency";
import { db, sessionName } from "@/lib/db/prisma";
import { ForbiddenError } from "@/lib/errors";

let demo: Demo;

beforeAll(async () => {
  demo = await setUpDemo();
});

// Runs before tests/support/worker-process.ts stops the test's workers (after-hooks run in
// reverse order), so calls still running are aborted by their worker.
afterEach(async () => {
  await cancelUnfinishedChecks(demo);
  await resetProviders(demo);
});

const workerOutput = (...workers: WorkerProcess[]) => () => workers.map((w) => w.output()).join("\n");

function waitForFinish(checkId: string, timeoutMs: number, workers: WorkerProcess[] = liveWorkers()) {
  return waitForCheckToFinish(checkId, timeoutMs, workerOutput(...workers));
}

/** Every capture succeeded with exactly one succeeded attempt and a full answer; returns them. */
async function expectEachCaptureAnsweredOnce(checkId: string) {
  const captures = await capturesOf(checkId);
  for (const capture of captures) {
    const label = `capture ${capture.id} (${capture.status}, attempts ${capture.attempts.map((a) => `${a.number}:${a.outcome}/${a.reason}`).join(", ")})`;
    expect(capture.status, label).toBe("succeeded");
    const succeeded = capture.attempts.filter((a) => a.outcome === "succeeded");
    expect(succeeded, label).toHaveLength(1);
    expect(capture.answerText?.trim().length ?? 0, label).toBeGreaterThan(0);
    expect(capture.answerIsPartial, label).toBe(false);
    expect(capture.costMicros, label).toBeGreaterThan(0n);
    expect(capture.costMicros, label).toBe(succeeded[0]!.costMicros);
    expect(succeeded[0]!.costIsEstimate, label).toBe(false);
    expect(capture.attempts.every((a) => a.outcome !== null && a.endedAt !== null), `${label}: an attempt is still open`).toBe(true);
  }
  return captures;
}

/**
 * The check is settled: nothing held or in flight, and charged exactly what its attempts cost
 * (actual costs, plus the estimates of unknown and aborted calls). Returns the accepted cost.
 */
async function expectSettled(checkId: string) {
  const check = await checkRow(checkId);
  const captures = await db().capture.findMany({ where: { checkId }, select: { status: true, costMicros: true, reservedMicros: true } });
  const attempts = await attemptsOf(checkId);
  expect(check.reservedMicros, "check.reservedMicros after it finished").toBe(0n);
  expect(captures.every((c) => c.reservedMicros === 0n), "no capture holds budget").toBe(true);
  expect(attempts.every((a) => a.reservedMicros === 0n && a.outcome !== null), "no attempt is open or holds budget").toBe(true);
  expect(check.chargedMicros, "check.chargedMicros = sum of its attempts' cost").toBe(attempts.reduce((sum, a) => sum + a.costMicros, 0n));
  return { accepted: captures.filter((c) => c.status === "succeeded").reduce((sum, c) => sum + c.costMicros, 0n), charged: check.chargedMicros };
}

describe("check pipeline with real worker processes", () => {
  it("answers 8 prompts x 4 providers on two workers exactly once each, shows progress, and settles the money", { timeout: 90_000 }, async () => {
    const workers = await startWorkers(["w1", "w2"], { BEACON_WORKER_CONCURRENCY: 8, SIMULATOR_LATENCY_MS: "200-600" });
    const budgetBefore = await budgetPeriod(demo.workspaceId);

    const { checkId, replayed } = await startCheck(demo, {
      prompts: { mode: "picked", promptIds: demo.promptIds.slice(0, 8) },
      providers: { names: PROVIDER_NAMES },
      samples: 1,
    });
    expect(replayed).toBe(false);
    const created = await checkRow(checkId);
    expect(created.totalCaptures).toBe(32);
    expect(created.reservedMicros).toBeGreaterThan(0n);
    expect((await budgetPeriod(demo.workspaceId)).reservedMicros - budgetBefore.reservedMicros, "reserved at creation").toBe(created.reservedMicros);

    // What the browser polls: the check's counts while it runs.
    const progress: { status: string; terminal: number; total: number }[] = [];
    const done = await waitFor(
      async () => {
        const c = await checkRow(checkId);
        progress.push({ status: c.status, terminal: c.succeeded + c.failed + c.cancelled, total: c.totalCaptures });
        return isTerminal(c.status) ? c : null;
      },
      { what: "the check to finish", timeoutMs: 45_000, intervalMs: 50, details: workerOutput(...workers) },
    );

    expect(progress.some((p) => p.terminal > 0 && p.terminal < 32 && p.status === "running"), `a snapshot mid-run: ${JSON.stringify(progress)}`).toBe(true);
    const terminalCounts = progress.map((p) => p.terminal);
    expect(terminalCounts, "progress never goes backwards").toEqual([...terminalCounts].sort((a, b) => a - b));

    expect(done.status).toBe("completed");
    expect(done).toMatchObject({ succeeded: 32, failed: 0, cancelled: 0, queued: 0, running: 0 });
    expect(done.finishedAt).not.toBeNull();
    const captures = await expectEachCaptureAnsweredOnce(checkId);
    expect(captures).toHaveLength(32);
    // No error was simulated, so nothing was tried twice.
    expect(captures.every((c) => c.attempts.length === 1 && c.attemptCount === 1)).toBe(true);
    // Both processes took part.
    const byWorker = new Set(captures.map((c) => c.attempts[0]!.workerId));
    expect([...byWorker].sort()).toEqual(workers.map((w) => w.workerId).sort());

    const { accepted, charged } = await expectSettled(checkId);
    expect(charged, "no retries: charged exactly the accepted answers").toBe(accepted);
    const budgetAfter = await budgetPeriod(demo.workspaceId);
    expect(budgetAfter.reservedMicros, "budget period: reservation released").toBe(budgetBefore.reservedMicros);
    expect(budgetAfter.inFlightMicros, "budget period: nothing in flight").toBe(0n);
    expect(budgetAfter.chargedMicros - budgetBefore.chargedMicros, "budget period: charged what the check was charged").toBe(charged);
  });

  it("recovers the captures of a SIGKILLed worker after its lease, and answers each exactly once", { timeout: 90_000 }, async () => {
    const LEASE_S = 5;
    const SWEEP_S = 1;
    const [victim, survivor] = (await startWorkers(["victim", "survivor"], {
      BEACON_WORKER_CONCURRENCY: 4,
      BEACON_WORKER_LEASE_SECONDS: LEASE_S,
      BEACON_SWEEP_INTERVAL_SECONDS: SWEEP_S,
      SIMULATOR_LATENCY_MS: "1500-2500",
    })) as [WorkerProcess, WorkerProcess];
    const budgetBefore = await budgetPeriod(demo.workspaceId);
    const { checkId } = await startCheck(demo, {
      prompts: { mode: "picked", promptIds: demo.promptIds.slice(8, 12) },
      providers: { names: PROVIDER_NAMES },
      samples: 1,
    });

    await waitFor(() => db().attempt.count({ where: { workerId: victim.workerId, outcome: null } }).then((n) => n >= 2), {
      what: "the victim to have calls in flight",
      timeoutMs: 15_000,
      details: workerOutput(victim, survivor),
    });
    const killedAt = Date.now();
    await victim.kill();
    // The process is gone. A statement the server was running for it at the kill still commits (a
    // claim or a result is one statement, committed on its own: the server notices the client's
    // death only when it answers), so look once its sessions have ended (lib/db/prisma.ts names
    // them after the process): whatever it had in flight then stays open until the sweeper recovers it.
    await waitFor(() => db().$queryRaw<{ n: number }[]>`SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = ${sessionName(victim.pid)}`.then(([row]) => row!.n === 0), {
      what: "the killed worker's database sessions to end",
      timeoutMs: 10_000,
    });
    const sessionsEndedAt = Date.now();
    const inFlight = await db().attempt.findMany({ where: { workerId: victim.workerId, outcome: null } });
    expect(inFlight.length).toBeGreaterThan(0);
    const tokens = inFlight.map((a) => a.runToken);

    await waitFor(() => db().attempt.count({ where: { runToken: { in: tokens }, outcome: null } }).then((n) => n === 0), {
      what: "the sweeper to recover the killed worker's attempts",
      timeoutMs: 30_000,
      details: workerOutput(survivor),
    });
    const recoveryMs = Date.now() - killedAt;
    // The lease runs out at most LEASE_S after the last heartbeat, and a sweep follows within SWEEP_S.
    expect(recoveryMs).toBeLessThan((LEASE_S + SWEEP_S) * 1000 + 4_000);

    const recovered = await db().attempt.findMany({ where: { runToken: { in: tokens } } });
    for (const attempt of recovered) {
      expect(attempt, `attempt ${attempt.runToken}`).toMatchObject({ outcome: "unknown", reason: "lease_expired", errorClass: "unknown", costIsEstimate: true });
      expect(attempt.costMicros).toBeGreaterThan(0n);
      expect(attempt.endedAt!.getTime() - killedAt).toBeLessThan((LEASE_S + SWEEP_S) * 1000 + 4_000);
    }
    const leaseEvents = (await eventsOf(checkId)).filter((e) => e.kind === "lease_expired");
    expect(leaseEvents.map((e) => e.captureId).sort()).toEqual(inFlight.map((a) => a.captureId).sort());
    const heartbeat = await db().workerHeartbeat.findUniqueOrThrow({ where: { workerId: victim.workerId } });
    expect(heartbeat.status).toBe("expired");
    expect(heartbeat.expiredAt).not.toBeNull();

    const done = await waitForFinish(checkId, 45_000, [survivor]);
    expect(done.status).toBe("completed");
    const captures = await expectEachCaptureAnsweredOnce(checkId);
    expect(captures).toHaveLength(16);
    for (const capture of captures) {
      const lost = capture.attempts.filter((a) => tokens.includes(a.runToken));
      // A recovered capture: the lost attempt, then one more that succeeded on the survivor.
      expect(capture.attempts, `capture ${capture.id}`).toHaveLength(lost.length + 1);
      if (lost.length) expect(capture.attempts.at(-1)!.workerId).toBe(survivor.workerId);
    }
    const victimAttempts = await db().attempt.findMany({ where: { workerId: victim.workerId } });
    expect(victimAttempts.every((a) => a.startedAt.getTime() <= sessionsEndedAt), "no attempt by the killed worker after its sessions ended").toBe(true);

    const { charged } = await expectSettled(checkId);
    const budgetAfter = await budgetPeriod(demo.workspaceId);
    expect(budgetAfter.reservedMicros).toBe(budgetBefore.reservedMicros);
    expect(budgetAfter.inFlightMicros).toBe(0n);
    expect(budgetAfter.chargedMicros - budgetBefore.chargedMicros).toBe(charged);
  });

  it("creates one check for 20 concurrent submissions with one key, and refuses the key with another body (422)", async () => {
    const body: CheckBody = { prompts: { mode: "picked", promptIds: demo.promptIds.slice(0, 3) }, providers: { names: ["ChatGPT", "Claude"] }, samples: 2 };
    const key = newIdempotencyKey();
    const counts = async () => {
      const [checks, captures, created, jobs] = await Promise.all([
        db().check.count({ where: { workspaceId: demo.workspaceId } }),
        db().capture.count({ where: { workspaceId: demo.workspaceId } }),
        db().event.count({ where: { workspaceId: demo.workspaceId, kind: "check_created" } }),
        db().$queryRaw<{ n: bigint }[]>`SELECT count(*) AS n FROM graphile_worker.jobs WHERE task_identifier = 'capture'`.then((r) => Number(r[0]!.n)),
      ]);
      return { checks, captures, created, jobs, budget: await budgetPeriod(demo.workspaceId) };
    };
    const before = await counts();

    const results = await Promise.all(Array.from({ length: 20 }, () => startCheck(demo, body, key)));
    const checkIds = new Set(results.map((r) => r.checkId));
    expect(checkIds.size).toBe(1);
    expect(results.filter((r) => !r.replayed)).toHaveLength(1);
    const checkId = results[0]!.checkId;

    const after = await counts();
    const check = await checkRow(checkId);
    expect(await db().check.count({ where: { workspaceId: demo.workspaceId, idempotencyKey: key } })).toBe(1);
    expect(after.checks - before.checks).toBe(1);
    expect(check.totalCaptures).toBe(12);
    expect(after.captures - before.captures).toBe(12);
    expect(await db().capture.count({ where: { checkId } })).toBe(12);
    expect(after.created - before.created).toBe(1);
    expect(after.jobs - before.jobs, "one job per capture").toBe(12);
    expect(check.reservedMicros).toBeGreaterThan(0n);
    expect(after.budget.reservedMicros - before.budget.reservedMicros, "reserved once").toBe(check.reservedMicros);

    // The same body with its keys in another order is the same request.
    const reordered = await startCheck(demo, { samples: 2, providers: { names: ["ChatGPT", "Claude"] }, prompts: body.prompts }, key);
    expect(reordered).toEqual({ checkId, replayed: true });

    const mismatch = startCheck(demo, { ...body, samples: 1 }, key);
    await expect(mismatch).rejects.toBeInstanceOf(IdempotencyMismatchError);
    await expect(mismatch).rejects.toMatchObject({ status: 422, code: "idempotency_key_reused", message: expect.stringMatching(/different request/) });
    expect(await counts()).toEqual(after);

    // Leave nothing queued for the tests after this one; cancelling a queued check releases its reservation.
    expect(await cancelCheckNow(demo.owner, checkId)).toEqual({ cancelledNow: 12, aborting: 0 });
    const cancelled = await checkRow(checkId);
    expect(cancelled).toMatchObject({ status: "cancelled", cancelled: 12, reservedMicros: 0n, chargedMicros: 0n });
    expect((await budgetPeriod(demo.workspaceId)).reservedMicros).toBe(before.budget.reservedMicros);
  });

  it("cancels a running check: calls in flight aborted by it, partial answers kept, queued captures cancelled at once", { timeout: 60_000 }, async () => {
    // Every call streams a third of its answer and then hangs (SIMULATOR_TIMEOUT_RATE, far
    // inside the connection's 120 s timeout): only the cancel can end it, however loaded the machine.
    const worker = await startWorker("canceller", { BEACON_WORKER_CONCURRENCY: 4, SIMULATOR_LATENCY_MS: "1000-1500", SIMULATOR_TIMEOUT_RATE: 1 });
    const budgetBefore = await budgetPeriod(demo.workspaceId);
    const { checkId } = await startCheck(demo, {
      prompts: { mode: "picked", promptIds: demo.promptIds.slice(0, 3) },
      providers: { names: PROVIDER_NAMES },
      samples: 1,
    });

    // Four calls streaming (the worker's four slots), at least one partial answer saved, eight waiting.
    await waitFor(
      async () => {
        const running = await db().capture.findMany({ where: { checkId, status: "running" }, select: { answerText: true } });
        return running.length === 4 && running.some((c) => c.answerText);
      },
      { what: "four captures running with a partial answer", timeoutMs: 20_000, details: workerOutput(worker) },
    );
    const inFlight = await db().attempt.findMany({ where: { capture: { checkId }, outcome: null } });
    const inFlightCaptures = new Set(inFlight.map((a) => a.captureId));
    expect(inFlight).toHaveLength(4);

    const cancelledAt = Date.now();
    const result = await cancelCheckNow(demo.owner, checkId);
    expect(result).toEqual({ cancelledNow: 8, aborting: 4 });

    // The waiting captures are cancelled by the request itself, without an attempt.
    const rightAfter = await capturesOf(checkId);
    for (const capture of rightAfter.filter((c) => !inFlightCaptures.has(c.id))) {
      expect(capture, `waiting capture ${capture.id}`).toMatchObject({ status: "cancelled", attemptCount: 0 });
      expect(capture.attempts).toHaveLength(0);
      expect(capture.finishedAt).not.toBeNull();
    }

    const done = await waitForFinish(checkId, 10_000, [worker]);
    expect(done).toMatchObject({ status: "cancelled", cancelled: 12, succeeded: 0 });

    const attempts = await attemptsOf(checkId);
    expect(attempts.map((a) => a.runToken).sort(), "no attempt started after the cancel").toEqual(inFlight.map((a) => a.runToken).sort());
    for (const attempt of attempts) {
      expect(attempt, `attempt ${attempt.runToken}`).toMatchObject({ outcome: "cancelled", reason: "cancelled_by_user", costIsEstimate: true });
      expect(attempt.startedAt.getTime()).toBeLessThanOrEqual(cancelledAt);
    }
    console.log(`cancel: in-flight attempts ended ${attempts.map((a) => a.endedAt!.getTime() - cancelledAt).join(", ")} ms after cancelCheck`);

    const captures = await capturesOf(checkId);
    const aborted = captures.filter((c) => inFlightCaptures.has(c.id));
    for (const capture of aborted) {
      expect(capture.status).toBe("cancelled");
      if (capture.answerText) expect(capture.answerIsPartial, `capture ${capture.id} keeps a partial answer`).toBe(true);
    }
    expect(aborted.some((c) => c.answerIsPartial && (c.answerText?.length ?? 0) > 0), "at least one partial answer kept").toBe(true);

    const events = await eventsOf(checkId);
    const kinds = (kind: string) => events.filter((e) => e.kind === kind);
    expect(kinds("check_cancelled")).toHaveLength(1);
    expect(kinds("capture_cancelled").map((e) => e.captureId).sort()).toEqual(captures.map((c) => c.id).sort());
    expect(kinds("attempt_aborted").map((e) => e.captureId).sort()).toEqual([...inFlightCaptures].sort());

    const { accepted, charged } = await expectSettled(checkId);
    expect(accepted).toBe(0n);
    const budgetAfter = await budgetPeriod(demo.workspaceId);
    expect(budgetAfter.reservedMicros, "reservation released").toBe(budgetBefore.reservedMicros);
    // The aborted calls may have been billed: each is charged its estimate.
    expect(budgetAfter.chargedMicros - budgetBefore.chargedMicros).toBe(charged);
  });

  it("retries transient errors up to maxAttempts with bounded backoff, fails permanent ones at once, and lets an admin (not a member) retry them", { timeout: 120_000 }, async () => {
    const BASE_MS = 50;
    const RETRY_AFTER_MS = 1_000; // what the simulator's 429 sends
    const budgetBefore = await budgetPeriod(demo.workspaceId);

    // The providers' own settings decide the errors (no SIMULATOR_* rate overrides): two answer
    // every call with 429 or 503, two with 400. This test is about retries, so an admin holds
    // the failing providers' breakers closed (open, they would postpone the captures instead).
    for (const name of ["ChatGPT", "Perplexity"] as const) {
      await setSimulator(demo, name, { errorRate: 1, permanentErrorRate: 0, timeoutRate: 0 });
      expect(await forceBreaker({ connectionId: demo.providers[name].connectionId, model: demo.providers[name].model }, "closed")).toBe(true);
    }
    for (const name of ["Gemini", "Claude"] as const) await setSimulator(demo, name, { errorRate: 0, permanentErrorRate: 1, timeoutRate: 0 });
    const worker = await startWorker("retries", {
      BEACON_WORKER_CONCURRENCY: 8,
      BEACON_RETRY_BASE_MS: BASE_MS,
      SIMULATOR_LATENCY_MS: "20-50",
      SIMULATOR_ERROR_RATE: null,
      SIMULATOR_PERMANENT_ERROR_RATE: null,
      SIMULATOR_TIMEOUT_RATE: null,
    });
    const transientCheck = await startCheck(demo, { prompts: { mode: "picked", promptIds: demo.promptIds.slice(3, 7) }, providers: { names: ["ChatGPT", "Perplexity"] }, samples: 1 });
    const permanentCheck = await startCheck(demo, { prompts: { mode: "picked", promptIds: demo.promptIds.slice(3, 5) }, providers: { names: ["Gemini", "Claude"] }, samples: 1 });
    const checkIds = [transientCheck.checkId, permanentCheck.checkId];
    const sampler = sample(() =>
      db().capture.findMany({ where: { checkId: { in: checkIds }, status: "retry_wait" }, select: { id: true, checkId: true, attemptCount: true, nextAttemptAt: true } }),
    );
    const permanentDone = await waitForFinish(permanentCheck.checkId, 30_000);
    const transientDone = await waitForFinish(transientCheck.checkId, 60_000);
    const waits = (await sampler.stop()).flat();

    // Transient: retried with backoff until maxAttempts (3) is spent, then failed with the reason.
    expect(transientDone).toMatchObject({ status: "failed", failed: 8 });
    const transientCaptures = await capturesOf(transientCheck.checkId);
    for (const capture of transientCaptures) {
      const label = `capture ${capture.id}`;
      expect(capture, label).toMatchObject({ status: "failed", attemptCount: 3, lastErrorClass: "transient" });
      expect(capture.lastError, label).toMatch(/^Simulated (rate limit \(429\)|overload \(503\)) \(gave up after 3 attempts\)$/);
      expect(capture.attempts.map((a) => a.number), label).toEqual([1, 2, 3]);
      for (const attempt of capture.attempts) {
        expect(attempt, label).toMatchObject({ outcome: "failed", errorClass: "transient", costMicros: 0n, costIsEstimate: false });
        expect([["rate_limited", 429], ["server_error", 503]]).toContainEqual([attempt.reason, attempt.httpStatus]);
      }
      for (let n = 1; n < capture.attempts.length; n++) {
        const previous = capture.attempts[n - 1]!;
        const next = capture.attempts[n]!;
        // Never sooner than Retry-After (the retry is scheduled after the failed call began)...
        if (previous.httpStatus === 429) {
          expect(next.startedAt.getTime() - previous.startedAt.getTime(), `${label}: attempt ${n + 1} after a 429`).toBeGreaterThanOrEqual(RETRY_AFTER_MS);
        }
        // ...and not long after the backoff allows: graphile-worker finds a job due in the future by polling every 2 s.
        const ceiling = Math.max(previous.httpStatus === 429 ? RETRY_AFTER_MS : 0, BASE_MS * 2 ** (n - 1));
        expect(next.startedAt.getTime() - previous.endedAt!.getTime(), `${label}: gap after attempt ${n}`).toBeLessThan(ceiling + 5_000);
      }
    }
    // In between, the capture waited in retry_wait, due no later than the backoff ceiling allows
    // (full jitter below base * 2^(n-1), or exactly Retry-After).
    const transientWaits = waits.filter((w) => w.checkId === transientCheck.checkId);
    expect(transientWaits.length, "retry_wait observed").toBeGreaterThan(0);
    for (const wait of transientWaits) {
      const failed = transientCaptures.find((c) => c.id === wait.id)!.attempts[wait.attemptCount - 1]!;
      const label = `retry_wait of ${wait.id} after attempt ${wait.attemptCount} (${failed.httpStatus})`;
      const due = wait.nextAttemptAt!.getTime();
      expect(wait.attemptCount, label).toBeLessThan(3);
      expect(due - failed.endedAt!.getTime(), label).toBeLessThanOrEqual(failed.httpStatus === 429 ? RETRY_AFTER_MS : BASE_MS * 2 ** (wait.attemptCount - 1));
      if (failed.httpStatus === 429) expect(due - failed.startedAt.getTime(), label).toBeGreaterThanOrEqual(RETRY_AFTER_MS);
    }

    // Permanent: one attempt, failed at once with the provider's reason, never in retry_wait.
    expect(permanentDone).toMatchObject({ status: "failed", failed: 4 });
    expect(waits.filter((w) => w.checkId === permanentCheck.checkId)).toEqual([]);
    for (const capture of await capturesOf(permanentCheck.checkId)) {
      expect(capture).toMatchObject({ status: "failed", attemptCount: 1, lastErrorClass: "permanent", lastError: "Simulated invalid request (400)" });
      expect(capture.attempts).toHaveLength(1);
      expect(capture.attempts[0]).toMatchObject({ outcome: "failed", errorClass: "permanent", reason: "invalid_request", httpStatus: 400, costMicros: 0n });
    }
    for (const checkId of checkIds) expect((await expectSettled(checkId)).accepted).toBe(0n);
    expect((await budgetPeriod(demo.workspaceId)).reservedMicros, "failed checks release their reservation").toBe(budgetBefore.reservedMicros);

    // A member or viewer may not retry; nothing changes.
    const snapshot = async () => ({
      captures: await db().capture.findMany({ where: { checkId: { in: checkIds } }, orderBy: { id: "asc" } }),
      retried: await db().event.count({ where: { kind: "capture_retried", checkId: { in: checkIds } } }),
      budget: await budgetPeriod(demo.workspaceId),
    });
    const beforeRefusals = await snapshot();
    for (const caller of [demo.member, demo.viewer]) {
      await expect(retryCaptures(caller, { checkId: transientCheck.checkId })).rejects.toBeInstanceOf(ForbiddenError);
      await expect(retryCaptures(caller, { captureId: beforeRefusals.captures[0]!.id })).rejects.toMatchObject({ status: 403 });
    }
    expect(await snapshot()).toEqual(beforeRefusals);
    expect(beforeRefusals.retried).toBe(0);

    // The providers are healthy again; an admin retries both checks and they succeed. (The
    // providers take no calls until the retried state has been looked at.)
    for (const name of PROVIDER_NAMES) await setSimulator(demo, name, { errorRate: 0, permanentErrorRate: 0 });
    await db().providerConnection.updateMany({ where: { id: { in: PROVIDER_NAMES.map((n) => demo.providers[n].connectionId) } }, data: { maxConcurrency: 0 } });
    expect(await retryCaptures(demo.admin, { checkId: transientCheck.checkId })).toEqual({ retried: 8, refused: [] });
    expect(await retryCaptures(demo.admin, { checkId: permanentCheck.checkId })).toEqual({ retried: 4, refused: [] });
    let reserved = 0n;
    for (const checkId of checkIds) {
      const check = await checkRow(checkId);
      expect(check).toMatchObject({ status: "queued", finishedAt: null });
      expect(check.reservedMicros, "a retry reserves its estimate again").toBeGreaterThan(0n);
      reserved += check.reservedMicros;
      const captures = await db().capture.findMany({ where: { checkId } });
      // Waiting to run: queued, or (once a worker found no free slot) postponed until one frees.
      const waiting = (c: (typeof captures)[number]) => c.status === "queued" || (c.status === "postponed" && c.waitingFor === "slot");
      expect(captures.every((c) => waiting(c) && c.maxAttempts === c.attemptCount + 3 && c.lastError === null)).toBe(true);
    }
    expect((await budgetPeriod(demo.workspaceId)).reservedMicros - budgetBefore.reservedMicros).toBe(reserved);
    await db().providerConnection.updateMany({ where: { id: { in: PROVIDER_NAMES.map((n) => demo.providers[n].connectionId) } }, data: { maxConcurrency: 4 } });
    for (const [checkId, failedBefore] of [
      [transientCheck.checkId, 3],
      [permanentCheck.checkId, 1],
    ] as const) {
      const done = await waitForFinish(checkId, 30_000, [worker]);
      expect(done.status).toBe("completed");
      const captures = await expectEachCaptureAnsweredOnce(checkId);
      for (const capture of captures) {
        expect(capture.attempts.map((a) => a.outcome)).toEqual([...Array<string>(failedBefore).fill("failed"), "succeeded"]);
        expect(capture.lastError).toBeNull();
      }
      expect((await eventsOf(checkId)).filter((e) => e.kind === "capture_retried")).toHaveLength(captures.length);
      await expectSettled(checkId);
    }
    expect((await budgetPeriod(demo.workspaceId)).reservedMicros).toBe(budgetBefore.reservedMicros);
  });

  it("never runs more calls of a provider at once than its maxConcurrency, across two worker processes", { timeout: 90_000 }, async () => {
    const CAP = 2;
    const gemini = demo.providers.Gemini.connectionId;
    // Which process wins a free slot is a race, and the one that just finished a call usually
    // wins it again. To be sure both processes hold a slot at the same time: while the cap is 1,
    // one worker takes the slot and is frozen mid-call (SIGSTOP, like a long GC pause); the cap
    // goes up to 2 and the other worker, with all its 8 slots free, takes over; then it thaws.
    // Calls long enough for the freeze below to catch one in flight (it tries again if it
    // misses), short enough that the twelve calls two at a time take seconds, not ten.
    await db().providerConnection.update({ where: { id: gemini }, data: { maxConcurrency: 1 } });
    const workers = await startWorkers(["cap-a", "cap-b"], { BEACON_WORKER_CONCURRENCY: 8, SIMULATOR_LATENCY_MS: "600-900" });
    const { checkId } = await startCheck(demo, { prompts: { mode: "all" }, providers: { names: ["Gemini"] }, samples: 1 });
    expect((await checkRow(checkId)).totalCaptures).toBe(12);

    // Live view, as a second line of evidence: running captures and open attempts, all processes.
    const sampler = sample(async () => {
      const [running, open] = await Promise.all([
        db().capture.count({ where: { checkId, status: "running" } }),
        db().attempt.count({ where: { capture: { checkId }, endedAt: null } }),
      ]);
      return { running, open };
    }, 50);
    // The slots that found the provider full bounce off it for a moment (claim: busy, job put
    // back). The holder must not be frozen inside such a claim transaction, which holds the
    // provider's slot lock and would block every process's claims: freeze it, look, and thaw
    // and try again if it was (or if its call ended meanwhile).
    let holder: WorkerProcess | undefined;
    await waitFor(
      async () => {
        const open = await db().attempt.findMany({ where: { capture: { checkId }, outcome: null } });
        const [{ locked }] = await db().$queryRaw<[{ locked: bigint }]>`
          SELECT count(*) AS locked FROM graphile_worker.jobs WHERE task_identifier = 'capture' AND locked_at IS NOT NULL`;
        if (open.length !== 1 || locked !== 1n) return false;
        holder = workers.find((w) => w.workerId === open[0]!.workerId)!;
        holder.pause();
        // Frozen between transactions: no session is idle inside one, no advisory lock is held.
        const [{ inTransaction, advisory }] = await db().$queryRaw<[{ inTransaction: bigint; advisory: bigint }]>`
          SELECT (SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND state LIKE 'idle in transaction%') AS "inTransaction",
                 (SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND granted) AS advisory`;
        const stillOpen = await db().attempt.count({ where: { runToken: open[0]!.runToken, outcome: null } });
        if (inTransaction === 0n && advisory === 0n && stillOpen === 1) return true;
        holder.resume();
        return false;
      },
      { what: "one worker frozen while holding the one call and no lock", timeoutMs: 20_000, intervalMs: 100, details: workerOutput(...workers) },
    );
    const frozen = holder!;
    const other = workers.find((w) => w !== frozen)!;
    await db().providerConnection.update({ where: { id: gemini }, data: { maxConcurrency: CAP } });
    await waitFor(() => db().attempt.count({ where: { workerId: other.workerId, outcome: { not: null } } }).then((n) => n >= 2), {
      what: `${other.name} to finish two calls while ${frozen.name} is frozen`,
      timeoutMs: 20_000,
      details: workerOutput(other),
    });
    frozen.resume();

    const done = await waitForFinish(checkId, 60_000, workers);
    const live = await sampler.stop();
    expect(done.status).toBe("completed");
    await expectEachCaptureAnsweredOnce(checkId);

    const attempts = await attemptsOf(checkId);
    const interval = (a: (typeof attempts)[number]) => ({ start: a.startedAt, end: a.endedAt! });
    const overlap = maxOverlap(attempts.map(interval));
    const crossProcess = attempts.some((a) => attempts.some((b) => a.workerId !== b.workerId && maxOverlap([interval(a), interval(b)]) === 2));
    const perWorker = Object.fromEntries(workers.map((w) => [w.name, attempts.filter((a) => a.workerId === w.workerId).length]));
    console.log(
      `concurrency cap ${CAP}: max overlap of attempt intervals ${overlap}; live max running ${Math.max(...live.map((s) => s.running))}, open ${Math.max(...live.map((s) => s.open))} over ${live.length} samples; attempts per worker ${JSON.stringify(perWorker)}`,
    );
    expect(crossProcess, "calls of the provider ran in both processes at once").toBe(true);
    expect(overlap, "attempts of the provider in flight at one instant").toBeLessThanOrEqual(CAP);
    expect(overlap, "the cap is used, not undershot").toBe(CAP);
    expect(Math.max(...live.map((s) => Math.max(s.running, s.open)))).toBeLessThanOrEqual(CAP);
  });

  it("drains on SIGTERM: calls still running after the grace period are recorded as cancelled (shutdown) and finish on another worker", { timeout: 90_000 }, async () => {
    const GRACE_S = 1;
    // Calls that hang (SIMULATOR_TIMEOUT_RATE) after a first token later than the test: only the drain ends them.
    const draining = await startWorker("draining", {
      BEACON_WORKER_CONCURRENCY: 4,
      BEACON_WORKER_SHUTDOWN_GRACE_SECONDS: GRACE_S,
      SIMULATOR_LATENCY_MS: "20000-25000",
      SIMULATOR_TIMEOUT_RATE: 1,
    });
    const budgetBefore = await budgetPeriod(demo.workspaceId);
    const { checkId } = await startCheck(demo, {
      prompts: { mode: "picked", promptIds: demo.promptIds.slice(6, 10) },
      providers: { names: ["ChatGPT", "Claude"] },
      samples: 1,
    });
    // The other worker boots while the draining one fills its four slots (it takes seconds to boot).
    const otherStarting = startWorker("other", { BEACON_WORKER_CONCURRENCY: 4, SIMULATOR_LATENCY_MS: "100-300" });
    otherStarting.catch(() => {}); // awaited below; a failed start must not also surface as unhandled
    await waitFor(() => db().attempt.count({ where: { workerId: draining.workerId, outcome: null } }).then((n) => n === 4), {
      what: "the draining worker's four slots to be busy",
      timeoutMs: 15_000,
      details: workerOutput(draining),
    });
    const other = await otherStarting;

    const inFlight = await db().attempt.findMany({ where: { workerId: draining.workerId, outcome: null } });
    expect(inFlight).toHaveLength(4);
    const termAt = Date.now();
    const exit = await draining.terminate(30_000);
    const exitMs = Date.now() - termAt;
    expect(exit, workerOutput(draining)()).toEqual({ code: 0, signal: null });
    await draining.waitForLine(/SIGTERM received/, 0);

    const drained = await db().attempt.findMany({ where: { runToken: { in: inFlight.map((a) => a.runToken) } } });
    for (const attempt of drained) {
      expect(attempt, `attempt ${attempt.runToken}`).toMatchObject({ outcome: "cancelled", reason: "shutdown", costIsEstimate: true });
      const endedMs = attempt.endedAt!.getTime() - termAt;
      // Running calls get the grace period to finish, then are aborted (by the drain: they would
      // never end on their own).
      expect(endedMs, `attempt ended ${endedMs} ms after SIGTERM`).toBeGreaterThanOrEqual(GRACE_S * 1000 - 100);
    }
    console.log(`SIGTERM drain: worker exited ${exitMs} ms after SIGTERM; attempts ended ${drained.map((a) => a.endedAt!.getTime() - termAt).join(", ")} ms after it`);
    const drainingAttempts = await db().attempt.findMany({ where: { workerId: draining.workerId } });
    expect(drainingAttempts.every((a) => a.startedAt.getTime() <= termAt), "no attempt started while draining").toBe(true);

    const heartbeat = await db().workerHeartbeat.findUniqueOrThrow({ where: { workerId: draining.workerId } });
    expect(heartbeat.status).toBe("stopped");
    expect(heartbeat.stoppedAt).not.toBeNull();
    expect(heartbeat.expiredAt).toBeNull();

    const done = await waitForFinish(checkId, 30_000, [other]);
    expect(done.status).toBe("completed");
    const captures = await expectEachCaptureAnsweredOnce(checkId);
    for (const capture of captures.filter((c) => inFlight.some((a) => a.captureId === c.id))) {
      expect(capture.attempts.map((a) => [a.outcome, a.workerId])).toEqual([
        ["cancelled", draining.workerId],
        ["succeeded", other.workerId],
      ]);
    }
    const { charged } = await expectSettled(checkId);
    const budgetAfter = await budgetPeriod(demo.workspaceId);
    expect(budgetAfter.reservedMicros).toBe(budgetBefore.reservedMicros);
    expect(budgetAfter.inFlightMicros).toBe(0n);
    expect(budgetAfter.chargedMicros - budgetBefore.chargedMicros).toBe(charged);
  });
});
