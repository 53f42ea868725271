// The lease rule across a real PostgreSQL restart (lib/jobs/heartbeats.ts leaseOver), with a real
// worker process held at its worst moment: the provider has answered (and been paid) and the
// worker has not stored the answer yet. The worker is frozen (SIGSTOP) with the answer in its
// socket, the server goes down for longer than the worker's lease and comes back, and the
// sweeper runs first. A lease counted from the last renewal alone has run out by then, and the
// sweeper took the attempt over: the capture ran again (paid twice) and the worker's success was
// fenced out. Counted from no earlier than the server's start, the lease still holds; the worker
// thaws, stores its answer once, and nothing was called twice.
//
// This file runs its OWN PostgreSQL server (tests/support/restartable-postgres.ts), as
// lifecycle-db-restart.test.ts does: stopping the shared one would break other files.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { waitForCheckToFinish } from "../support/check-fixtures";
import { startChaosProvider, type ChaosProvider } from "../support/fake-providers/chaos-provider";
import { expectBudgetConsistent, newHttpSpace, startCheckOf, type HttpSpace } from "../support/lifecycle-fixtures";
import { privatePostgres, type PrivatePostgres } from "../support/restartable-postgres";
import { waitFor } from "../support/wait-for";
import { startWorker, stopAllWorkers } from "../support/worker-process";
import { db } from "@/lib/db/prisma";
import { sweepDeadWorkers } from "@/lib/worker/sweeper";

const LEASE_SECONDS = 6;

let server: PrivatePostgres;
let fake: ChaosProvider;
let space: HttpSpace;

beforeAll(async () => {
  // Before the first db() call of this file: Prisma and the worker connect to this server only.
  server = await privatePostgres();
  fake = await startChaosProvider({ latencyMs: [0, 0] });
  space = await newHttpSpace({ prompts: 1, baseUrl: fake.baseUrl, providers: ["ChatGPT"] });
  // A call timeout far beyond the freeze: the answer in the socket is read, not aborted (the
  // timeout firing first after a stall is another matter, see docs/architecture.md).
  await db().providerConnection.update({ where: { id: space.connections.ChatGPT! }, data: { timeoutMs: 120_000 } });
}, 60_000);

afterAll(async () => {
  await stopAllWorkers();
  await fake?.close();
  await server?.dispose();
}, 60_000);

describe("a worker frozen with a paid answer across a database restart", () => {
  it("is not taken over by the first sweep after the restart: it stores the answer once and the provider is paid once", { timeout: 90_000 }, async () => {
    const worker = await startWorker("survivor", { BEACON_WORKER_CONCURRENCY: 1, BEACON_WORKER_LEASE_SECONDS: LEASE_SECONDS, BEACON_SWEEP_INTERVAL_SECONDS: 1 });
    const details = () => worker.output();
    const hold = fake.hold(() => true);
    const { checkId, captureIds } = await startCheckOf(space, space.promptIds, ["ChatGPT"]);
    expect(captureIds).toHaveLength(1);
    await waitFor(() => hold.arrived(), { what: "the call to reach the provider", timeoutMs: 30_000, intervalMs: 10, details });

    // The worst moment: the worker frozen with its call in flight, then the whole answer written
    // into its socket (the provider counts it as paid); the success is not stored.
    worker.pause();
    hold.release();
    const call = await waitFor(() => fake.calls.find((c) => c.tag === space.tags.ChatGPT && c.sentAt !== undefined), { what: "the answer to be sent", timeoutMs: 10_000, intervalMs: 10 });
    const lease = await db().workerHeartbeat.findUniqueOrThrow({ where: { workerId: worker.workerId } });
    const open = await db().attempt.findMany({ where: { captureId: captureIds[0] } });
    expect(open.map((a) => [a.outcome, a.workerId])).toEqual([[null, worker.workerId]]);

    // The outage outlasts the lease as last renewed (the database runs on this machine's clock).
    await server.stop("fast");
    await waitFor(() => Date.now() > lease.leaseExpiresAt.getTime() + 500, { what: "the lease to run out during the outage", timeoutMs: (LEASE_SECONDS + 5) * 1000, intervalMs: 50 });
    await server.start();

    // The first sweep after the restart. By its last renewal the lease is over (so the old rule
    // takes the attempt over: this test can fail), counted from the server's start it is not.
    const [lapsed] = await db().$queryRaw<{ overByRenewal: boolean }[]>`
      SELECT "leaseExpiresAt" < now() AT TIME ZONE 'UTC' AS "overByRenewal" FROM worker_heartbeats WHERE "workerId" = ${worker.workerId}`;
    expect(lapsed!.overByRenewal, "the lease ran out by its last renewal").toBe(true);
    const swept = await sweepDeadWorkers();
    // Soft: should it take the attempt over, what that costs is checked below too.
    expect.soft(swept, "the first sweep after the restart").toMatchObject({ workers: [], expired: 0 });

    // The worker thaws, reads the answer in its socket and stores it.
    worker.resume();
    const done = await waitForCheckToFinish(checkId, 30_000, details);
    expect(done.status).toBe("completed");

    const capture = await db().capture.findUniqueOrThrow({ where: { id: captureIds[0] }, include: { attempts: { orderBy: { number: "asc" } } } });
    const label = `attempts ${JSON.stringify(capture.attempts.map((a) => `${a.number}:${a.outcome}/${a.reason}@${a.workerId}`))}`;
    expect(capture.status, label).toBe("succeeded");
    // Paid once: one call, answered whole.
    const calls = fake.calls.filter((c) => c.tag === space.tags.ChatGPT);
    expect.soft(calls.map((c) => [c.seq, c.outcome, c.closedByClient]), "the provider's calls").toEqual([[call.seq, "answered", false]]);
    expect(capture.attempts, `the attempt was not taken over: ${label}`).toHaveLength(1);
    expect(capture.attempts[0], label).toMatchObject({ outcome: "succeeded", workerId: worker.workerId, runToken: open[0]!.runToken });
    expect(capture.answerText).not.toBeNull();
    expect(capture.costMicros).toBe(capture.attempts[0]!.costMicros);
    await expectBudgetConsistent(space.workspaceId);
    // And the worker is alive, its lease renewed after the restart.
    const heartbeat = await waitFor(
      async () => {
        const row = await db().workerHeartbeat.findUniqueOrThrow({ where: { workerId: worker.workerId } });
        return row.lastSeenAt > lease.lastSeenAt ? row : undefined;
      },
      { what: "the worker to renew its lease", timeoutMs: 15_000, intervalMs: 100, details },
    );
    expect(heartbeat).toMatchObject({ status: "running", expiredAt: null });
  });
});
