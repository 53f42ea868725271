// The money rule (SQL beacon_fits: charged + in use + amount <= limit, no limit: always) at its
// boundary, through each function that applies it: beacon_budget_add for a check's hold and for
// a call's worst case, beacon_grant_add for a grant's limit, beacon_call_would_fit read only. Each
// counts every shard of the month, and what lib/billing/budget.ts reports as left is what fits.
import { beforeEach, describe, expect, it } from "vitest";
import { newSpace, type Space } from "../support/lifecycle-fixtures";
import { budgetStatus, moneyLeft } from "@/lib/billing/budget";
import { db } from "@/lib/db/prisma";
import type { Prisma } from "@/lib/generated/prisma/client";

type Tx = Prisma.TransactionClient;

let space: Space;
let connectionId: string;

beforeEach(async () => {
  space = await newSpace({ prompts: 1 });
  connectionId = space.connections["OpenAI API"]!;
});

/** Runs `body` in a transaction that is rolled back: what it adds leaves no trace for the repair pass. */
async function rolledBack(body: (tx: Tx) => Promise<void>) {
  const rollback = new Error("rollback");
  await db()
    .$transaction(async (tx) => {
      await body(tx);
      throw rollback;
    })
    .catch((error: unknown) => {
      if (error !== rollback) throw error;
    });
}

async function budgetAdd(tx: Tx, inFlight: boolean, amount: bigint): Promise<Date | null> {
  const [row] = await tx.$queryRaw<{ month: Date | null }[]>`SELECT beacon_budget_add(${space.workspaceId}::uuid, ${inFlight}, ${amount}::bigint) AS month`;
  return row!.month;
}

async function grantAdd(tx: Tx, amount: bigint): Promise<Date | null> {
  const [row] = await tx.$queryRaw<{ month: Date | null }[]>`SELECT beacon_grant_add(${connectionId}::uuid, ${space.workspaceId}::uuid, ${amount}::bigint) AS month`;
  return row!.month;
}

async function wouldFit(tx: Tx, worst: bigint): Promise<boolean> {
  const [row] = await tx.$queryRaw<{ fits: boolean }[]>`SELECT beacon_call_would_fit(${space.workspaceId}::uuid, ${connectionId}::uuid, ${worst}::bigint) AS fits`;
  return row!.fits;
}

/** This month's ledgers with something on a shard other than the admission row. */
async function spend(tx: Tx, limits: { budget: bigint | null; grant: bigint | null }) {
  await tx.workspace.update({ where: { id: space.workspaceId }, data: { monthlyBudgetMicros: limits.budget } });
  await tx.connectionGrant.update({ where: { connectionId_workspaceId: { connectionId, workspaceId: space.workspaceId } }, data: { monthlySpendLimitMicros: limits.grant } });
  await tx.$executeRaw`
    INSERT INTO budget_periods ("workspaceId", "periodStart", shard, "reservedMicros", "inFlightMicros", "chargedMicros", "updatedAt")
    VALUES (${space.workspaceId}::uuid, beacon_month(), 3, 10, 20, 30, now())`;
  await tx.$executeRaw`
    INSERT INTO grant_spend_periods ("connectionId", "workspaceId", "periodStart", shard, "inFlightMicros", "chargedMicros", "updatedAt")
    VALUES (${connectionId}::uuid, ${space.workspaceId}::uuid, beacon_month(), 2, 5, 5, now())`;
}

describe("the money rule", () => {
  it("admits a hold up to what is left to the micro-dollar, and not one more", async () => {
    await rolledBack(async (tx) => {
      await spend(tx, { budget: 100n, grant: null });
      const status = await budgetStatus(space.workspaceId, tx);
      // Charged 30 and held 10 of 100: 60 left for a check.
      expect(status.leftMicros).toBe(60);
      expect(await budgetAdd(tx, false, 61n), "one over").toBeNull();
      expect(await budgetAdd(tx, false, 60n), "exactly what is left").toEqual(status.period);
      expect((await budgetStatus(space.workspaceId, tx)).leftMicros).toBe(0);
      expect(await budgetAdd(tx, false, 1n)).toBeNull();
      expect(await budgetAdd(tx, false, 0n), "nothing always fits").toEqual(status.period);
    });
  });

  it("admits a call's worst case up to what is left of the budget, read only and for real alike", async () => {
    await rolledBack(async (tx) => {
      await spend(tx, { budget: 100n, grant: null });
      // Charged 30 and 20 in flight of 100: 50 left for a call (the holds do not count).
      expect(moneyLeft(await budgetStatus(space.workspaceId, tx), "call")).toBe(50);
      expect(await wouldFit(tx, 51n)).toBe(false);
      expect(await budgetAdd(tx, true, 51n)).toBeNull();
      expect(await wouldFit(tx, 50n)).toBe(true);
      expect(await budgetAdd(tx, true, 50n)).not.toBeNull();
      expect(moneyLeft(await budgetStatus(space.workspaceId, tx), "call")).toBe(0);
      expect(await wouldFit(tx, 1n)).toBe(false);
    });
  });

  it("admits a call up to what is left of the grant's limit", async () => {
    await rolledBack(async (tx) => {
      await spend(tx, { budget: null, grant: 70n });
      // Charged 5 and 5 in flight of 70: 60 left on the grant.
      expect(await wouldFit(tx, 61n)).toBe(false);
      expect(await grantAdd(tx, 61n)).toBeNull();
      expect(await wouldFit(tx, 60n)).toBe(true);
      expect(await grantAdd(tx, 60n)).not.toBeNull();
      expect(await wouldFit(tx, 1n)).toBe(false);
      expect(await grantAdd(tx, 1n)).toBeNull();
    });
  });

  it("admits anything without a limit", async () => {
    await rolledBack(async (tx) => {
      await spend(tx, { budget: null, grant: null });
      const huge = 1n << 50n;
      expect((await budgetStatus(space.workspaceId, tx)).leftMicros).toBeNull();
      expect(await wouldFit(tx, huge)).toBe(true);
      expect(await budgetAdd(tx, false, huge)).not.toBeNull();
      expect(await budgetAdd(tx, true, huge)).not.toBeNull();
      expect(await grantAdd(tx, huge)).not.toBeNull();
    });
  });
});
