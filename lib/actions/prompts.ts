"use server";
import { z } from "zod";
import { assertCan, canEditTrackingSetup } from "@/lib/permissions/permissions";
import { fieldPaths, workspaceAction } from "@/lib/actions/safe-action";
import { editedAt } from "@/lib/validation/edit-version";
import { bulkCreatePrompts, createPrompt, listPrompts, updatePrompt } from "@/lib/prompts/prompts";
import { bulkPromptsSchema, promptInputSchema, promptListQuerySchema } from "@/lib/prompts/schemas";
import { archivePrompts } from "@/lib/schedules/schedules";

export const listPromptsAction = workspaceAction
  .inputSchema(promptListQuerySchema, fieldPaths)
  .action(async ({ parsedInput, ctx }) => listPrompts(ctx.workspace.id, parsedInput));

export const createPromptAction = workspaceAction.inputSchema(promptInputSchema, fieldPaths).action(async ({ parsedInput, ctx }) => {
  assertCan(canEditTrackingSetup(ctx), "Viewers cannot add prompts.");
  const prompt = await createPrompt(ctx.workspace.id, parsedInput);
  return { id: prompt.id };
});

export const updatePromptAction = workspaceAction
  .inputSchema(z.object({ promptId: z.uuid(), prompt: promptInputSchema, version: editedAt }), fieldPaths)
  .action(async ({ parsedInput, ctx }) => {
    assertCan(canEditTrackingSetup(ctx), "Viewers cannot change prompts.");
    await updatePrompt(ctx.workspace.id, parsedInput.promptId, parsedInput.prompt, { version: parsedInput.version });
    return { id: parsedInput.promptId };
  });

export const bulkCreatePromptsAction = workspaceAction.inputSchema(bulkPromptsSchema, fieldPaths).action(async ({ parsedInput, ctx }) => {
  assertCan(canEditTrackingSetup(ctx), "Viewers cannot add prompts.");
  return bulkCreatePrompts(ctx.workspace.id, parsedInput.lines, parsedInput.tags);
});

export const deletePromptsAction = workspaceAction
  .inputSchema(z.object({ promptIds: z.array(z.uuid()).min(1, "Pick at least one prompt").max(500) }), fieldPaths)
  .action(async ({ parsedInput, ctx }) => {
    assertCan(canEditTrackingSetup(ctx), "Viewers cannot delete prompts.");
    return archivePrompts(ctx.workspace.id, parsedInput.promptIds);
  });
