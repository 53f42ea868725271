// A schedule spends at every slot with no one acting (its checks have no actor), so the member who
// saves or resumes one is read again as it is written (actorNow, as a check's start does): one
// removed or made a viewer after the action's check saves nothing, changes nothing and resumes
// nothing. The action has read the role by then; the change lands before the write.
import { describe, expect, it } from "vitest";
import { newSpace } from "../support/lifecycle-fixtures";
import { ROLE_LOSSES } from "../support/workspace-fixtures";
import { db } from "@/lib/db/prisma";
import { createSchedule, pauseSchedule, resumeSchedule, updateSchedule } from "@/lib/schedules/schedules";
import { scheduleInputSchema } from "@/lib/schedules/schemas";

describe("the member's role, read again as a schedule is written", () => {
  it.each(ROLE_LOSSES)("a member %s after the action's check saves, changes and resumes no schedule", async (_, change) => {
    const space = await newSpace({ prompts: 1 });
    const ownerId = space.owner.userId!;
    const brand = await db().brand.findFirstOrThrow({ where: { workspaceId: space.workspaceId } });
    const input = scheduleInputSchema.parse({ name: "Daily", brandId: brand.id, prompts: { mode: "all" }, providerConfigIds: [space.providers.ChatGPT], samples: 1, cadence: "daily", weekday: null, minuteOfDay: 540 });
    const kept = await createSchedule(space.workspaceId, ownerId, input);
    await pauseSchedule(space.workspaceId, kept.id);

    await change(space.workspaceId, ownerId);
    await expect(createSchedule(space.workspaceId, ownerId, { ...input, name: "Another" })).rejects.toMatchObject({ code: "forbidden" });
    await expect(updateSchedule(space.workspaceId, kept.id, { ...input, name: "Renamed", samples: 3 }, ownerId)).rejects.toMatchObject({ code: "forbidden" });
    await expect(resumeSchedule(space.workspaceId, kept.id, ownerId)).rejects.toMatchObject({ code: "forbidden" });
    const schedules = await db().schedule.findMany({ where: { workspaceId: space.workspaceId } });
    expect(schedules.map((s) => [s.name, s.samples, s.paused])).toEqual([["Daily", 1, true]]);
  });
});
