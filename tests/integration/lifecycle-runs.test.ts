// A worker's run of a capture (lib/lifecycle/run/run-capture.ts) in this process, against the file's
// real database and real HTTP where a provider's server is needed: the budget as a hard cap,
// results that cannot be written, the breaker probe's own timeout, Retry-After counted from the
// response. Plus a property test of the budget over random schedules of transitions.
import { randomUUID } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  budgetNow,
  captureRow,
  claim,
  expectBudgetConsistent,
  inProcessRunner,
  liveWorker,
  newSpace,
  repairsIn,
  type Space,
  startSpaceCheck,
  succeed,
} from "../support/lifecycle-fixtures";
import { OPENAI_ANSWER } from "../support/fake-providers/openai-server";
import { metricValue, parseMetrics } from "../support/metrics-text";
import { actAt } from "../support/pause";
import { ANALYSIS_MAX_CHARS } from "@/lib/analysis/analyze";
import { costsDashboard } from "@/lib/analytics/costs";
import { resolveFilter } from "@/lib/analytics/filter";
import { overviewKpis } from "@/lib/analytics/kpis";
import { analyticsFilterInput, startOfUtcDay } from "@/lib/analytics/schemas";
import { unknownOutcomeCost, worstCaseCost } from "@/lib/billing/money";
import { failCapture } from "@/lib/lifecycle/results";
import { runCapture, type RunOutcome } from "@/lib/lifecycle/run/run-capture";
import { retryCaptures } from "@/lib/checks/cancel-retry";
import { checkTally } from "@/lib/captures/check-counts";
import { reloadEnv } from "@/lib/config/env";
import { getCaptureDetail } from "@/lib/checks/queries";
import { db } from "@/lib/db/prisma";
import type { Prisma } from "@/lib/generated/prisma/client";
import { beat } from "@/lib/jobs/heartbeats";
import { collectMetrics } from "@/lib/metrics/collect";
import { sweepDeadWorkers } from "@/lib/worker/sweeper";
import { updateWorkspaceSettings } from "@/lib/workspaces/settings";
import { cancelCheckNow } from "../support/check-fixtures";

// Before anything reads env(): a short deadline for results that cannot be written, and the
// OpenAI adapter talks to the local server.
process.env.BEACON_RESULT_WRITE_TIMEOUT_SECONDS = "5";
process.env.OPENAI_API_KEY = "sk-test-lifecycle";
const shutdown = new AbortController().signal;
const runner = inProcessRunner();
const { run } = runner;

/** Changes the connection of the space's provider `name` (its own, see newSpace). */
async function setConnection(space: Space, name: string, data: Prisma.ProviderConnectionUpdateInput) {
  await db().providerConnection.update({ where: { id: space.connections[name]! }, data });
}

