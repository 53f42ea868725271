// The capture lifecycle under process faults, with real worker processes against this file's
// database: a worker frozen (SIGSTOP: a long GC pause, a stalled VM) with calls in flight past its
// lease is swept by a live worker, which answers its captures; when it thaws it is a zombie, and
// must write nothing (DESIGN.md "Leases, crashes and restarts": the run token fences it).
// (A database restart mid-check is in lifecycle-db-restart.test.ts: it needs a server of its own.)
import { expect, describe, it } from "vitest";
import { captureStatusCounts, waitForCheckToFinish } from "../support/check-fixtures";
import { budgetNow, expectBudgetConsistent, newSpace, repairsIn, startSpaceCheck } from "../support/lifecycle-fixtures";
import { waitFor } from "../support/wait-for";
import { startWorkers, type WorkerProcess } from "../support/worker-process";
import { unknownOutcomeCost } from "@/lib/billing/money";
import { runRepairPass } from "@/lib/lifecycle/repair";
import { checkTally } from "@/lib/captures/check-counts";
import { db } from "@/lib/db/prisma";

const LEASE_S = 5;
const SWEEP_S = 1;

const outputOf = (workers: WorkerProcess[]) => () => workers.map((w) => w.output()).join("\n");

async function databaseNow(): Promise<Date> {
  const [{ now }] = await db().$queryRaw<[{ now: Date }]>`SELECT now() AT TIME ZONE 'UTC' AS now`;
  return now;
}

/**
 * Everything a run can write for the workspace: captures (with answers and money), attempts,
 * the check, the budget, events, and the analysis rows of the answers. Compared before and
 * after the zombie thaws.
 */
async function snapshot(workspaceId: string) {
  const [captures, attempts, checks, budget, events, mentions, citations, searchQueries] = await Promise.all([
    db().capture.findMany({ where: { workspaceId }, orderBy: { id: "asc" } }),
    db().attempt.findMany({ where: { workspaceId }, orderBy: { id: "asc" } }),
    db().check.findMany({ where: { workspaceId }, orderBy: { id: "asc" } }),
    db().$queryRaw<unknown[]>`SELECT * FROM budget_periods WHERE "workspaceId" = ${workspaceId}::uuid ORDER BY "periodStart", shard`,
    db().event.findMany({ where: { workspaceId }, orderBy: { id: "asc" } }),
    db().mention.count({ where: { workspaceId } }),
    db().citation.count({ where: { workspaceId } }),
    db().searchQuery.count({ where: { workspaceId } }),
  ]);
  return { captures, attempts, checks, budget, events, mentions, citations, searchQueries };
}

