// The repair pass (lib/lifecycle/repair.ts): each state the lifecycle cannot produce is
// made here by hand, the way a bug, a manual edit or an old version might have left it, and the
// pass must find it, repair it through the transitions, count it, and then find nothing.
import { beforeAll, describe, expect, it } from "vitest";
import { budgetNow, captureRow, claim, claimed, expectBudgetConsistent, heldFinish, jobOf, liveWorker, newSpace, repairsIn, startSpaceCheck, succeed, type Space } from "../support/lifecycle-fixtures";
import { gateAt, waitForLockWaiter } from "../support/pause";
import { cancelCapture, retryCaptures } from "@/lib/checks/cancel-retry";
import { requestCheckCancel, runCheckOperation } from "@/lib/checks/operations";
import { runRepairPass } from "@/lib/lifecycle/repair";
import { expireAttempt } from "@/lib/lifecycle/lease";
import { unknownOutcomeCost } from "@/lib/billing/money";
import { db } from "@/lib/db/prisma";
import { finishCheckIfDone } from "@/lib/lifecycle/transition";

let space: Space;
let workerId: string;

beforeAll(async () => {
  space = await newSpace({ prompts: 3 });
  workerId = await liveWorker();
});

async function repairedOnce(kind: string) {
  expect(await runRepairPass()).toEqual({ [kind]: 1 });
  expect(await runRepairPass(), "a second pass finds nothing").toEqual({});
}

/** A capture that moved on (failed) without closing its attempt, of a check that finished charged nothing for it. */
async function movedCaptureOfFinishedCheck(of: Space = space) {
  const { captureIds } = await startSpaceCheck(of);
  const runToken = await claimed(captureIds[0]!, workerId);
  const { checkId } = await db().capture.findUniqueOrThrow({ where: { id: captureIds[0] } });
  await db().$executeRaw`UPDATE captures SET status = 'failed', "finishedAt" = now(), "runToken" = NULL WHERE id = ${captureIds[0]}::uuid`;
  await db().$executeRaw`UPDATE captures SET status = 'cancelled', "finishedAt" = now() WHERE "checkId" = ${checkId}::uuid AND id <> ${captureIds[0]}::uuid`;
  await db().$executeRaw`UPDATE checks SET status = 'failed', "finishedAt" = now(), "chargedMicros" = 0 WHERE id = ${checkId}::uuid`;
  const capture = await db().capture.findUniqueOrThrow({ where: { id: captureIds[0] }, include: { connection: true, promptVersion: true } });
  const estimate = unknownOutcomeCost(capture.promptVersion.text, capture.searchMode, capture.connection, capture.connection);
  expect(estimate).toBeGreaterThan(0);
  return { checkId, runToken, estimate };
}