describe("the budget is a hard cap (defect 7)", () => {
  it("a check held at exactly the budget is charged no more than the budget; the rest waits for budget until it is raised", async () => {
    const space = await newSpace({ prompts: 6 });
    // Find what six captures hold, then make that the budget: admission lets the check in exactly.
    const probe = await startSpaceCheck(space, { prompts: 6 });
    const held = (await budgetNow(space.workspaceId)).reserved;
    await cancelCheckNow(space.owner, probe.checkId);
    await db().workspace.update({ where: { id: space.workspaceId }, data: { monthlyBudgetMicros: held } });
    const { checkId, captureIds } = await startSpaceCheck(space, { prompts: 6 });
    expect((await budgetNow(space.workspaceId)).reserved).toBe(held);

    const outcomes = new Map<string, RunOutcome>();
    for (const id of captureIds) outcomes.set(id, await run(id));
    const charged = (await budgetNow(space.workspaceId)).charged;
    expect(charged, "charged within the budget").toBeLessThanOrEqual(held);
    const waiting = captureIds.filter((id) => outcomes.get(id) === "waiting_for_budget");
    expect(waiting.length, `some captures wait: ${JSON.stringify([...outcomes.values()])}`).toBeGreaterThan(0);
    for (const id of waiting) expect(await captureRow(id)).toMatchObject({ status: "postponed", waitingFor: "budget", attemptCount: 0 });
    // Each waits because its worst case does not fit next to what was charged.
    const capture = await db().capture.findFirstOrThrow({ where: { id: waiting[0] }, include: { prompt: true, connection: true } });
    const worst = worstCaseCost(capture.prompt.text, capture.searchMode, capture.connection, capture.connection);
    expect(charged + BigInt(worst)).toBeGreaterThan(held);
    expect((await db().check.findUniqueOrThrow({ where: { id: checkId } })).status).toBe("running");
    await expectBudgetConsistent(space.workspaceId);

    // Raising the budget wakes them at once (their jobs are due now), and they finish.
    await updateWorkspaceSettings(space.workspaceId, { name: "Lifecycle", monthlyBudgetMicros: Number(held) * 10 });
    const [{ due }] = (await db().$queryRaw<{ due: number }[]>`
      SELECT count(*)::int AS due FROM graphile_worker.jobs WHERE key = ANY(${waiting.map((id) => `capture:${id}`)}) AND run_at <= now()`) as [{ due: number }];
    expect(due).toBe(waiting.length);
    for (const id of waiting) expect(await run(id)).toBe("succeeded");
    expect((await db().check.findUniqueOrThrow({ where: { id: checkId } })).status).toBe("completed");
    expect((await checkTally(checkId)).reservedMicros, "nothing held for the check").toBe(0n);
    const after = await budgetNow(space.workspaceId);
    expect(after).toMatchObject({ reserved: 0n, inFlight: 0n });
    await expectBudgetConsistent(space.workspaceId);

    // The costs dashboard and the budget agree to the micro-dollar.
    const brand = await db().brand.findFirstOrThrow({ where: { workspaceId: space.workspaceId } });
    const dashboard = await costsDashboard({
      // Whole UTC days, as every dashboard filter (the accepted captures come from daily rollups).
      filter: { workspaceId: space.workspaceId, brandId: brand.id, from: startOfUtcDay(new Date(Date.now() - 86_400_000)), to: startOfUtcDay(new Date(Date.now() + 2 * 86_400_000)) },
      brand: { id: brand.id, name: brand.name, competitors: [] },
      providers: Object.entries(space.providers).map(([name, id]) => ({ id, name })),
    });
    expect(BigInt(dashboard.totals.spentMicros)).toBe(after.charged);
    expect(BigInt(dashboard.budget.chargedMicros)).toBe(after.charged);
  });

  it("charges a call that timed out (outcome unknown) its estimate, never more than its reserved worst case", async () => {
    const space = await newSpace();
    await setConnection(space, "ChatGPT", { timeoutMs: 300, unknownRetries: 0, settings: { style: "chatgpt", latencyMinMs: 0, latencyMaxMs: 0, timeoutRate: 1 } });
    const { captureIds } = await startSpaceCheck(space);
    expect(await run(captureIds[0]!)).toBe("failed");
    const capture = await db().capture.findUniqueOrThrow({ where: { id: captureIds[0] }, include: { attempts: true, prompt: true, connection: true } });
    const estimate = unknownOutcomeCost(capture.prompt.text, capture.searchMode, capture.connection, capture.connection);
    expect(capture.attempts[0]).toMatchObject({ outcome: "unknown", reason: "timeout", costIsEstimate: true, costMicros: BigInt(estimate) });
    expect(estimate).toBeGreaterThan(0);
    expect((await budgetNow(space.workspaceId)).charged).toBe(BigInt(estimate));
    await expectBudgetConsistent(space.workspaceId);
    // When the worker saw the timeout due: at least the timeout after the call began, before the attempt ended.
    const [event] = await db().event.findMany({ where: { captureId: capture.id, kind: "attempt_timed_out" } });
    const noticedAt = Date.parse((event?.data as { noticedAt: string } | undefined)?.noticedAt ?? "");
    expect(noticedAt).toBeGreaterThanOrEqual(capture.attempts[0]!.startedAt.getTime() + 300);
    expect(noticedAt).toBeLessThanOrEqual(capture.attempts[0]!.endedAt!.getTime());
  });
});

