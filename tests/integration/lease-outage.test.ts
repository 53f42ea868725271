// The lease rule across a network outage that cuts every worker off the database while the
// database stays up (a proxy or pgbouncer restart, a managed failover, a network partition): no
// worker can renew its lease, and the first one back must not take over the runs of the others
// before they could renew theirs. Two real worker processes reach the database through a proxy
// whose network goes down for longer than their leases. The worker with the call in flight is
// frozen (SIGSTOP) with the paid answer in its socket; the other comes back first, renews its
// lease and sweeps. Counted from the last renewal alone, the frozen worker's lease is over and its
// attempt is taken over (the capture paid twice, the answer fenced out). Counted from when the
// database was reachable again (lib/jobs/heartbeats.ts leaseOver), it holds: the worker thaws,
// stores its answer once, and the provider was called once.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { waitForCheckToFinish } from "../support/check-fixtures";
import { startOutageProxy, type OutageProxy } from "../support/cut-proxy";
import { startChaosProvider, type ChaosProvider } from "../support/fake-providers/chaos-provider";
import { expectBudgetConsistent, newHttpSpace, startCheckOf, type HttpSpace } from "../support/lifecycle-fixtures";
import { waitFor } from "../support/wait-for";
import { startWorker, stopAllWorkers } from "../support/worker-process";
import { db } from "@/lib/db/prisma";
import { sweepDeadWorkers } from "@/lib/worker/sweeper";

const LEASE_SECONDS = 8;

let proxy: OutageProxy;
let fake: ChaosProvider;
let space: HttpSpace;

beforeAll(async () => {
  proxy = await startOutageProxy(process.env.DATABASE_URL!);
  fake = await startChaosProvider({ latencyMs: [0, 0] });
  space = await newHttpSpace({ prompts: 1, baseUrl: fake.baseUrl, providers: ["ChatGPT"] });
  await db().providerConnection.update({ where: { id: space.connections.ChatGPT! }, data: { timeoutMs: 120_000 } });
}, 60_000);

afterAll(async () => {
  await stopAllWorkers();
  await fake?.close();
  await proxy?.close();
}, 60_000);

const heartbeatOf = (workerId: string) => db().workerHeartbeat.findUniqueOrThrow({ where: { workerId } });

describe("a worker frozen with a paid answer across a network outage of every worker", () => {
  it("is not taken over by the first worker back: it stores the answer once and the provider is paid once", { timeout: 90_000 }, async () => {
    const options = { BEACON_WORKER_CONCURRENCY: 1, BEACON_WORKER_LEASE_SECONDS: LEASE_SECONDS, BEACON_SWEEP_INTERVAL_SECONDS: 1, DATABASE_URL: proxy.url };
    const workers = [await startWorker("outage-a", options), await startWorker("outage-b", options)];
    const details = () => workers.map((w) => w.output()).join("\n");
    const hold = fake.hold(() => true);
    const { checkId, captureIds } = await startCheckOf(space, space.promptIds, ["ChatGPT"]);
    await waitFor(() => hold.arrived(), { what: "the call to reach the provider", timeoutMs: 30_000, intervalMs: 10, details });
    const open = await waitFor(() => db().attempt.findFirst({ where: { captureId: captureIds[0], outcome: null } }), { what: "the open attempt", timeoutMs: 10_000, details });
    const holder = workers.find((w) => w.workerId === open.workerId)!;
    const other = workers.find((w) => w !== holder)!;

    // The worst moment: the holder frozen, the whole answer in its socket (paid), not stored.
    holder.pause();
    hold.release();
    const call = await waitFor(() => fake.calls.find((c) => c.tag === space.tags.ChatGPT && c.sentAt !== undefined), { what: "the answer to be sent", timeoutMs: 10_000, intervalMs: 10 });
    const lease = await heartbeatOf(holder.workerId);
    const otherSeen = (await heartbeatOf(other.workerId)).lastSeenAt;

    // The network goes for longer than the leases; the database stays up (its clock is this machine's).
    proxy.down();
    await waitFor(() => Date.now() > lease.leaseExpiresAt.getTime() + 1_000, { what: "the lease to run out during the outage", timeoutMs: (LEASE_SECONDS + 5) * 1000, intervalMs: 50 });
    proxy.up();

    // The other worker is back first: it renews its lease, and sweeps every second from then on.
    await waitFor(async () => (await heartbeatOf(other.workerId)).lastSeenAt > otherSeen, { what: "the other worker to renew its lease", timeoutMs: 15_000, intervalMs: 50, details });
    const [lapsed] = await db().$queryRaw<{ over: boolean }[]>`
      SELECT "leaseExpiresAt" < now() AT TIME ZONE 'UTC' AS over FROM worker_heartbeats WHERE "workerId" = ${holder.workerId}`;
    expect(lapsed!.over, "the holder's lease ran out by its last renewal").toBe(true);
    expect.soft((await sweepDeadWorkers()).workers, "a sweep after the other worker is back").not.toContain(holder.workerId);

    // The holder thaws, renews its lease and stores the answer in its socket.
    holder.resume();
    expect((await waitForCheckToFinish(checkId, 30_000, details)).status).toBe("completed");
    const capture = await db().capture.findUniqueOrThrow({ where: { id: captureIds[0] }, include: { attempts: { orderBy: { number: "asc" } } } });
    const label = `attempts ${JSON.stringify(capture.attempts.map((a) => `${a.number}:${a.outcome}/${a.reason}@${a.workerId}`))}`;
    const calls = fake.calls.filter((c) => c.tag === space.tags.ChatGPT);
    expect.soft(calls.map((c) => [c.seq, c.outcome]), "the provider's calls").toEqual([[call.seq, "answered"]]);
    expect(capture.attempts, `the attempt was not taken over: ${label}`).toHaveLength(1);
    expect(capture.attempts[0], label).toMatchObject({ outcome: "succeeded", workerId: holder.workerId, runToken: open.runToken });
    await expectBudgetConsistent(space.workspaceId);
  });
});