describe("the repair pass", () => {
  it("finds nothing in a healthy workspace", async () => {
    const { captureIds } = await startSpaceCheck(space, { prompts: 2 });
    await succeed(captureIds[0]!, await claimed(captureIds[0]!, workerId));
    expect(await runRepairPass()).toEqual({});
  });

  it("cancels a waiting capture that carries a cancel request", async () => {
    const { captureIds } = await startSpaceCheck(space);
    await db().$executeRaw`UPDATE captures SET "cancelRequestedAt" = now() WHERE id = ${captureIds[0]}::uuid`;
    await repairedOnce("cancel_requested_not_final");
    expect(await captureRow(captureIds[0]!)).toMatchObject({ status: "cancelled", reservedMicros: 0n });
    await expectBudgetConsistent(space.workspaceId);
  });

  it("runs again a running capture that has no open attempt", async () => {
    const { captureIds } = await startSpaceCheck(space);
    const runToken = await claimed(captureIds[0]!, workerId);
    await db().$executeRaw`UPDATE attempts SET outcome = 'failed', "endedAt" = now(), "reservedMicros" = 0 WHERE "runToken" = ${runToken}::uuid`;
    await db().$executeRaw`UPDATE budget_periods SET "inFlightMicros" = 0 WHERE "workspaceId" = ${space.workspaceId}::uuid`;
    await db().$executeRaw`UPDATE grant_spend_periods SET "inFlightMicros" = 0 WHERE "workspaceId" = ${space.workspaceId}::uuid`;
    await repairedOnce("running_without_open_attempt");
    expect(await captureRow(captureIds[0]!)).toMatchObject({ status: "queued", runToken: null });
  });

  it("closes an open attempt whose capture moved on", async () => {
    const { checkId, runToken, estimate } = await movedCaptureOfFinishedCheck();
    expect(await runRepairPass()).toMatchObject({ open_attempt_of_moved_capture: 1 });
    const attempt = await db().attempt.findUniqueOrThrow({ where: { runToken } });
    // The provider may have been called, as for an expired lease: charged its estimate.
    expect(attempt).toMatchObject({ outcome: "unknown", reservedMicros: 0n, costMicros: BigInt(estimate), costIsEstimate: true });
    // The finished check's charge follows, as the ledgers do.
    expect((await db().check.findUniqueOrThrow({ where: { id: checkId } })).chargedMicros).toBe(BigInt(estimate));
    expect((await budgetNow(space.workspaceId)).inFlight).toBe(0n);
    expect(await runRepairPass()).toEqual({});
    await expectBudgetConsistent(space.workspaceId);
  });

  // The attempt is charged at most what its claim reserved (beacon_attempt_charge); the finished
  // check's charge must follow the attempt, not the estimate at prices raised since the claim.
  it("charges a finished check what the attempt it closes was charged: capped at the reservation when prices rose since the claim", async () => {
    const own = await newSpace({ prompts: 1 }); // its connection's prices change
    const { checkId, runToken } = await movedCaptureOfFinishedCheck(own);
    await db().$executeRaw`UPDATE provider_connections SET "inputPricePerMTokMicros" = "inputPricePerMTokMicros" * 1000, "outputPricePerMTokMicros" = "outputPricePerMTokMicros" * 1000
      WHERE id = (SELECT "connectionId" FROM attempts a JOIN captures c ON c.id = a."captureId" WHERE a."runToken" = ${runToken}::uuid)`;
    expect(await runRepairPass()).toMatchObject({ open_attempt_of_moved_capture: 1 });
    const attempt = await db().attempt.findUniqueOrThrow({ where: { runToken } });
    expect(attempt.costOverrunMicros, "the estimate at the new prices is over the reservation").toBeGreaterThan(0n);
    expect((await db().check.findUniqueOrThrow({ where: { id: checkId } })).chargedMicros).toBe(attempt.costMicros);
    expect(await runRepairPass()).toEqual({});
    await expectBudgetConsistent(own.workspaceId);
  });

  // The sweeper finds the same attempts first when their worker's lease expired (or it gave the
  // run up): its close of an attempt whose capture moved on charges the finished check too.
  it("the sweeper's close of an open attempt whose capture moved on charges the finished check, as the repair's does", async () => {
    const { checkId, runToken, estimate } = await movedCaptureOfFinishedCheck();
    expect(await expireAttempt(runToken, "abandoned"), "the capture moved on: not touched").toBeNull();
    expect(await db().attempt.findUniqueOrThrow({ where: { runToken } })).toMatchObject({ outcome: "unknown", costMicros: BigInt(estimate) });
    expect((await db().check.findUniqueOrThrow({ where: { id: checkId } })).chargedMicros).toBe(BigInt(estimate));
    expect(await runRepairPass(), "no attempt left for the repair").not.toHaveProperty("open_attempt_of_moved_capture");
    expect(await runRepairPass()).toEqual({});
    await expectBudgetConsistent(space.workspaceId);
  });

  it("gives a waiting capture with no runnable job a job", async () => {
    const { captureIds } = await startSpaceCheck(space);
    await db().$executeRaw`DELETE FROM graphile_worker._private_jobs WHERE key = ${`capture:${captureIds[0]}`}`;
    await repairedOnce("waiting_without_job");
    expect(await jobOf(captureIds[0]!)).not.toBeNull();
  });

  // A check's cancel from its page (lib/checks/operations.ts) marks the check at once and leaves
  // its waiting captures to the cancel's job; the claims refuse them meanwhile, so their jobs end.
  it("leaves alone the waiting captures of a check whose cancel job is still to run", async () => {
    const { checkId, captureIds } = await startSpaceCheck(space, { prompts: 2 });
    await requestCheckCancel(space.owner, checkId);
    for (const id of captureIds) expect((await claim(id, workerId)).result.kind, "the claim refuses them").toBe("not_runnable");
    await db().$executeRaw`DELETE FROM graphile_worker._private_jobs WHERE key = ANY(${captureIds.map((id) => `capture:${id}`)}::text[])`;

    expect(await runRepairPass(), "they wait for the cancel, not for a job").toEqual({});

    await runCheckOperation((await db().checkOperation.findFirstOrThrow({ where: { checkId } })).id);
    expect(await db().check.findUniqueOrThrow({ where: { id: checkId } })).toMatchObject({ status: "cancelled" });
    expect(await runRepairPass()).toEqual({});
    await expectBudgetConsistent(space.workspaceId);
  });

  it("ends a check's cancel whose job failed for good: the operation fails and its waiting captures are cancelled", async () => {
    const { checkId, captureIds } = await startSpaceCheck(space, { prompts: 2 });
    const { operationId } = await requestCheckCancel(space.owner, checkId);
    await db().$executeRaw`UPDATE graphile_worker._private_jobs SET attempts = max_attempts WHERE payload->>'operationId' = ${operationId}`;

    expect(await runRepairPass()).toEqual({ operation_without_job: 1, cancel_requested_not_final: captureIds.length });
    expect(await runRepairPass(), "a second pass finds nothing").toEqual({});
    expect(await db().checkOperation.findUniqueOrThrow({ where: { id: operationId } })).toMatchObject({ status: "failed", error: expect.stringMatching(/stopped/) });
    for (const id of captureIds) expect(await captureRow(id)).toMatchObject({ status: "cancelled", reservedMicros: 0n });
    expect(await db().check.findUniqueOrThrow({ where: { id: checkId } })).toMatchObject({ status: "cancelled" });
    await expectBudgetConsistent(space.workspaceId);
  });

  it("leaves the waiting captures of a check retried while it looks at them: the retry took the check's cancel back", async () => {
    const { checkId, captureIds } = await startSpaceCheck(space, { prompts: 2 });
    await cancelCapture(space.owner, captureIds[0]!); // something to retry
    // A cancel of the check whose operation ended without carrying it out (its job failed for good).
    const { operationId } = await requestCheckCancel(space.owner, checkId);
    await db().$executeRaw`DELETE FROM graphile_worker._private_jobs WHERE payload->>'operationId' = ${operationId}`;
    await db().checkOperation.update({ where: { id: operationId }, data: { status: "failed", finishedAt: new Date() } });
    // The worst moment: the pass has found the check's waiting capture; an admin then retries the check.
    const gate = gateAt("repair:cancel-found");
    const pass = runRepairPass();
    await gate.reached;
    await retryCaptures(space.owner, { checkId });
    expect((await db().check.findUniqueOrThrow({ where: { id: checkId } })).cancelRequestedAt, "the retry took the cancel back").toBeNull();
    gate.open();
    await pass;

    expect(await captureRow(captureIds[1]!), "still to run").toMatchObject({ status: "queued", cancelRequestedAt: null });
    expect(await captureRow(captureIds[0]!), "retried").toMatchObject({ status: "queued" });
    await expectBudgetConsistent(space.workspaceId);
  });

  it("releases the hold of a finished capture", async () => {
    const { captureIds } = await startSpaceCheck(space);
    const hold = (await captureRow(captureIds[0]!)).reservedMicros;
    await db().$executeRaw`UPDATE captures SET status = 'failed', "finishedAt" = now() WHERE id = ${captureIds[0]}::uuid`;
    const before = await budgetNow(space.workspaceId);
    await repairedOnce("hold_on_finished_capture");
    expect((await budgetNow(space.workspaceId)).reserved).toBe(before.reserved - hold);
    await expectBudgetConsistent(space.workspaceId);
  });

  it("sees no drift in a month while a result is writing its ledger shard, and none after it commits", async () => {
    // A fresh workspace: the result's shard row is new, so the repair pass cannot wait for it and
    // runs while it is uncommitted (it reads the sums and the rows behind them in one snapshot).
    const fresh = await newSpace({ prompts: 1 });
    const { captureIds } = await startSpaceCheck(fresh, { prompts: 1 });
    const run = await claimed(captureIds[0]!, workerId);
    const held = gateAt("succeed:before-commit", (context) => context.captureId === captureIds[0]);
    const ending = succeed(captureIds[0]!, run, 1_234);
    await held.reached;
    expect(await runRepairPass(), "nothing to repair while the result is in flight").toEqual({});
    held.open();
    await ending;
    expect(await runRepairPass()).toEqual({});
    expect(await repairsIn(fresh.workspaceId)).toEqual([]);
    await expectBudgetConsistent(fresh.workspaceId);
  });

  it("resets a month whose holds or in-flight sums drifted from the rows behind them", async () => {
    await startSpaceCheck(space);
    await db().$executeRaw`UPDATE budget_periods SET "reservedMicros" = "reservedMicros" + 777, "inFlightMicros" = "inFlightMicros" + 5 WHERE "workspaceId" = ${space.workspaceId}::uuid`;
    await repairedOnce("budget_drift");
    await expectBudgetConsistent(space.workspaceId);
    expect(await repairsIn(space.workspaceId)).toContain("budget_drift");
  });
});