describe("the breaker's count of a success", () => {
  it("is written by the result's statement, once per call; slow successes counted as failures open the breaker at its threshold", async () => {
    const space = await newSpace({ prompts: 5 });
    const connectionId = space.connections.ChatGPT!;
    const { captureIds } = await startSpaceCheck(space, { prompts: 5 });
    const breaker = async () =>
      db().breakerState.findFirst({ where: { connectionId }, select: { status: true, successCount: true, failureCount: true, slowCallCount: true, recentFailures: true } });

    // Ordinary successes: each counted once (the first creates the breaker's row on the locked path).
    expect(await run(captureIds[0]!)).toBe("succeeded");
    expect(await run(captureIds[1]!)).toBe("succeeded");
    expect(await breaker()).toMatchObject({ status: "closed", successCount: 2n, failureCount: 0n, slowCallCount: 0n, recentFailures: [false, false] });

    // Every call is now slow, and slow counts as failing: at 3 calls of which 60 % failed, it opens.
    // (The simulated call takes 5 ms, so that every call is slower than 0 ms.)
    await setConnection(space, "ChatGPT", {
      breakerSlowCallMs: 0,
      breakerSlowCallIsFailure: true,
      breakerMinCalls: 3,
      breakerFailureRatePct: 60,
      breakerWindowSize: 3,
      settings: { style: "chatgpt", latencyMinMs: 5, latencyMaxMs: 5 },
    });
    expect(await run(captureIds[2]!)).toBe("succeeded");
    expect(await breaker()).toMatchObject({ status: "closed", successCount: 2n, failureCount: 1n, slowCallCount: 1n, recentFailures: [false, false, true] });
    expect(await run(captureIds[3]!)).toBe("succeeded");
    expect(await breaker()).toMatchObject({ status: "open", failureCount: 2n, slowCallCount: 2n });
    // The answers were kept: the breaker counts calls, it does not undo results.
    expect((await captureRow(captureIds[3]!)).status).toBe("succeeded");
  });
});

describe("an engine that shows no answer (issue 11)", () => {
  it("is a result: the capture succeeds without an answer, is charged its search, and counts in visibility as an answer naming no one", async () => {
    const space = await newSpace({ prompts: 2 });
    const { checkId, captureIds } = await startSpaceCheck(space, { prompts: 2 });
    // The first answers as usual; then the engine shows nothing (as Google shows no AI Overview).
    expect(await run(captureIds[0]!)).toBe("succeeded");
    await setConnection(space, "ChatGPT", { settings: { style: "chatgpt", latencyMinMs: 0, latencyMaxMs: 0, noAnswerRate: 1 } });
    expect(await run(captureIds[1]!)).toBe("succeeded");

    const silent = await captureRow(captureIds[1]!);
    expect(silent).toMatchObject({ status: "succeeded", answerText: null, answerIsPartial: false, lastError: null });
    const price = await db().providerConnection.findUniqueOrThrow({ where: { id: space.connections.ChatGPT! }, select: { searchPriceMicros: true } });
    expect(silent.costMicros, "the search was paid for").toBe(BigInt(price.searchPriceMicros));
    expect(silent.attempts.map((a) => a.outcome)).toEqual(["succeeded"]);
    expect(await db().mention.count({ where: { captureId: silent.id, mentioned: true } })).toBe(0);
    expect(await db().citation.count({ where: { captureId: silent.id } })).toBe(0);
    expect((await getCaptureDetail(space.workspaceId, silent.id)).noAnswer).toBe(true);
    expect((await getCaptureDetail(space.workspaceId, captureIds[0]!)).noAnswer).toBe(false);
    expect(await checkTally(checkId)).toMatchObject({ succeeded: 2 });

    // Visibility's denominator has both answers; only the first can name the brand.
    const answered = await captureRow(captureIds[0]!);
    const brandNamed = (await db().mention.count({ where: { captureId: answered.id, mentioned: true, kind: "brand" } })) > 0;
    const resolved = await resolveFilter(space.workspaceId, analyticsFilterInput.parse({}));
    const kpis = await overviewKpis(resolved!.filter);
    expect(kpis.captures).toBe(2);
    expect(kpis.visibility.current.n).toBe(2);
    expect(kpis.visibility.current.value).toBe(brandNamed ? 0.5 : 0);
    await expectBudgetConsistent(space.workspaceId);
  });
});

