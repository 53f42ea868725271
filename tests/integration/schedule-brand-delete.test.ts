// A brand deleted while one of its schedules runs (the brands page beside the minute's schedules
// task). The run holds its schedule's row until the check it asks createCheck for has committed,
// and createCheck holds the brand key-shared. A delete that locked the brand first and then
// reached the schedule (its cascade) waited for the run while the run's check waited for it: a
// deadlock through the application that PostgreSQL cannot see, ended only when the run's idle
// session was killed 15 s later, the brand gone and the schedule's run failed. The delete now
// takes the brand's schedules before the brand, in the run's order.
import { describe, expect, it } from "vitest";
import { newSpace } from "../support/lifecycle-fixtures";
import { gateAt, waitForLockWaiter } from "../support/pause";
import { deleteBrand } from "@/lib/brands/brands";
import { db } from "@/lib/db/prisma";
import { runDueSchedules } from "@/lib/schedules/run-due";
import { createSchedule } from "@/lib/schedules/schedules";
import { scheduleInputSchema } from "@/lib/schedules/schemas";

/** A new space's brand with a daily schedule on ChatGPT that is due now. */
async function dueSchedule() {
  const space = await newSpace({ prompts: 1 });
  const brand = await db().brand.findFirstOrThrow({ where: { workspaceId: space.workspaceId } });
  const input = { name: "Daily", brandId: brand.id, prompts: { mode: "all" }, providerConfigIds: [space.providers.ChatGPT], samples: 1, cadence: "daily", weekday: null, minuteOfDay: 540 };
  const schedule = await createSchedule(space.workspaceId, space.owner.userId, scheduleInputSchema.parse(input));
  await db().schedule.update({ where: { id: schedule.id }, data: { nextRunAt: new Date(Date.now() - 60_000) } });
  return { space, brand, schedule };
}

describe("a brand deleted while its schedule runs", () => {
  it("waits for the run's check, then is refused because the brand now has a check; the run succeeds", async () => {
    const { space, brand, schedule } = await dueSchedule();

    // The run has claimed its schedule and not yet asked for the check; the delete comes now.
    const gate = gateAt("schedule:claimed");
    const run = runDueSchedules();
    await gate.reached;
    const deletion = deleteBrand(space.workspaceId, brand.id).then(
      () => "deleted",
      (error: Error) => error.message,
    );
    await waitForLockWaiter();
    gate.open();

    const runs = await run;
    expect(runs).toEqual([expect.objectContaining({ scheduleId: schedule.id, outcome: "created" })]);
    expect(await deletion).toMatch(/has 1 check\(s\) in its history and cannot be deleted/);
    expect(await db().brand.count({ where: { id: brand.id } })).toBe(1);
    expect(await db().check.count({ where: { scheduleId: schedule.id } })).toBe(1);
  });
});

describe("a schedule's run", () => {
  it("is not ended by the session's 15 s idle limit while it waits for its check: its claim lasts the run's time limit", async () => {
    await dueSchedule();
    const gate = gateAt("schedule:claimed");
    const run = runDueSchedules();
    const { tx } = await gate.reached;
    const [idle] = await tx!.$queryRaw<{ idle_in_transaction_session_timeout: string }[]>`SHOW idle_in_transaction_session_timeout`;
    gate.open();
    expect(idle?.idle_in_transaction_session_timeout).toBe("2min");
    expect(await run).toEqual([expect.objectContaining({ outcome: "created" })]);
  });
});
