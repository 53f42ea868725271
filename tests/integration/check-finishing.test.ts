// No hot row per check: a worker's transitions do not write the check row (its counts and holds
// are read from its captures), and a check finishes after the transition that ended its last
// capture commits. Each race is played with one side held at its worst moment.
import pg from "pg";
import { beforeEach, describe, expect, it } from "vitest";
import { actAt, gateAt } from "../support/pause";
import { claim, claimed, expectBudgetConsistent, liveWorker, newSpace, repairsIn, startSpaceCheck, succeed, type Space } from "../support/lifecycle-fixtures";
import { failCapture } from "@/lib/lifecycle/results";
import { runRepairPass } from "@/lib/lifecycle/repair";
import { finishStaleChecks } from "@/lib/lifecycle/transition";
import { retryCaptures } from "@/lib/checks/cancel-retry";
import { checkTally } from "@/lib/captures/check-counts";
import { db } from "@/lib/db/prisma";

let space: Space;
let workerId: string;

const checkOf = (checkId: string) => db().check.findUniqueOrThrow({ where: { id: checkId } });

beforeEach(async () => {
  space = await newSpace({ prompts: 4 });
  workerId = await liveWorker();
});

/** A transient failure with attempts left: the capture waits to retry. */
const transientFailure = (costMicros: number) => ({
  next: "retry_wait" as const,
  delayMs: 60_000,
  lastError: "Simulated overload (503)",
  attempt: { outcome: "failed" as const, reason: "http_503", errorClass: "transient" as const, httpStatus: 503, costMicros, costIsEstimate: false, latencyMs: 5 },
});

describe("a check's row", () => {
  it("is not written by a worker's claims and results: they go through while another session holds it", async () => {
    const { checkId, captureIds } = await startSpaceCheck(space, { prompts: 4 });
    const [a, b, c] = captureIds;
    const first = await claimed(a!, workerId); // the first claim marks the check running
    expect((await checkOf(checkId)).status).toBe("running");

    const holder = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await holder.connect();
    try {
      await holder.query("BEGIN");
      await holder.query(`SELECT 1 FROM checks WHERE id = $1 FOR NO KEY UPDATE`, [checkId]);
      // Were any of these to write the check row, they would wait for the holder and the test time out.
      const second = await claimed(b!, workerId);
      expect(await succeed(a!, first)).toEqual({ kind: "written", status: "succeeded" });
      expect(await failCapture(b!, second, transientFailure(300))).toEqual({ kind: "written", status: "retry_wait" });
      expect((await claim(c!, workerId)).result.kind).toBe("claimed");
    } finally {
      await holder.query("ROLLBACK");
      await holder.end();
    }
    expect(await checkTally(checkId)).toMatchObject({ queued: 2, running: 1, succeeded: 1, failed: 0, cancelled: 0, total: 4 });
  });

  it("stays open while another capture runs, and finishes when the last one ends", async () => {
    const { checkId, captureIds } = await startSpaceCheck(space, { prompts: 2 });
    const [a, b] = captureIds;
    const runA = await claimed(a!, workerId);
    const runB = await claimed(b!, workerId);
    await succeed(b!, runB, 2_000);
    expect((await checkOf(checkId)).finishedAt, "B ended first, with A still running").toBeNull();
    await succeed(a!, runA, 1_000);
    expect(await checkOf(checkId)).toMatchObject({ status: "completed", chargedMicros: 3_000n });
    await expectBudgetConsistent(space.workspaceId);
  });

  it("finishes once when two captures end at once and both look at it after committing", async () => {
    const { checkId, captureIds } = await startSpaceCheck(space, { prompts: 2 });
    const [a, b] = captureIds;
    const runA = await claimed(a!, workerId);
    const runB = await claimed(b!, workerId);
    // A committed its end and is held before looking at the check; B ends, looks and finishes it.
    const held = gateAt("finish:before", (context) => context.checkId === checkId);
    const endingA = succeed(a!, runA, 1_000);
    await held.reached;
    await succeed(b!, runB, 2_000);
    const finished = await checkOf(checkId);
    expect(finished).toMatchObject({ status: "completed", chargedMicros: 3_000n });
    held.open();
    await endingA;
    expect(await checkOf(checkId), "A's late look changes nothing").toMatchObject({ status: "completed", chargedMicros: 3_000n, finishedAt: finished.finishedAt, updatedAt: finished.updatedAt });
    await expectBudgetConsistent(space.workspaceId);
  });

  it("is finished by the maintenance pass when the worker stopped between recording the last capture and finishing the check", async () => {
    const { checkId, captureIds } = await startSpaceCheck(space, { prompts: 1 });
    const run = await claimed(captureIds[0]!, workerId);
    const stopped = actAt("finish:before", () => {
      throw new Error("the worker stopped here");
    });
    expect(await succeed(captureIds[0]!, run)).toEqual({ kind: "written", status: "succeeded" });
    expect(stopped()).toBe(1);
    expect((await checkOf(checkId)).status).toBe("running");
    expect(await finishStaleChecks()).toBe(1);
    expect(await checkOf(checkId)).toMatchObject({ status: "completed", chargedMicros: 1_000n });
    expect(await runRepairPass(), "a normal step, not a repair").toEqual({});
    expect(await repairsIn(space.workspaceId)).toEqual([]);
  });

  it("opens again when an admin retries a capture of a finished check, and finishes again with all its attempts charged", async () => {
    const { checkId, captureIds } = await startSpaceCheck(space, { prompts: 2 });
    const [a, b] = captureIds;
    await succeed(a!, await claimed(a!, workerId), 1_000);
    const runB = await claimed(b!, workerId);
    await failCapture(b!, runB, { ...transientFailure(500), next: "failed" });
    expect(await checkOf(checkId)).toMatchObject({ status: "completed_with_errors", chargedMicros: 1_500n });

    await retryCaptures(space.owner, { captureId: b! });
    expect(await checkOf(checkId)).toMatchObject({ status: "running", finishedAt: null });
    await succeed(b!, await claimed(b!, workerId), 700);
    expect(await checkOf(checkId)).toMatchObject({ status: "completed", chargedMicros: 2_200n });
    await expectBudgetConsistent(space.workspaceId);
  });
});
