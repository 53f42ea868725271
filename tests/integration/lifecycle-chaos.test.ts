// Randomized chaos over the whole pipeline, with real worker processes against a PostgreSQL
// server of this file's own: fast-check draws a schedule of faults (cancels of captures and of
// checks, admin retries, SIGKILLed and SIGSTOPped workers, flaky and hanging providers, database
// restarts, a budget that runs out and is raised), each fired when the checks reach a given share
// of their captures (progress, not wall-clock time, decides when). Then everything is let settle,
// and the invariants the lifecycle promises are checked:
//   every capture final; at most one succeeded attempt per capture, and a succeeded capture's
//   cost is that attempt's; every attempt has an outcome; nothing held or in flight once all
//   checks finished; charged = what the attempts cost (actual + estimates), per month and per
//   check; charged + in flight never above the budget at any sample; the repair pass repairs
//   nothing.
// `npm test` makes BEACON_CHAOS_RUNS runs (default 2); `npm run bench -- --chaos=N` makes more.
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { budgetNow, expectBudgetConsistent, newSpace, repairsIn, startSpaceCheck, type Space } from "../support/lifecycle-fixtures";
import { privatePostgres, type PrivatePostgres } from "../support/restartable-postgres";
import { waitFor } from "../support/wait-for";
import { startWorker, type WorkerProcess } from "../support/worker-process";
import { runRepairPass } from "@/lib/lifecycle/repair";
import { isTerminal } from "@/lib/captures/states";
import { cancelCapture, cancelCheck, retryCaptures } from "@/lib/checks/cancel-retry";
import { db } from "@/lib/db/prisma";

const RUNS = Number(process.env.BEACON_CHAOS_RUNS ?? 2);
const PROVIDERS = ["ChatGPT", "Perplexity", "Gemini", "Claude"] as const;
const CHECKS = 2;
const PROMPTS_PER_CHECK = 5; // x 4 providers = 20 captures a check
const WORKERS = 3;

type Action =
  | { kind: "cancelCapture"; pick: number }
  | { kind: "cancelCheck"; pick: number }
  | { kind: "retry"; pick: number }
  | { kind: "kill"; worker: number }
  | { kind: "freeze"; worker: number }
  | { kind: "thaw" }
  | { kind: "flaky"; provider: number; errorRate: number; timeoutRate: number }
  | { kind: "restartDb"; mode: "fast" | "immediate" }
  | { kind: "raiseBudget" };
type Step = { at: number; action: Action };

const action: fc.Arbitrary<Action> = fc.oneof(
  fc.record({ kind: fc.constant("cancelCapture" as const), pick: fc.nat(1000) }),
  fc.record({ kind: fc.constant("cancelCheck" as const), pick: fc.nat(CHECKS - 1) }),
  fc.record({ kind: fc.constant("retry" as const), pick: fc.nat(1000) }),
  fc.record({ kind: fc.constant("kill" as const), worker: fc.nat(WORKERS - 1) }),
  fc.record({ kind: fc.constant("freeze" as const), worker: fc.nat(WORKERS - 1) }),
  fc.constant({ kind: "thaw" as const }),
  fc.record({ kind: fc.constant("flaky" as const), provider: fc.nat(PROVIDERS.length - 1), errorRate: fc.constantFrom(0, 0.3, 0.6), timeoutRate: fc.constantFrom(0, 0, 0.2) }),
  fc.record({ kind: fc.constant("restartDb" as const), mode: fc.constantFrom("fast" as const, "immediate" as const) }),
  fc.constant({ kind: "raiseBudget" as const }),
);
const schedule: fc.Arbitrary<{ steps: Step[]; budgetFactor: number }> = fc.record({
  // When each fault fires: after this share of all captures has finished.
  steps: fc.array(fc.record({ at: fc.integer({ min: 0, max: 85 }), action }), { minLength: 3, maxLength: 8 }).map((steps) => steps.sort((a, b) => a.at - b.at)),
  // The budget, as a share of what the checks hold when created: below 1 some captures wait for budget.
  budgetFactor: fc.constantFrom(0.6, 1, 3),
});

