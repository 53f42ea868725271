"use server";
import { z } from "zod";
import { assertCan, canManageWorkspaceSettings } from "@/lib/permissions/permissions";
import { fieldPaths, workspaceAction } from "@/lib/actions/safe-action";
import { forceBreaker } from "@/lib/breaker/breaker";
import { listBreakers } from "@/lib/breaker/queries";
import { canManageInstance, isOperator } from "@/lib/instance/operators";
import { CAPTURE_STATUSES } from "@/lib/captures/states";
import { NotFoundError } from "@/lib/errors";
import { listCapturesForAdmin, queueStats, workersOverviewFor } from "@/lib/admin/jobs-page";

const adminsOnly = "Only owners and admins can see the jobs page.";

export const adminCapturesAction = workspaceAction
  .inputSchema(
    z.object({
      status: z.enum(CAPTURE_STATUSES).optional(),
      providerConfigId: z.uuid().optional(),
      checkId: z.uuid().optional(),
      page: z.number().int().min(1).max(100_000).default(1),
      pageSize: z.number().int().min(5).max(100).default(25),
    }),
    fieldPaths,
  )
  .action(async ({ parsedInput, ctx }) => {
    assertCan(canManageWorkspaceSettings(ctx), adminsOnly);
    return listCapturesForAdmin(ctx.workspace.id, parsedInput);
  });

export const adminOverviewAction = workspaceAction.action(async ({ ctx }) => {
  assertCan(canManageWorkspaceSettings(ctx), adminsOnly);
  const [queue, workers] = await Promise.all([queueStats(ctx.workspace.id), workersOverviewFor({ isOperator: await isOperator(ctx.user.id) })]);
  return { queue, workers };
});

export const breakersAction = workspaceAction.action(async ({ ctx }) => {
  assertCan(canManageWorkspaceSettings(ctx), adminsOnly);
  return { breakers: await listBreakers({ workspaceId: ctx.workspace.id }), canForce: await isOperator(ctx.user.id) };
});

/** Breakers are shared by every workspace on the connection: only operators force them. */
export const forceBreakerAction = workspaceAction
  .inputSchema(z.object({ connectionId: z.uuid(), model: z.string().min(1).max(200), forced: z.enum(["open", "closed"]).nullable() }), fieldPaths)
  .action(async ({ parsedInput, ctx }) => {
    assertCan(canManageInstance({ isOperator: await isOperator(ctx.user.id) }), "Only operators can force a breaker: it is shared by every workspace on the connection.");
    if (!(await forceBreaker({ connectionId: parsedInput.connectionId, model: parsedInput.model }, parsedInput.forced))) throw new NotFoundError("That connection does not exist.");
    return { ok: true };
  });
