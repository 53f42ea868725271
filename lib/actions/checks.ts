"use server";
import { z } from "zod";
import { MARKET_KEY } from "@/lib/analytics/markets";
import { assertCan, canStartCheck, canView } from "@/lib/permissions/permissions";
import type { WorkspaceContext } from "@/lib/permissions/permissions";
import { fieldPaths, workspaceAction } from "@/lib/actions/safe-action";
import { budgetStatus } from "@/lib/billing/budget";
import { cancelCapture, estimateRetry, retryCaptures, type Caller } from "@/lib/checks/cancel-retry";
import { requestCheckCancel, requestCheckRetry } from "@/lib/checks/operations";
import { createCheck, estimateCheck } from "@/lib/checks/create-check";
import { hashRequest } from "@/lib/idempotency";
import { checkProgress } from "@/lib/checks/progress";
import { getCaptureDetail, listChecks } from "@/lib/checks/queries";
import { checkListQuerySchema, startCheckSchema } from "@/lib/checks/schemas";

const caller = (ctx: WorkspaceContext): Caller => ({ workspaceId: ctx.workspace.id, userId: ctx.userId, role: ctx.role });
const checkId = z.object({ checkId: z.uuid("Unknown check") });
const captureId = z.object({ captureId: z.uuid("Unknown capture") });
const progressQuery = checkId.extend({
  page: z.number().int().min(1).max(100_000).default(1),
  /** The `version` of the last answer for this page; omitted for a full answer. */
  version: z.string().max(20_000).nullish(),
  /** Only the prompts of this market (lib/analytics/markets.ts), e.g. "RU:ru". */
  market: z.string().regex(MARKET_KEY, "Use a market like DE:de (country:language, either may be empty)").nullish(),
});
const estimateSchema = startCheckSchema.omit({ idempotencyKey: true });

export const estimateCheckAction = workspaceAction.inputSchema(estimateSchema, fieldPaths).action(async ({ parsedInput, ctx }) => {
  const estimate = await estimateCheck({
    workspaceId: ctx.workspace.id,
    brandId: parsedInput.brandId,
    prompts: parsedInput.prompts,
    providers: { ids: parsedInput.providerConfigIds },
    samples: parsedInput.samples,
  });
  return { ...estimate, budget: await budgetStatus(ctx.workspace.id) };
});

export const startCheckAction = workspaceAction.inputSchema(startCheckSchema, fieldPaths).action(async ({ parsedInput, ctx }) => {
  assertCan(canStartCheck(ctx), "Viewers cannot start checks.");
  const { idempotencyKey, ...request } = parsedInput;
  return createCheck({
    workspaceId: ctx.workspace.id,
    idempotencyKey,
    requestHash: hashRequest(request),
    brandId: request.brandId,
    prompts: request.prompts,
    providers: { ids: request.providerConfigIds },
    samples: request.samples,
    startedById: ctx.userId,
  });
});

export const listChecksAction = workspaceAction
  .inputSchema(checkListQuerySchema, fieldPaths)
  .action(async ({ parsedInput, ctx }) => listChecks(ctx.workspace.id, parsedInput));

/** The check page's poll: what changed on one page of the grid since `version` (lib/checks/progress.ts). */
export const checkProgressAction = workspaceAction.inputSchema(progressQuery, fieldPaths).action(async ({ parsedInput, ctx }) => {
  assertCan(canView(ctx));
  return checkProgress(ctx.workspace.id, parsedInput.checkId, parsedInput);
});

export const captureDetailAction = workspaceAction
  .inputSchema(captureId, fieldPaths)
  .action(async ({ parsedInput, ctx }) => getCaptureDetail(ctx.workspace.id, parsedInput.captureId));

/** Records the cancel and answers at once; a worker runs it, and the check's poll shows it (lib/checks/operations.ts). */
export const cancelCheckAction = workspaceAction
  .inputSchema(checkId, fieldPaths)
  .action(async ({ parsedInput, ctx }) => requestCheckCancel(caller(ctx), parsedInput.checkId));

export const cancelCaptureAction = workspaceAction
  .inputSchema(captureId, fieldPaths)
  .action(async ({ parsedInput, ctx }) => cancelCapture(caller(ctx), parsedInput.captureId));

export const retryCaptureAction = workspaceAction
  .inputSchema(captureId, fieldPaths)
  .action(async ({ parsedInput, ctx }) => retryCaptures(caller(ctx), { captureId: parsedInput.captureId }));

/** Records the retry and answers at once; a worker runs it, and the check's poll shows it (lib/checks/operations.ts). */
export const retryFailedCapturesAction = workspaceAction
  .inputSchema(checkId, fieldPaths)
  .action(async ({ parsedInput, ctx }) => requestCheckRetry(caller(ctx), parsedInput.checkId));

/** What the retry dialog shows before asking: captures to run again, their estimate, the budget left. */
export const estimateRetryAction = workspaceAction
  .inputSchema(checkId, fieldPaths)
  .action(async ({ parsedInput, ctx }) => estimateRetry(caller(ctx), parsedInput.checkId));
