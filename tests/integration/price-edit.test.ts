// A connection's prices raised while a call runs (the Instance page's edit, updateConnection)
// crossing the lifecycle's money: the call reserved its worst case at the prices of its claim, and
// whatever ends it (its own success, the sweeper finding its lease expired or its run abandoned) charges at
// most that reservation (DESIGN.md "Money": charged never exceeds the budget). An estimate read at
// the new prices used to be charged whole: past the reservation, so past the budget and the grant's
// limit it was admitted under.
import { beforeAll, describe, expect, it } from "vitest";
import { budgetNow, claimed, connectionInputOf, expectBudgetConsistent, grantSpendNow, liveWorker, newSpace, startSpaceCheck, succeed } from "../support/lifecycle-fixtures";
import { updateConnection } from "@/lib/connections/connections";
import { db } from "@/lib/db/prisma";
import { expireAttempt } from "@/lib/lifecycle/lease";

let workerId: string;

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