// The repair's charge of an attempt it closes (open_attempt_of_moved_capture) and the finish of
// the attempt's check (syncCheck) both write the check's chargedMicros: the repair adds the
// estimate only to a check that has finished, the finish sums the attempts' costs. Each side is
// held with the check's row locked while the other acts: the estimate must be in the charge
// exactly once, whichever commits first.
describe("the repair's charge and the check's finish at once", () => {
  /** A check whose captures all ended, one of them leaving its attempt open, and that has not finished yet. */
  async function movedCaptureOfOpenCheck() {
    const { captureIds } = await startSpaceCheck(space);
    const runToken = await claimed(captureIds[0]!, workerId);
    const { checkId } = await db().capture.findUniqueOrThrow({ where: { id: captureIds[0] } });
    await db().$executeRaw`UPDATE captures SET status = 'failed', "finishedAt" = now(), "runToken" = NULL WHERE id = ${captureIds[0]}::uuid`;
    await db().$executeRaw`UPDATE captures SET status = 'cancelled', "finishedAt" = now() WHERE "checkId" = ${checkId}::uuid AND id <> ${captureIds[0]}::uuid`;
    const capture = await db().capture.findUniqueOrThrow({ where: { id: captureIds[0] }, include: { connection: true, promptVersion: true } });
    const estimate = unknownOutcomeCost(capture.promptVersion.text, capture.searchMode, capture.connection, capture.connection);
    expect(estimate).toBeGreaterThan(0);
    return { checkId, runToken, estimate };
  }

  async function expectChargedOnce(checkId: string, runToken: string, estimate: number) {
    expect(await db().attempt.findUniqueOrThrow({ where: { runToken } })).toMatchObject({ outcome: "unknown", costMicros: BigInt(estimate) });
    const check = await db().check.findUniqueOrThrow({ where: { id: checkId } });
    expect(check.finishedAt).not.toBeNull();
    expect(check.chargedMicros).toBe(BigInt(estimate));
    // The fixture's failed capture kept its hold, which a pass releases; no attempt is left to close.
    expect(await runRepairPass(), "no attempt left to repair").not.toHaveProperty("open_attempt_of_moved_capture");
    expect(await runRepairPass()).toEqual({});
    await expectBudgetConsistent(space.workspaceId);
  }

  it("a finish that waits for the repair holding the check's row sums the attempt the repair closed", async () => {
    const { checkId, runToken, estimate } = await movedCaptureOfOpenCheck();
    const gate = gateAt("repair:attempts-closed-before-commit");
    const repairing = runRepairPass();
    await gate.reached; // attempt closed, the open check's row locked and charged nothing
    const finishing = finishCheckIfDone(checkId);
    await waitForLockWaiter(1, undefined, `"cancelRequestedAt" IS NOT NULL AS "cancelRequested"`); // syncCheck's first statement
    gate.open();
    expect(await repairing).toMatchObject({ open_attempt_of_moved_capture: 1 });
    await finishing;
    await expectChargedOnce(checkId, runToken, estimate);
  });

  it("the sweeper's close of the attempt, waiting for the finish holding the check's row, adds the estimate to the finished check", async () => {
    const { checkId, runToken, estimate } = await movedCaptureOfOpenCheck();
    const finish = await heldFinish(checkId);
    const expiring = expireAttempt(runToken, "abandoned");
    await waitForLockWaiter(1, undefined, `"chargedMicros" = "chargedMicros" + CASE`); // closed the attempt, waits for the check's row
    finish.release();
    await finish.finishing;
    expect(await expiring, "the capture moved on: not touched").toBeNull();
    await expectChargedOnce(checkId, runToken, estimate);
  });

  it("a repair that waits for the finish holding the check's row adds the estimate to the finished check", async () => {
    const { checkId, runToken, estimate } = await movedCaptureOfOpenCheck();
    const finish = await heldFinish(checkId);
    const repairing = runRepairPass();
    await waitForLockWaiter(1, undefined, `"chargedMicros" = "chargedMicros" + CASE`); // closed the attempt, waits for the check's row
    finish.release();
    await finish.finishing;
    expect(await repairing).toMatchObject({ open_attempt_of_moved_capture: 1 });
    await expectChargedOnce(checkId, runToken, estimate);
  });
});
