// The Jobs page polls its list while the workspace has work to end, or while a row it shows is
// unfinished (listPollsAgain). A filtered view (here: cancelled) shows no unfinished row, so its
// answer must not say "idle" beside rows read before that work ended: the answer that stops the
// polls would show the list as it was. Held between the list's reads while the work ends.
import { describe, expect, it } from "vitest";
import { newSpace, startSpaceCheck } from "../support/lifecycle-fixtures";
import { listCapturesForAdmin } from "@/lib/admin/jobs-page";
import { listPollsAgain } from "@/lib/admin/jobs-polling";
import { onPausePoint } from "@/lib/db/pause-points";
import { cancelCheckNow } from "../support/check-fixtures";

describe("the Jobs page's list", () => {
  it("never answers so that its polls stop beside rows from before the work ended: a read held while a check is cancelled", async () => {
    const space = await newSpace({ prompts: 2 });
    const { checkId } = await startSpaceCheck(space, { prompts: 2 });
    const filters = { status: "cancelled" as const, page: 1, pageSize: 25 };
    const before = await listCapturesForAdmin(space.workspaceId, filters);
    expect([before.items, before.busy]).toEqual([[], true]);

    let ran = false;
    const release = onPausePoint("jobs:between-reads", async () => {
      if (ran) return;
      ran = true;
      await cancelCheckNow(space.owner, checkId);
    });
    try {
      const answer = await listCapturesForAdmin(space.workspaceId, filters);
      expect(ran).toBe(true);
      const now = await listCapturesForAdmin(space.workspaceId, filters);
      expect(now.items.map((c) => c.status)).toEqual(["cancelled", "cancelled"]);
      const sameRows = JSON.stringify(answer.items.map((c) => c.id)) === JSON.stringify(now.items.map((c) => c.id));
      expect(listPollsAgain(answer) || sameRows, "an answer that stops the polls shows the list as it stays").toBe(true);
      expect(listPollsAgain(now), "nothing left to end").toBe(false);
    } finally {
      release();
    }
  });
});
