// The budget and grant ledgers (lib/billing/budget.ts): claims add to the admission row and take
// turns on it; results give back on other shards without waiting for claims. That must not cost a
// wake-up: a capture refused for budget while a result frees money runs once the money is there,
// whichever of the two commits first. Each race is played with one side held at its worst moment.
import { beforeEach, describe, expect, it } from "vitest";
import { gateAt, waitForLockWaiter } from "../support/pause";
import { budgetNow, captureRow, claim, claimed, expectBudgetConsistent, jobOf, liveWorker, newSpace, startSpaceCheck, succeed, type Space } from "../support/lifecycle-fixtures";
import { callWouldFit } from "@/lib/billing/budget";
import { db } from "@/lib/db/prisma";

let space: Space;
let workerId: string;

beforeEach(async () => {
  space = await newSpace({ prompts: 2 });
  workerId = await liveWorker();
});

/** Two captures; A claimed, and a budget with room for one call's worst case and a half: B does
 * not fit while A is in flight, and does once A is charged what it cost. */
async function oneCallAndAHalf() {
  const [a, b] = (await startSpaceCheck(space, { prompts: 2 })).captureIds;
  const runA = await claimed(a!, workerId);
  const worst = (await budgetNow(space.workspaceId)).inFlight;
  await db().workspace.update({ where: { id: space.workspaceId }, data: { monthlyBudgetMicros: worst + worst / 2n } });
  return { a: a!, b: b!, runA };
}

/** B's job is due now: woken, not left to its recheck (BEACON_BUDGET_RECHECK_SECONDS). */
async function expectDueNow(captureId: string) {
  expect(await captureRow(captureId)).toMatchObject({ status: "postponed", waitingFor: "budget", attemptCount: 0 });
  expect((await jobOf(captureId))!.run_at.getTime(), "its job is due now").toBeLessThanOrEqual(Date.now() + 1_000);
  expect((await claim(captureId, workerId)).result.kind, "and now it fits").toBe("claimed");
  expect(await db().attempt.count({ where: { captureId } }), "the undone claim left no attempt").toBe(1);
  await expectBudgetConsistent(space.workspaceId);
}

describe("the ledgers, written last", () => {
  it("let a result give money back while a claim holds the admission row", async () => {
    const [a, b] = (await startSpaceCheck(space, { prompts: 2 })).captureIds;
    const runA = await claimed(a!, workerId);
    const held = gateAt("claim:before-commit", (context) => context.captureId === b);
    const claimB = claim(b!, workerId);
    await held.reached;
    // Were A's result to write the row B's claim holds, it would wait for it and the test time out.
    expect(await succeed(a!, runA, 1_000)).toEqual({ kind: "written", status: "succeeded" });
    held.open();
    expect((await claimB).result.kind).toBe("claimed");
    await expectBudgetConsistent(space.workspaceId);
  });

  it("wake a capture refused for budget by the result that frees the money when the result commits after the refusal", async () => {
    const { a, b, runA } = await oneCallAndAHalf();
    const refusing = gateAt("claim:no-budget-before-commit", (context) => context.captureId === b);
    const claimB = claim(b!, workerId);
    await refusing.reached;
    // B waits for budget, not committed. A's result frees money now: it must look for captures to
    // wake only once B's wait has committed, or it would miss it.
    const endingA = succeed(a, runA, 1_000);
    await waitForLockWaiter();
    refusing.open();
    expect((await claimB).result.kind).toBe("waiting_for_budget");
    expect(await endingA).toEqual({ kind: "written", status: "succeeded" });
    await expectDueNow(b);
  });

  it("run a capture refused for budget at once when the result that frees the money commits before the refusal is recorded", async () => {
    const { a, b, runA } = await oneCallAndAHalf();
    const refused = gateAt("claim:no-budget", (context) => context.captureId === b);
    const claimB = claim(b!, workerId);
    await refused.reached;
    // B read the budget before A's result; A's result commits, and finds no capture waiting yet.
    expect(await succeed(a, runA, 1_000)).toEqual({ kind: "written", status: "succeeded" });
    refused.open();
    expect((await claimB).result.kind).toBe("waiting_for_budget");
    await expectDueNow(b);
  });

  it("undo a claim refused for budget entirely: no attempt, no slot, the check not started, nothing in flight", async () => {
    const { checkId, captureIds } = await startSpaceCheck(space, { prompts: 1 });
    await db().workspace.update({ where: { id: space.workspaceId }, data: { monthlyBudgetMicros: 1n } });
    expect((await claim(captureIds[0]!, workerId)).result.kind).toBe("waiting_for_budget");
    expect(await captureRow(captureIds[0]!)).toMatchObject({ status: "postponed", waitingFor: "budget", attemptCount: 0, runToken: null });
    expect(await db().attempt.count({ where: { captureId: captureIds[0]! } })).toBe(0);
    expect(await db().connectionSlot.count({ where: { captureId: captureIds[0]! } })).toBe(0);
    expect((await db().check.findUniqueOrThrow({ where: { id: checkId } })).status).toBe("queued");
    await expectBudgetConsistent(space.workspaceId);
  });

  it("say whether a call fits from charged + in flight over every shard, against the budget and against the grant's limit", async () => {
    const { a } = await oneCallAndAHalf();
    const connectionId = space.connections.ChatGPT!;
    const worst = (await budgetNow(space.workspaceId)).inFlight;
    const fits = (worstMicros: bigint) => db().$transaction((tx) => callWouldFit(tx, { workspaceId: space.workspaceId, connectionId, worstMicros: Number(worstMicros) }));
    // The budget holds one and a half worst cases and one is in flight (on the admission row).
    expect(await fits(worst / 2n)).toBe(true);
    expect(await fits(worst / 2n + 1n)).toBe(false);
    // Charged on another shard counts too: A's result charges 1,000 and releases its worst case.
    expect(await succeed(a, (await db().attempt.findFirstOrThrow({ where: { captureId: a } })).runToken, 1_000)).toEqual({ kind: "written", status: "succeeded" });
    const left = worst + worst / 2n - 1_000n;
    expect(await fits(left)).toBe(true);
    expect(await fits(left + 1n)).toBe(false);
    // The grant's limit on the connection refuses what the budget would allow; no limit, no refusal.
    await db().connectionGrant.update({ where: { connectionId_workspaceId: { connectionId, workspaceId: space.workspaceId } }, data: { monthlySpendLimitMicros: 1_500n } });
    expect(await fits(500n)).toBe(true);
    expect(await fits(501n)).toBe(false);
    await db().connectionGrant.update({ where: { connectionId_workspaceId: { connectionId, workspaceId: space.workspaceId } }, data: { monthlySpendLimitMicros: null } });
    await db().workspace.update({ where: { id: space.workspaceId }, data: { monthlyBudgetMicros: null } });
    expect(await fits(10n ** 12n)).toBe(true);
  });
});
