// A schedule's run that fails for a reason of the database's or ours (no connection in time, a
// deadlock past its retries, a bug), not the schedule's (over budget, a provider off, no prompts
// left), keeps its slot: the next minute's pass tries it again with the same idempotency key, for
// up to SLOT_RETRY_MS after the slot, and only then moves on. Before, such a day had no check.
import { describe, expect, it } from "vitest";
import { newSpace } from "../support/lifecycle-fixtures";
import { actAt } from "../support/pause";
import { db } from "@/lib/db/prisma";
import { runDueSchedules, SLOT_RETRY_MS } from "@/lib/schedules/run-due";
import { createSchedule } from "@/lib/schedules/schedules";
import { scheduleInputSchema } from "@/lib/schedules/schemas";

async function dueSchedule(dueForMs: number) {
  const space = await newSpace({ prompts: 1 });
  const brand = await db().brand.findFirstOrThrow({ where: { workspaceId: space.workspaceId } });
  const input = { name: "Daily", brandId: brand.id, prompts: { mode: "all" }, providerConfigIds: [space.providers.ChatGPT], samples: 1, cadence: "daily", weekday: null, minuteOfDay: 540 };
  const schedule = await createSchedule(space.workspaceId, space.owner.userId, scheduleInputSchema.parse(input));
  const slot = new Date(Date.now() - dueForMs);
  await db().schedule.update({ where: { id: schedule.id }, data: { nextRunAt: slot } });
  return { id: schedule.id, slot };
}

const runOf = (runs: Awaited<ReturnType<typeof runDueSchedules>>, id: string) => runs.find((r) => r.scheduleId === id);

describe("a schedule's run that fails for an unexpected reason", () => {
  it("keeps its slot: the next pass makes the slot's check", async () => {
    const { id, slot } = await dueSchedule(60_000);
    actAt("check:create-after-read", () => {
      throw new Error("Connection terminated unexpectedly");
    });
    expect(runOf(await runDueSchedules(), id)).toMatchObject({ outcome: "failed", message: expect.stringMatching(/tried again/) });
    expect((await db().schedule.findUniqueOrThrow({ where: { id } })).nextRunAt).toEqual(slot);

    const next = runOf(await runDueSchedules(), id);
    expect(next).toMatchObject({ outcome: "created", slot });
    expect(await db().check.count({ where: { scheduleId: id } })).toBe(1);
    expect((await db().schedule.findUniqueOrThrow({ where: { id } })).nextRunAt.getTime()).toBeGreaterThan(Date.now());
  });

  it("moves on once the slot is older than the retry window", async () => {
    const { id } = await dueSchedule(SLOT_RETRY_MS + 60_000);
    actAt("check:create-after-read", () => {
      throw new Error("Connection terminated unexpectedly");
    });
    expect(runOf(await runDueSchedules(), id)).toMatchObject({ outcome: "failed" });
    expect((await db().schedule.findUniqueOrThrow({ where: { id } })).nextRunAt.getTime()).toBeGreaterThan(Date.now());
    expect(await db().check.count({ where: { scheduleId: id } })).toBe(0);
  });
});
