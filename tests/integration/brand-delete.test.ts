// Deleting a brand beside a check being started for it. A brand with checks in its history may
// not be deleted (its checks, captures and their money cascade with it), and the refusal must
// hold when the two race: a check created between the delete's count and its delete used to be
// erased with the brand, with its captures queued or running and their budget holds left
// behind in the month's ledger. Both orders, each held at its worst moment.
import { describe, expect, it } from "vitest";
import { budgetNow, expectBudgetConsistent, newSpace, startSpaceCheck } from "../support/lifecycle-fixtures";
import { gateAt, waitForLockWaiter } from "../support/pause";
import { deleteBrand } from "@/lib/brands/brands";
import { db } from "@/lib/db/prisma";

/** Settles `promise` or sees it wait for a lock, whichever comes first (one of the two sides must wait for the other). */
async function settledOrWaiting<T>(promise: Promise<T>): Promise<void> {
  await Promise.race([promise.then(() => undefined, () => undefined), waitForLockWaiter(1)]);
}

async function brandAndChecks(workspaceId: string) {
  const brands = await db().brand.count({ where: { workspaceId } });
  const checks = await db().check.findMany({ where: { workspaceId }, select: { id: true, _count: { select: { captures: true } } } });
  return { brands, checks };
}

describe("deleting a brand while a check is started for it", () => {
  it("does not erase a check started after the delete counted the brand's checks: the check finds no brand, or the delete is refused", async () => {
    const space = await newSpace({ prompts: 2, budgetMicros: 50_000_000 });
    const brand = await db().brand.findFirstOrThrow({ where: { workspaceId: space.workspaceId } });

    const gate = gateAt("brand:delete-before-commit");
    const deleting = deleteBrand(space.workspaceId, brand.id);
    await gate.reached; // counted no check; the brand not deleted yet
    const starting = startSpaceCheck(space, { prompts: 2, providers: ["ChatGPT", "Claude"] });
    await settledOrWaiting(starting);
    gate.open();
    const [deleted, started] = await Promise.allSettled([deleting, starting]);

    const { brands, checks } = await brandAndChecks(space.workspaceId);
    if (started.status === "fulfilled") {
      // The check exists, whole, and so does its brand.
      expect(deleted.status, "the delete, with a check started for the brand").toBe("rejected");
      expect(brands).toBe(1);
      expect(checks.map((c) => c._count.captures)).toEqual([4]);
    } else {
      expect(deleted.status).toBe("fulfilled");
      expect(String((started as PromiseRejectedResult).reason)).toMatch(/brand/i);
      expect(brands).toBe(0);
      expect(checks).toEqual([]);
      expect((await budgetNow(space.workspaceId)).reserved, "nothing held for a check that was not created").toBe(0n);
    }
    await expectBudgetConsistent(space.workspaceId);
  });

  it("does not erase a check whose creation has not committed yet when the delete starts: the delete is refused once it commits", async () => {
    const space = await newSpace({ prompts: 2, budgetMicros: 50_000_000 });
    const brand = await db().brand.findFirstOrThrow({ where: { workspaceId: space.workspaceId } });

    const gate = gateAt("check:create-before-commit");
    const starting = startSpaceCheck(space, { prompts: 2, providers: ["ChatGPT", "Claude"] });
    await gate.reached; // the check and its captures written and held, not committed
    const deleting = deleteBrand(space.workspaceId, brand.id);
    await settledOrWaiting(deleting);
    gate.open();
    const [deleted, started] = await Promise.allSettled([deleting, starting]);

    expect(started.status).toBe("fulfilled");
    expect(deleted.status, "the delete of a brand with a check").toBe("rejected");
    expect(String((deleted as PromiseRejectedResult).reason)).toContain("has 1 check(s) in its history");
    const { brands, checks } = await brandAndChecks(space.workspaceId);
    expect(brands).toBe(1);
    expect(checks.map((c) => c._count.captures)).toEqual([4]);
    await expectBudgetConsistent(space.workspaceId);
  });
});
