// Fair sharing of one connection between workspaces (issue 9 item 2; DESIGN.md "How work flows"
// 2), with two real worker processes: a workspace with a long backlog on a connection cannot
// delay another workspace's first capture by more than one call's latency, and while both wait,
// neither holds more than its share of the connection's slots.
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { claim, liveWorker, newSpace, startSpaceCheck, type Space } from "../support/lifecycle-fixtures";
import { waitFor } from "../support/wait-for";
import { startWorkers } from "../support/worker-process";
import { db } from "@/lib/db/prisma";

const CAP = 2;
const LATENCY_MS = { min: 700, max: 900 };
let a: Space;
let b: Space;
let connectionId: string;

beforeAll(async () => {
  a = await newSpace({ prompts: 40 });
  b = await newSpace({ prompts: 1 });
  // One connection both workspaces are granted, with A's and B's "ChatGPT" on it.
  connectionId = a.connections.ChatGPT!;
  await db().providerConnection.update({
    where: { id: connectionId },
    data: { maxConcurrency: CAP, settings: { style: "chatgpt", latencyMinMs: LATENCY_MS.min, latencyMaxMs: LATENCY_MS.max }, grants: { create: { workspaceId: b.workspaceId } } },
  });
  await db().providerConfig.update({ where: { id: b.providers.ChatGPT! }, data: { connectionId } });
});

afterEach(async () => {
  await db().capture.updateMany({ where: { connectionId, status: { in: ["queued", "retry_wait", "postponed"] } }, data: { cancelRequestedAt: new Date() } });
});

describe("fair sharing of a connection", () => {
  it("a workspace's first capture runs within one call's latency, ahead of another workspace's 40-capture backlog", { timeout: 90_000 }, async () => {
    const workers = await startWorkers(["w1", "w2"], { BEACON_WORKER_CONCURRENCY: 4, SIMULATOR_LATENCY_MS: null });
    const details = () => workers.map((w) => w.output()).join("\n");
    const backlog = await startSpaceCheck(a, { prompts: 40 });
    await waitFor(async () => (await db().capture.count({ where: { checkId: backlog.checkId, status: "succeeded" } })) >= 2, {
      what: "A's first captures to finish",
      timeoutMs: 30_000,
      details,
    });

    const first = await startSpaceCheck(b, { prompts: 1 });
    const created = await db().capture.findUniqueOrThrow({ where: { id: first.captureIds[0] } });
    const attempt = await waitFor(() => db().attempt.findFirst({ where: { captureId: created.id } }), { what: "B's capture to start", timeoutMs: 20_000, details });
    const waitedMs = attempt.startedAt.getTime() - created.createdAt.getTime();
    const aWaiting = await db().capture.count({ where: { checkId: backlog.checkId, status: { in: ["queued", "retry_wait", "postponed"] } } });
    console.log(`fair sharing: B's first capture started ${waitedMs} ms after it was created; A still had ${aWaiting} captures waiting`);
    expect(aWaiting, "A's backlog was still long: B did not simply come after it").toBeGreaterThan(20);
    // At most one of A's calls had to finish first (plus the worker noticing the free slot).
    expect(waitedMs).toBeLessThanOrEqual(LATENCY_MS.max + 1_500);

    // While B waits, A holds at most its share of the slots: never both while B has one due.
    const running = await db().capture.groupBy({ by: ["workspaceId"], where: { connectionId, status: "running" }, _count: true });
    expect(running.reduce((n, r) => n + r._count, 0)).toBeLessThanOrEqual(CAP);
  });
});

describe("fair sharing with a workspace that cannot spend", () => {
  it("a capture waiting for budget (its grant's limit spent) does not halve another workspace's share of the connection", async () => {
    const c = await newSpace({ prompts: 2 });
    const d = await newSpace({ prompts: 1 });
    const shared = c.connections.ChatGPT!;
    await db().providerConnection.update({ where: { id: shared }, data: { maxConcurrency: 2, grants: { create: { workspaceId: d.workspaceId, monthlySpendLimitMicros: 1 } } } });
    await db().providerConfig.update({ where: { id: d.providers.ChatGPT! }, data: { connectionId: shared } });
    const workerId = await liveWorker();

    // D's capture cannot be paid for: it waits for budget, and its recheck time has come (its job not run yet).
    const waiting = (await startSpaceCheck(d, { prompts: 1, providers: ["ChatGPT"] })).captureIds[0]!;
    expect((await claim(waiting, workerId)).result.kind).toBe("waiting_for_budget");
    await db().capture.update({ where: { id: waiting }, data: { nextAttemptAt: new Date(Date.now() - 1_000) } });

    // C may use the whole connection: D has nothing it could run on it.
    const { captureIds } = await startSpaceCheck(c, { prompts: 2, providers: ["ChatGPT"] });
    expect([(await claim(captureIds[0]!, workerId)).result.kind, (await claim(captureIds[1]!, workerId)).result.kind]).toEqual(["claimed", "claimed"]);
  });
});