let server: PrivatePostgres;

beforeAll(async () => {
  server = await privatePostgres();
}, 60_000);

afterAll(async () => {
  await server.dispose();
}, 60_000);

const WORKER_ENV = {
  BEACON_WORKER_CONCURRENCY: 4,
  BEACON_WORKER_LEASE_SECONDS: 5,
  BEACON_SWEEP_INTERVAL_SECONDS: 1,
  BEACON_REPAIR_INTERVAL_SECONDS: 2,
  BEACON_BUDGET_RECHECK_SECONDS: 1,
  BEACON_RETRY_BASE_MS: 50,
  BEACON_WORKER_SHUTDOWN_GRACE_SECONDS: 1,
  SIMULATOR_LATENCY_MS: "100-400",
  // The providers' own settings decide errors and hangs (the chaos changes them).
  SIMULATOR_ERROR_RATE: null,
  SIMULATOR_PERMANENT_ERROR_RATE: null,
  SIMULATOR_TIMEOUT_RATE: null,
};

/** One chaos run: a fresh workspace, its checks, the schedule, then quiescence and the invariants. */
async function chaosRun(run: number, plan: { steps: Step[]; budgetFactor: number }) {
  const log: string[] = [`run ${run}: budget x${plan.budgetFactor}, steps ${JSON.stringify(plan.steps)}`];
  const space: Space = await newSpace({ prompts: PROMPTS_PER_CHECK });
  for (const name of PROVIDERS) {
    await db().providerConnection.update({
      where: { id: space.connections[name]! },
      data: { maxConcurrency: 3, timeoutMs: 1_500, breakerProbeTimeoutMs: 1_000, settings: { style: "chatgpt", latencyMinMs: 100, latencyMaxMs: 400, permanentErrorRate: 0.05 } },
    });
  }
  const checks: { checkId: string; captureIds: string[] }[] = [];
  for (let i = 0; i < CHECKS; i++) checks.push(await startSpaceCheck(space, { prompts: PROMPTS_PER_CHECK, providers: [...PROVIDERS] }));
  const held = (await budgetNow(space.workspaceId)).reserved;
  let budget = BigInt(Math.ceil(Number(held) * plan.budgetFactor));
  await db().workspace.update({ where: { id: space.workspaceId }, data: { monthlyBudgetMicros: budget } });
  const captureIds = checks.flatMap((c) => c.captureIds);

  const workers: WorkerProcess[] = await Promise.all(Array.from({ length: WORKERS }, (_, i) => startWorker(`chaos-${run}-${i}`, WORKER_ENV)));
  const frozen = new Set<WorkerProcess>();
  const details = () => `${log.join("\n")}\n${workers.map((w) => w.output().split("\n").slice(-40).join("\n")).join("\n")}`;

  // charged + in flight never above the budget (which only ever goes up here).
  const overBudget: string[] = [];
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      try {
        const [row] = await db().$queryRaw<{ used: bigint; limit: bigint | null }[]>`
          SELECT sum(b."chargedMicros" + b."inFlightMicros")::bigint AS used, w."monthlyBudgetMicros" AS limit
          FROM workspaces w JOIN budget_periods b ON b."workspaceId" = w.id AND b."periodStart" = date_trunc('month', now() AT TIME ZONE 'UTC')::date
          WHERE w.id = ${space.workspaceId}::uuid GROUP BY w."monthlyBudgetMicros"`;
        if (row?.limit !== null && row && row.used > row.limit) overBudget.push(`${row.used} > ${row.limit}`);
      } catch {
        // the database may be restarting
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  })();

  const finishedShare = async () => {
    const done = await db().capture.count({ where: { id: { in: captureIds }, status: { in: ["succeeded", "failed", "cancelled"] } } });
    return (done * 100) / captureIds.length;
  };
  const replace = async (index: number) => {
    workers[index] = await startWorker(`chaos-${run}-${index}-${Date.now() % 100_000}`, WORKER_ENV);
  };

  try {
    for (const step of plan.steps) {
      // Fire when the checks got this far, or when they stopped moving (everything may be waiting
      // for budget, or a worker is frozen): a deadline, not a sleep.
      await waitFor(async () => (await finishedShare().catch(() => -1)) >= step.at, { what: `${step.at} % done`, timeoutMs: 6_000, intervalMs: 50 }).catch(() => {});
      const a = step.action;
      log.push(`at ${(await finishedShare().catch(() => -1)).toFixed(0)} %: ${JSON.stringify(a)}`);
      const ignore = () => {}; // a refused cancel or retry (already finished, nothing to retry) is part of the game
      switch (a.kind) {
        case "cancelCapture":
          await cancelCapture(space.owner, captureIds[a.pick % captureIds.length]!).catch(ignore);
          break;
        case "cancelCheck":
          await cancelCheck(space.owner, checks[a.pick]!.checkId).catch(ignore);
          break;
        case "retry":
          await retryCaptures(space.owner, { captureId: captureIds[a.pick % captureIds.length]! }).catch(ignore);
          break;
        case "kill":
          frozen.delete(workers[a.worker]!);
          await workers[a.worker]!.kill();
          await replace(a.worker);
          break;
        case "freeze":
          if (!frozen.size) {
            workers[a.worker]!.pause();
            frozen.add(workers[a.worker]!);
          }
          break;
        case "thaw":
          for (const w of frozen) w.resume();
          frozen.clear();
          break;
        case "flaky":
          await db()
            .providerConnection.update({
              where: { id: space.connections[PROVIDERS[a.provider]!]! },
              data: { settings: { style: "chatgpt", latencyMinMs: 100, latencyMaxMs: 400, permanentErrorRate: 0.05, errorRate: a.errorRate, timeoutRate: a.timeoutRate } },
            })
            .catch(ignore);
          break;
        case "restartDb":
          await server.restart(a.mode);
          break;
        case "raiseBudget":
          budget *= 2n;
          await db().workspace.update({ where: { id: space.workspaceId }, data: { monthlyBudgetMicros: budget } }).catch(ignore);
          break;
      }
    }

    // Quiescence: every worker thawed and alive, providers healthy, budget ample.
    for (const w of frozen) w.resume();
    frozen.clear();
    for (const [i, w] of workers.entries()) if (!w.running) await replace(i);
    for (const name of PROVIDERS) {
      await db().providerConnection.update({ where: { id: space.connections[name]! }, data: { settings: { style: "chatgpt", latencyMinMs: 100, latencyMaxMs: 400 } } });
    }
    budget *= 100n;
    const { updateWorkspaceSettings } = await import("@/lib/workspaces/settings");
    await updateWorkspaceSettings(space.workspaceId, { name: "Chaos", monthlyBudgetMicros: Number(budget) });
    await waitFor(
      async () => {
        const rows = await db().check.findMany({ where: { id: { in: checks.map((c) => c.checkId) } }, select: { status: true } });
        const open = await db().attempt.count({ where: { captureId: { in: captureIds }, outcome: null } });
        return rows.every((c) => ["completed", "completed_with_errors", "failed", "cancelled"].includes(c.status)) && open === 0;
      },
      { what: "every check to finish and every attempt to end", timeoutMs: 90_000, intervalMs: 200, details },
    ).catch(async (error: Error) => {
      // What was left, for the failure message: the unfinished checks, captures, attempts and jobs.
      const left = await db().$queryRaw<unknown[]>`
        SELECT c.id, c.status, c."waitingFor", c."runToken", c."cancelRequestedAt", c."nextAttemptAt", c."attemptCount",
               (SELECT json_agg(json_build_object('n', a.number, 'outcome', a.outcome, 'reason', a.reason, 'worker', a."workerId", 'token', a."runToken")) FROM attempts a WHERE a."captureId" = c.id) AS attempts,
               (SELECT json_agg(json_build_object('id', j.id, 'run_at', j.run_at, 'attempts', j.attempts, 'locked_by', j.locked_by, 'last_error', left(j.last_error, 120))) FROM graphile_worker._private_jobs j WHERE j.key = 'capture:' || c.id) AS jobs
        FROM captures c WHERE c.id = ANY(${captureIds}::uuid[])
          AND (c.status NOT IN ('succeeded', 'failed', 'cancelled') OR EXISTS (SELECT 1 FROM attempts a WHERE a."captureId" = c.id AND a.outcome IS NULL))`;
      const unfinishedChecks = await db().check.findMany({ where: { id: { in: checks.map((c) => c.checkId) } }, select: { id: true, status: true, finishedAt: true, cancelRequestedAt: true } });
      throw new Error(`${error.message}\nchecks: ${JSON.stringify(unfinishedChecks)}\nleft: ${JSON.stringify(left, (_k, v: unknown) => (typeof v === "bigint" ? v.toString() : v))}`);
    });
  } finally {
    sampling = false;
    await sampler;
    for (const w of frozen) w.resume();
    await Promise.all(workers.map((w) => w.stop()));
  }

  // The invariants.
  const captures = await db().capture.findMany({ where: { id: { in: captureIds } }, include: { attempts: true } });
  for (const c of captures) {
    const label = `${details().split("\n")[0]}\ncapture ${c.id} ${c.status} attempts ${JSON.stringify(c.attempts.map((a) => [a.number, a.outcome, a.reason, a.workerId]))}`;
    expect(isTerminal(c.status), `${label}: final`).toBe(true);
    const succeeded = c.attempts.filter((a) => a.outcome === "succeeded");
    expect(succeeded.length, `${label}: at most one succeeded attempt`).toBeLessThanOrEqual(1);
    if (c.status === "succeeded") {
      expect(succeeded, label).toHaveLength(1);
      expect(c.costMicros, `${label}: the answer kept is the one paid for`).toBe(succeeded[0]!.costMicros);
      expect(c.answerIsPartial, label).toBe(false);
    }
    expect(c.attempts.every((a) => a.outcome !== null && a.reservedMicros === 0n), `${label}: every attempt ended`).toBe(true);
    expect(c.reservedMicros, `${label}: nothing held`).toBe(0n);
  }
  const after = await budgetNow(space.workspaceId);
  expect(after.reserved, "nothing held after all checks finished").toBe(0n);
  expect(after.inFlight, "nothing in flight").toBe(0n);
  expect(after.charged).toBeLessThanOrEqual(budget);
  expect(overBudget, "charged + in flight never above the budget").toEqual([]);
  await expectBudgetConsistent(space.workspaceId);
  expect(await runRepairPass(), "the repair pass repairs nothing").toEqual({});
  const repairs = await db().event.findMany({ where: { workspaceId: space.workspaceId, kind: "lifecycle_repaired" } });
  const repairDetails = await Promise.all(
    repairs.map(async (e) => {
      const token = (e.data as { runToken?: string }).runToken;
      const attempt = token ? await db().attempt.findUnique({ where: { runToken: token } }) : null;
      const heartbeat = attempt ? await db().workerHeartbeat.findUnique({ where: { workerId: attempt.workerId }, select: { status: true, activeAsOf: true, leaseExpiresAt: true, expiredAt: true } }) : null;
      return JSON.stringify({ at: e.createdAt, data: e.data, attempt: attempt && { worker: attempt.workerId, startedAt: attempt.startedAt, endedAt: attempt.endedAt }, heartbeat });
    }),
  );
  expect(await repairsIn(space.workspaceId), `no repair was needed during the run\n${log.join("\n")}\n${repairDetails.join("\n")}`).toEqual([]);
  console.log(`${log.join("\n")}\n-> ${captures.filter((c) => c.status === "succeeded").length} succeeded, ${captures.filter((c) => c.status === "failed").length} failed, ${captures.filter((c) => c.status === "cancelled").length} cancelled; charged ${after.charged} of ${budget}`);
}

describe("chaos", () => {
  it(`keeps every lifecycle invariant over ${RUNS} random fault schedules`, { timeout: 240_000 * Math.max(1, RUNS) }, async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(schedule, (plan) => chaosRun(++run, plan)),
      { numRuns: RUNS, endOnFailure: true, seed: process.env.BEACON_CHAOS_SEED ? Number(process.env.BEACON_CHAOS_SEED) : undefined },
    );
    expect(run).toBe(RUNS);
  });
});