describe("a result that cannot be written (defect 3)", () => {
  it("is written again after an injected failure: one attempt, one charge, the answer kept", async () => {
    const space = await newSpace();
    const { captureIds } = await startSpaceCheck(space);
    const failures = actAt("succeed:before-commit", () => {
      throw new Error("connection terminated unexpectedly");
    }, 2);
    expect(await run(captureIds[0]!)).toBe("succeeded");
    expect(failures()).toBe(2);
    const capture = await captureRow(captureIds[0]!);
    expect(capture).toMatchObject({ status: "succeeded", answerIsPartial: false });
    expect(capture.answerText?.length).toBeGreaterThan(0);
    expect(capture.attempts).toHaveLength(1);
    await expectBudgetConsistent(space.workspaceId);
  });

  it("is given up after BEACON_RESULT_WRITE_TIMEOUT_SECONDS; the sweeper then takes the run over although the worker lives", async () => {
    const space = await newSpace();
    const { captureIds } = await startSpaceCheck(space);
    const alive = await liveWorker();
    actAt("succeed:before-commit", () => {
      throw new Error("the database is read-only (failover in progress)");
    }, Infinity);
    // Every write fails, so the run is given up at the deadline, whatever its length: the
    // smallest one the setting takes, not the file's 5 s.
    process.env.BEACON_RESULT_WRITE_TIMEOUT_SECONDS = "1";
    reloadEnv();
    let outcome: RunOutcome;
    try {
      outcome = await runCapture(captureIds[0]!, { workerId: alive, shutdownSignal: shutdown });
    } finally {
      process.env.BEACON_RESULT_WRITE_TIMEOUT_SECONDS = "5";
      reloadEnv();
    }
    expect(outcome).toBe("abandoned");
    // The worker's next heartbeat no longer lists the run.
    await beat({ workerId: alive, slotIds: [], hostname: "test-host", pid: 1, concurrency: 4 }, "running", 600);
    expect((await sweepDeadWorkers()).recovered).toBe(1);
    const capture = await captureRow(captureIds[0]!);
    expect(capture.status).toBe("queued");
    expect(capture.attempts[0]).toMatchObject({ outcome: "unknown", reason: "abandoned" });
    expect(await repairsIn(space.workspaceId)).toEqual(["abandoned_attempt"]);
    const metrics = parseMetrics((await collectMetrics()).body);
    expect(metricValue(metrics, "beacon_lifecycle_repairs_total", { kind: "abandoned_attempt" })).toBeGreaterThanOrEqual(1);
    expect(metricValue(metrics, "beacon_lifecycle_repairs_total", { kind: "budget_drift" })).toBe(0);
    await expectBudgetConsistent(space.workspaceId);
  }, 30_000);
});

describe("the half-open probe (defect 8)", () => {
  it("gets the probe timeout, not the call timeout: a hanging probe reopens the breaker in about a second", async () => {
    const space = await newSpace();
    const connectionId = space.connections.ChatGPT!;
    const model = (await db().providerConfig.findUniqueOrThrow({ where: { id: space.providers.ChatGPT! } })).model;
    await setConnection(space, "ChatGPT", { timeoutMs: 120_000, breakerProbeTimeoutMs: 800, settings: { style: "chatgpt", latencyMinMs: 0, latencyMaxMs: 0, timeoutRate: 1 } });
    // The breaker is open and its open period is over: the next call is the probe.
    await db().$executeRaw`
      INSERT INTO breaker_states ("connectionId", model, status, "openedAt", "openUntil", "updatedAt")
      VALUES (${connectionId}::uuid, ${model}, 'open', now() - interval '1 minute', now() AT TIME ZONE 'UTC' - interval '1 second', now())`;
    const { captureIds } = await startSpaceCheck(space);
    const started = Date.now();
    expect(await run(captureIds[0]!)).toBe("retry");
    expect(Date.now() - started, "ended by the probe timeout").toBeLessThan(10_000);
    const capture = await captureRow(captureIds[0]!);
    expect(capture.attempts[0]).toMatchObject({ outcome: "unknown", reason: "timeout" });
    expect(capture.attempts[0]!.latencyMs).toBeGreaterThanOrEqual(800);
    expect(await db().breakerState.findUniqueOrThrow({ where: { connectionId_model: { connectionId, model } } })).toMatchObject({ status: "open", probeToken: null });
  });
});

