// A connection's prices raised while a call runs (the Instance page's edit, updateConnection)
// crossing the lifecycle's money: the call reserved its worst case at the prices of its claim, and
// whatever ends it (its own success, the sweeper finding its lease expired or its run abandoned) charges at
// most that reservation (DESIGN.md "Money": charged never exceeds the budget). An estimate read at
// the new prices used to be charged whole: past the reservation, so past the budget and the grant's
// limit it was admitted under.
import { beforeAll, describe, expect, it } from "vitest";
import { budgetNow, claimed, connectionInputOf, expectBudgetConsistent, grantSpendNow, inProcessRunner, liveWorker, newSpace, startSpaceCheck, succeed } from "../support/lifecycle-fixtures";
import { actAt, gateAt } from "../support/pause";
import { costOf, worstCaseCost } from "@/lib/billing/money";
import { updateConnection } from "@/lib/connections/connections";
import { db } from "@/lib/db/prisma";
import { expireAttempt } from "@/lib/lifecycle/lease";

// The in-process runner's OpenAI adapter calls a local fake server (before anything reads env()).
process.env.OPENAI_API_KEY = "sk-test-price-edit";
let workerId: string;
const runner = inProcessRunner();

beforeAll(async () => {
  workerId = await liveWorker();
});

/** The connection's prices times `factor`, saved as the Instance page saves them. */
async function raisePrices(connectionId: string, factor: number) {
  const c = await db().providerConnection.findUniqueOrThrow({ where: { id: connectionId } });
  await updateConnection(
    connectionId,
    await connectionInputOf(connectionId, {
      inputPricePerMTokMicros: Number(c.inputPricePerMTokMicros) * factor + 1_000_000,
      outputPricePerMTokMicros: Number(c.outputPricePerMTokMicros) * factor + 1_000_000,
      searchPriceMicros: Number(c.searchPriceMicros) * factor + 10_000,
    }),
  );
}

/** A claimed capture of a new space on ChatGPT's connection, with what its claim reserved. */
async function callInFlight() {
  const space = await newSpace({ prompts: 1 });
  const { captureIds } = await startSpaceCheck(space, { prompts: 1, providers: ["ChatGPT"] });
  const captureId = captureIds[0]!;
  const runToken = await claimed(captureId, workerId);
  const { reservedMicros } = await db().attempt.findFirstOrThrow({ where: { runToken } });
  expect(reservedMicros).toBeGreaterThan(0n);
  return { space, captureId, runToken, reserved: reservedMicros, connectionId: space.connections.ChatGPT! };
}

describe("prices raised during a call", () => {
  for (const reason of ["lease_expired", "abandoned"] as const) {
    it(`an attempt ended by the sweeper (${reason}) is charged its estimate at most up to what it reserved, the rest kept as its overrun`, async () => {
      const { space, captureId, runToken, reserved, connectionId } = await callInFlight();
      await raisePrices(connectionId, 10);
      expect(await expireAttempt(runToken, reason)).toBe("queued");
      const attempt = await db().attempt.findFirstOrThrow({ where: { runToken } });
      expect(attempt).toMatchObject({ outcome: "unknown", costIsEstimate: true, costMicros: reserved });
      // The estimate at the new prices was more than the reservation: the difference is recorded, not charged.
      expect(attempt.costOverrunMicros).toBeGreaterThan(0n);
      expect((await budgetNow(space.workspaceId)).charged).toBe(reserved);
      expect((await grantSpendNow(space.workspaceId)).get(connectionId)!.used).toBe(reserved);
      expect((await db().capture.findUniqueOrThrow({ where: { id: captureId } })).status).toBe("queued");
      await expectBudgetConsistent(space.workspaceId);
    });
  }

  it("a success is charged what it cost up to its reservation, with the overrun and its event", async () => {
    const { space, captureId, runToken, reserved, connectionId } = await callInFlight();
    await raisePrices(connectionId, 10);
    expect((await succeed(captureId, runToken, Number(reserved) + 700)).kind).toBe("written");
    expect(await db().attempt.findFirstOrThrow({ where: { runToken } })).toMatchObject({ outcome: "succeeded", costMicros: reserved, costOverrunMicros: 700n });
    expect((await db().capture.findUniqueOrThrow({ where: { id: captureId } })).costMicros).toBe(reserved);
    const [overrun] = await db().event.findMany({ where: { captureId, kind: "attempt_cost_overrun" } });
    expect(overrun?.data).toMatchObject({ reservedMicros: Number(reserved), actualMicros: Number(reserved) + 700, chargedMicros: Number(reserved) });
    expect((await budgetNow(space.workspaceId)).charged).toBe(reserved);
    await expectBudgetConsistent(space.workspaceId);
  });
});

describe("a connection edited between a worker's read of it and its claim", () => {
  it("the call claimed after the edit is made, reserved and charged with the edited settings", async () => {
    const space = await newSpace({ prompts: 1 });
    const { captureIds } = await startSpaceCheck(space, { prompts: 1, providers: ["OpenAI API"] });
    const captureId = captureIds[0]!;
    const connectionId = space.connections["OpenAI API"]!;
    const before = await db().providerConnection.findUniqueOrThrow({ where: { id: connectionId } });
    // The worst moment: the worker has read the connection, and claims only after the edit commits.
    const gate = gateAt("run:loaded", (context) => context.captureId === captureId);
    const running = runner.run(captureId);
    await gate.reached;
    await raisePrices(connectionId, 10);
    await updateConnection(connectionId, await connectionInputOf(connectionId, { maxOutputTokens: before.maxOutputTokens - 100 }));
    let reservedDuringCall = -1n;
    actAt("call:after-provider", async () => {
      reservedDuringCall = (await db().attempt.findFirstOrThrow({ where: { captureId } })).reservedMicros;
    });
    gate.open();
    expect(await running).toBe("succeeded");

    const after = await db().providerConnection.findUniqueOrThrow({ where: { id: connectionId } });
    const capture = await db().capture.findUniqueOrThrow({ where: { id: captureId }, include: { promptVersion: true } });
    const [attempt] = await db().attempt.findMany({ where: { captureId } });
    expect(runner.openai.requests.at(-1)!.body.max_output_tokens, "the call asks with the edited output cap").toBe(after.maxOutputTokens);
    const limits = { maxOutputTokens: after.maxOutputTokens, maxSearchCalls: after.maxSearchCalls };
    const price = {
      inputPricePerMTokMicros: Number(after.inputPricePerMTokMicros),
      outputPricePerMTokMicros: Number(after.outputPricePerMTokMicros),
      cachedPricePerMTokMicros: Number(after.cachedPricePerMTokMicros),
      reasoningPricePerMTokMicros: Number(after.reasoningPricePerMTokMicros),
      searchPriceMicros: Number(after.searchPriceMicros),
    };
    expect(reservedDuringCall, "reserved at the edited prices and cap").toBe(BigInt(worstCaseCost(capture.promptVersion.text, capture.searchMode, limits, price)));
    expect(attempt!.costMicros, "charged at the edited prices").toBe(BigInt(costOf(attempt!, price)));
    await expectBudgetConsistent(space.workspaceId);
  });
});
