// The worker's watch over its running calls (lib/lifecycle/run/watch.ts) tells each run, not each
// capture, about a cancel or a lost lease. A worker cut off from the database past its lease has
// its run swept and the capture handed on; the same process may claim it again while the first
// call still streams. Each run then keeps its own partial answer, the first learns it lost the
// capture, and the second still hears a cancel after the first has ended.
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { claimed, liveWorker, newSpace, startSpaceCheck } from "../support/lifecycle-fixtures";
import { waitFor } from "../support/wait-for";
import { db } from "@/lib/db/prisma";
import { captureWatch } from "@/lib/lifecycle/run/watch";

describe("the watch over running calls", () => {
  it("keeps two runs of one capture in one process apart: the first is told it lost it, the second hears the cancel", async () => {
    const space = await newSpace();
    const workerId = await liveWorker();
    const captureId = (await startSpaceCheck(space)).captureIds[0]!;
    const first = { token: await claimed(captureId, workerId), lost: 0, cancelled: 0 };
    const runA = captureWatch.register(captureId, { runToken: first.token, onCancel: () => first.cancelled++, onLost: () => first.lost++ });
    runA.append("streamed by the first run");

    // The sweeper hands the capture on and this process claims it again: a new run token.
    const second = { token: randomUUID(), lost: 0, cancelled: 0 };
    await db().capture.update({ where: { id: captureId }, data: { runToken: second.token } });
    const runB = captureWatch.register(captureId, { runToken: second.token, onCancel: () => second.cancelled++, onLost: () => second.lost++ });
    runB.append("streamed by the second run");

    await waitFor(() => first.lost > 0, { what: "the first run to be told it lost the capture", timeoutMs: 10_000 });
    expect([runA.partial(), runB.partial()]).toEqual(["streamed by the first run", "streamed by the second run"]);
    await runA.end();

    await db().capture.update({ where: { id: captureId }, data: { cancelRequestedAt: new Date() } });
    await waitFor(() => second.cancelled > 0, { what: "the second run to hear the cancel", timeoutMs: 10_000 });
    expect(second.lost).toBe(0);
    await runB.end();
  });
});
