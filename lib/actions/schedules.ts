"use server";
import { assertCan, canManageSchedules } from "@/lib/permissions/permissions";
import { fieldPaths, workspaceAction } from "@/lib/actions/safe-action";
import { createSchedule, deleteSchedule, listSchedules, pauseSchedule, resumeSchedule, updateSchedule } from "@/lib/schedules/schedules";
import { scheduleIdSchema, scheduleInputSchema, updateScheduleSchema } from "@/lib/schedules/schemas";

export const listSchedulesAction = workspaceAction.action(async ({ ctx }) => listSchedules(ctx.workspace.id));

export const createScheduleAction = workspaceAction.inputSchema(scheduleInputSchema, fieldPaths).action(async ({ parsedInput, ctx }) => {
  assertCan(canManageSchedules(ctx), "Viewers cannot create schedules.");
  return createSchedule(ctx.workspace.id, ctx.userId, parsedInput);
});

export const updateScheduleAction = workspaceAction.inputSchema(updateScheduleSchema, fieldPaths).action(async ({ parsedInput, ctx }) => {
  assertCan(canManageSchedules(ctx), "Viewers cannot change schedules.");
  return updateSchedule(ctx.workspace.id, parsedInput.scheduleId, parsedInput.schedule, ctx.userId, parsedInput.version);
});

export const pauseScheduleAction = workspaceAction.inputSchema(scheduleIdSchema, fieldPaths).action(async ({ parsedInput, ctx }) => {
  assertCan(canManageSchedules(ctx), "Viewers cannot pause schedules.");
  await pauseSchedule(ctx.workspace.id, parsedInput.scheduleId);
});

export const resumeScheduleAction = workspaceAction.inputSchema(scheduleIdSchema, fieldPaths).action(async ({ parsedInput, ctx }) => {
  assertCan(canManageSchedules(ctx), "Viewers cannot resume schedules.");
  await resumeSchedule(ctx.workspace.id, parsedInput.scheduleId, ctx.userId);
});

export const deleteScheduleAction = workspaceAction.inputSchema(scheduleIdSchema, fieldPaths).action(async ({ parsedInput, ctx }) => {
  assertCan(canManageSchedules(ctx), "Viewers cannot delete schedules.");
  await deleteSchedule(ctx.workspace.id, parsedInput.scheduleId);
});