describe("Retry-After (defect 8)", () => {
  it("counts from when the response arrived, not from when the attempt started", async () => {
    const space = await newSpace();
    // The provider takes 1.5 s to answer 429 with Retry-After: 1.
    await setConnection(space, "OpenAI API", { models: ["fake:slow-rate-limited"] });
    await db().providerConfig.update({ where: { id: space.providers["OpenAI API"]! }, data: { model: "fake:slow-rate-limited" } });
    const { captureIds } = await startSpaceCheck(space, { providers: ["OpenAI API"] });
    expect(await run(captureIds[0]!)).toBe("retry");
    const capture = await captureRow(captureIds[0]!);
    const attempt = capture.attempts[0]!;
    expect(attempt).toMatchObject({ outcome: "failed", reason: "rate_limited", httpStatus: 429 });
    expect(attempt.latencyMs).toBeGreaterThanOrEqual(1_400);
    // The response arrived no earlier than start + latency; the next try is a full Retry-After later.
    const arrivedNoEarlierThan = attempt.startedAt.getTime() + attempt.latencyMs!;
    expect(capture.nextAttemptAt!.getTime() - arrivedNoEarlierThan, "a full Retry-After after the response").toBeGreaterThanOrEqual(1_000 - 2);
  });
});

describe("a Retry-After too long to wait", () => {
  it("fails the capture at once, saying how long the provider asked to wait, and its check ends", async () => {
    const space = await newSpace();
    await setConnection(space, "OpenAI API", { models: ["fake:day-limited"] });
    await db().providerConfig.update({ where: { id: space.providers["OpenAI API"]! }, data: { model: "fake:day-limited" } });
    const { checkId, captureIds } = await startSpaceCheck(space, { providers: ["OpenAI API"] });
    expect(await run(captureIds[0]!)).toBe("failed");
    const capture = await captureRow(captureIds[0]!);
    expect(capture).toMatchObject({ status: "failed", nextAttemptAt: null, lastError: expect.stringMatching(/the provider asked to wait 24 h before trying again; retry the capture then/) });
    expect(capture.attempts).toHaveLength(1);
    expect(capture.attempts[0]).toMatchObject({ outcome: "failed", reason: "rate_limited", httpStatus: 429 });
    expect((await db().check.findUniqueOrThrow({ where: { id: checkId } })).status).not.toBe("running");
  });
});

describe("a hostile answer (issue 9)", () => {
  it("is stored in full; its analysis reads the first 200,000 characters, at once, and the capture says so", async () => {
    const space = await newSpace();
    const { captureIds } = await startSpaceCheck(space, { providers: ["OpenAI API"] });
    // The old analysis took 24 s for 120,000 "!" (blocking the worker); "Acme", the space's brand, comes again past the cap.
    const text = `Acme is a fine CRM. ${"!".repeat(ANALYSIS_MAX_CHARS)} Acme again.`;
    runner.openai.enqueue({ kind: "answer", answer: { ...OPENAI_ANSWER, text, citations: [] } });
    expect(await run(captureIds[0]!)).toBe("succeeded");
    expect(await captureRow(captureIds[0]!)).toMatchObject({ status: "succeeded", answerText: text, analysisTruncated: true });
    expect(await db().mention.findFirst({ where: { captureId: captureIds[0]!, kind: "brand" } })).toMatchObject({ name: "Acme", mentioned: true, count: 1 });
  });
});