describe("a frozen worker (zombie)", () => {
  it("is swept by a live worker after its lease; when it thaws it writes nothing, and every capture is answered once", { timeout: 90_000 }, async () => {
    const space = await newSpace({ prompts: 6 });
    // A's calls take seconds (they are in flight when it is frozen); B answers quickly, but not
    // so quickly that it has taken every capture before A has taken two.
    const [a, b] = await Promise.all([
      startWorkers(["A"], { BEACON_WORKER_CONCURRENCY: 2, BEACON_WORKER_LEASE_SECONDS: LEASE_S, BEACON_SWEEP_INTERVAL_SECONDS: SWEEP_S, SIMULATOR_LATENCY_MS: "4000-5000" }),
      startWorkers(["B"], { BEACON_WORKER_CONCURRENCY: 2, BEACON_WORKER_LEASE_SECONDS: LEASE_S, BEACON_SWEEP_INTERVAL_SECONDS: SWEEP_S, SIMULATOR_LATENCY_MS: "400-700" }),
    ]).then(([[a], [b]]) => [a!, b!] as const);
    const details = outputOf([a, b]);
    const budgetBefore = await budgetNow(space.workspaceId);
    const { checkId, captureIds } = await startSpaceCheck(space, { prompts: 6, providers: ["ChatGPT", "Perplexity"] });
    expect(captureIds).toHaveLength(12);

    // Freeze A while both its slots are in provider calls, and not inside a transaction (frozen
    // in one, it would hold row and slot locks until the server ends its session): if a session
    // is in a transaction at that moment (A's, or B's between two statements), thaw and look again.
    let frozenAt: Date | undefined;
    await waitFor(
      async () => {
        if ((await db().attempt.count({ where: { workerId: a.workerId, outcome: null } })) < 2) return false;
        a.pause();
        const [{ inTransaction, advisory }] = await db().$queryRaw<[{ inTransaction: bigint; advisory: bigint }]>`
          SELECT (SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND state LIKE 'idle in transaction%') AS "inTransaction",
                 (SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database())) AS advisory`;
        const open = await db().attempt.count({ where: { workerId: a.workerId, outcome: null } });
        if (inTransaction === 0n && advisory === 0n && open === 2) {
          frozenAt = await databaseNow();
          return true;
        }
        a.resume();
        return false;
      },
      { what: "A frozen with two calls in flight and no transaction open", timeoutMs: 20_000, intervalMs: 25, details },
    );
    const frozen = await db().attempt.findMany({ where: { workerId: a.workerId, outcome: null } });
    expect(frozen).toHaveLength(2);
    const frozenTokens = frozen.map((f) => f.runToken);
    const aCaptures = frozen.map((f) => f.captureId);

    // B sweeps A's runs once A's lease has run out, then answers those captures itself.
    await waitFor(() => db().attempt.count({ where: { runToken: { in: frozenTokens }, outcome: null } }).then((n) => n === 0), {
      what: "B to sweep the frozen worker's runs",
      timeoutMs: (LEASE_S + SWEEP_S) * 1000 + 15_000,
      details,
    });
    const done = await waitForCheckToFinish(checkId, 30_000, details);
    expect(done.status, JSON.stringify(await captureStatusCounts(checkId))).toBe("completed");
    expect(a.running, "A is frozen, not dead").toBe(true);
    const heartbeatWhileFrozen = await db().workerHeartbeat.findUniqueOrThrow({ where: { workerId: a.workerId } });
    expect(heartbeatWhileFrozen.status, "A was declared dead").toBe("expired");

    // Everything A could still write, before it thaws.
    const before = await snapshot(space.workspaceId);
    // Read before the thaw: A may renew its heartbeat before a read after it would come back.
    const thawedAt = await databaseNow();
    a.resume();
    // A is idle again: its heartbeat, renewed after the thaw (it comes back as alive), lists no
    // run. A run's token leaves that list only when the run is over, whatever it wrote.
    const heartbeat = await waitFor(
      async () => {
        const row = await db().workerHeartbeat.findUniqueOrThrow({ where: { workerId: a.workerId } });
        const now = await databaseNow();
        return row.lastSeenAt > thawedAt && row.activeRunTokens.length === 0 && row.leaseExpiresAt > now && row.status === "running" && row.expiredAt === null ? row : null;
      },
      { what: "A to be idle again, with its lease renewed", timeoutMs: 20_000, intervalMs: 100, details },
    );
    expect(heartbeat.activeAsOf!.getTime()).toBeGreaterThan(thawedAt.getTime());
    const after = await snapshot(space.workspaceId);
    expect(after, "A wrote nothing after it thawed").toEqual(before);
    expect(a.running, `A survived being frozen\n${a.output()}`).toBe(true);

    // Every capture has exactly one succeeded attempt, and keeps that attempt's answer.
    const captures = await db().capture.findMany({
      where: { checkId },
      include: { attempts: { orderBy: { number: "asc" } }, prompt: { select: { text: true } }, connection: true },
      orderBy: { id: "asc" },
    });
    for (const capture of captures) {
      const label = `capture ${capture.id} (attempts ${capture.attempts.map((x) => `${x.number}:${x.outcome}/${x.reason}@${x.workerId}`).join(", ")})`;
      expect(capture.status, label).toBe("succeeded");
      const succeeded = capture.attempts.filter((x) => x.outcome === "succeeded");
      expect(succeeded, label).toHaveLength(1);
      expect(capture.costMicros, `${label}: the answer kept is the live run's`).toBe(succeeded[0]!.costMicros);
      expect(succeeded[0]!.costIsEstimate, label).toBe(false);
      expect(capture.answerIsPartial, label).toBe(false);
      expect(capture.reservedMicros, `${label}: holds budget`).toBe(0n);
      expect(capture.attempts.every((x) => x.outcome !== null && x.reservedMicros === 0n), `${label}: an attempt is open`).toBe(true);

      if (!aCaptures.includes(capture.id)) {
        expect(capture.attempts, `${label}: only A's former captures were tried twice`).toHaveLength(1);
        continue;
      }
      // A's former captures: A's attempt ended unknown (lease expired), charged its estimate,
      // then B's succeeded, and the answer is B's.
      expect(capture.attempts, label).toHaveLength(2);
      const [lost, live] = capture.attempts as [(typeof capture.attempts)[number], (typeof capture.attempts)[number]];
      const config = capture.connection;
      const estimate = unknownOutcomeCost(capture.prompt.text, capture.searchMode, { maxOutputTokens: config.maxOutputTokens, maxSearchCalls: config.maxSearchCalls }, config);
      expect(lost, label).toMatchObject({ workerId: a.workerId, outcome: "unknown", reason: "lease_expired", errorClass: "unknown", costIsEstimate: true, costMicros: BigInt(estimate) });
      expect(lost.costMicros, label).toBeGreaterThan(0n);
      expect(lost.endedAt!.getTime(), `${label}: swept while A was frozen`).toBeLessThan(thawedAt.getTime());
      expect(live, label).toMatchObject({ workerId: b.workerId, outcome: "succeeded" });
      expect(live.startedAt.getTime(), label).toBeGreaterThan(frozenAt!.getTime());
    }
    const byA = await db().attempt.findMany({ where: { workerId: a.workerId } });
    expect(byA.map((x) => x.runToken).sort(), "A started nothing after it was frozen").toEqual(frozenTokens.sort());
    const leaseEvents = await db().event.findMany({ where: { checkId, kind: "lease_expired" } });
    expect(leaseEvents.map((e) => e.captureId).sort()).toEqual([...aCaptures].sort());

    // Nothing held or in flight; charged exactly what the attempts cost (A's two estimates included).
    const attempts = captures.flatMap((c) => c.attempts);
    const check = { ...(await db().check.findUniqueOrThrow({ where: { id: checkId } })), ...(await checkTally(checkId)) };
    expect(check.reservedMicros).toBe(0n);
    expect(check.chargedMicros).toBe(attempts.reduce((sum, x) => sum + x.costMicros, 0n));
    const budgetAfter = await budgetNow(space.workspaceId);
    expect(budgetAfter.inFlight).toBe(0n);
    expect(budgetAfter.reserved).toBe(budgetBefore.reserved);
    expect(budgetAfter.charged - budgetBefore.charged).toBe(check.chargedMicros);
    await expectBudgetConsistent(space.workspaceId);

    // A frozen worker is a crash the lifecycle expects, not an impossible state.
    expect(await repairsIn(space.workspaceId)).toEqual([]);
    expect(await runRepairPass()).toEqual({});
    console.log(
      `zombie: A frozen with ${frozen.length} calls in flight; swept ${Math.round((Math.max(...attempts.filter((x) => frozenTokens.includes(x.runToken)).map((x) => x.endedAt!.getTime())) - frozenAt!.getTime()) / 100) / 10} s after the freeze (lease ${LEASE_S} s); ` +
        `A idle again ${Math.round((heartbeat.lastSeenAt.getTime() - thawedAt.getTime()) / 100) / 10} s after the thaw, having written nothing`,
    );
  });
});