describe("the budget over random schedules of transitions (property)", () => {
  type Op =
    | { kind: "claim"; capture: number }
    | { kind: "claimAll" }
    | { kind: "succeed"; run: number; costPct: number }
    | { kind: "fail"; run: number; unknown: boolean }
    | { kind: "cancel" }
    | { kind: "expire"; run: number }
    | { kind: "retry"; capture: number };

  const op: fc.Arbitrary<Op> = fc.oneof(
    fc.record({ kind: fc.constant("claim" as const), capture: fc.nat(5) }),
    fc.constant({ kind: "claimAll" as const }),
    fc.record({ kind: fc.constant("succeed" as const), run: fc.nat(7), costPct: fc.integer({ min: 0, max: 100 }) }),
    fc.record({ kind: fc.constant("fail" as const), run: fc.nat(7), unknown: fc.boolean() }),
    fc.record({ kind: fc.constant("expire" as const), run: fc.nat(7) }),
    fc.record({ kind: fc.constant("retry" as const), capture: fc.nat(5) }),
    fc.constant({ kind: "cancel" as const }),
  );

  it("never lets charged + in flight exceed the budget, and leaves nothing held once everything ended", async () => {
    let runs = 0;
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 20_000, max: 120_000 }), fc.array(op, { minLength: 5, maxLength: 30 }), async (budget, ops) => {
        runs++;
        const space = await newSpace({ prompts: 6 });
        const { checkId, captureIds } = await startSpaceCheck(space, { prompts: 6 });
        // The holds were admitted without a limit; the limit now bounds the calls themselves.
        await db().workspace.update({ where: { id: space.workspaceId }, data: { monthlyBudgetMicros: budget } });
        const workers = [await liveWorker(), await liveWorker()];
        const open: { captureId: string; runToken: string; workerId: string }[] = [];
        // Claims at once too: the reservation is one conditional statement, so it holds under races.
        const claimOne = async (captureId: string) => {
          const w = workers[open.length % 2]!;
          const { runToken, result } = await claim(captureId, w, randomUUID());
          if (result.kind === "claimed") open.push({ captureId, runToken, workerId: w });
        };
        for (const o of ops) {
          if (o.kind === "claim") await claimOne(captureIds[o.capture]!);
          if (o.kind === "claimAll") await Promise.all(captureIds.map((id) => claimOne(id)));
          if (o.kind === "succeed" && open.length) {
            const r = open.splice(o.run % open.length, 1)[0]!;
            const reserved = (await db().attempt.findUniqueOrThrow({ where: { runToken: r.runToken } })).reservedMicros;
            await succeed(r.captureId, r.runToken, Math.floor((Number(reserved) * o.costPct) / 100));
          }
          if (o.kind === "fail" && open.length) {
            const r = open.splice(o.run % open.length, 1)[0]!;
            const reserved = Number((await db().attempt.findUniqueOrThrow({ where: { runToken: r.runToken } })).reservedMicros);
            await failCapture(r.captureId, r.runToken, {
              next: "retry_wait",
              delayMs: 0,
              lastError: "x",
              attempt: { outcome: o.unknown ? "unknown" : "failed", costMicros: o.unknown ? Math.floor(reserved / 3) : 0, costIsEstimate: o.unknown, latencyMs: 1 },
            });
          }
          if (o.kind === "expire" && open.length) {
            const r = open.splice(o.run % open.length, 1)[0]!;
            await db().$executeRaw`UPDATE worker_heartbeats SET "leaseExpiresAt" = now() AT TIME ZONE 'UTC' - interval '1 second' WHERE "workerId" = ${r.workerId}`;
            await sweepDeadWorkers();
            await beat({ workerId: r.workerId, slotIds: [], hostname: "test-host", pid: 1, concurrency: 4 }, "running", 600);
            // The sweep took over every open run of that worker.
            for (let i = open.length - 1; i >= 0; i--) if (open[i]!.workerId === r.workerId) open.splice(i, 1);
          }
          if (o.kind === "cancel") await cancelCheckNow(space.owner, checkId).catch(() => {});
          if (o.kind === "retry") await retryCaptures(space.owner, { captureId: captureIds[o.capture]! }).catch(() => {});
          const now = await budgetNow(space.workspaceId);
          expect(now.charged + now.inFlight, "charged + in flight within the budget").toBeLessThanOrEqual(BigInt(budget));
        }
        // Quiescence: every run still open ends, then the check is cancelled.
        for (const r of open) await succeed(r.captureId, r.runToken, 0);
        await cancelCheckNow(space.owner, checkId).catch(() => {});
        const end = await budgetNow(space.workspaceId);
        expect(end.inFlight).toBe(0n);
        expect(end.reserved).toBe(0n);
        expect(end.charged).toBeLessThanOrEqual(BigInt(budget));
        await expectBudgetConsistent(space.workspaceId);
      }),
      { numRuns: 12, endOnFailure: true },
    );
    expect(runs).toBeGreaterThanOrEqual(12);
  }, 120_000);
});
