"use server";
import { z } from "zod";
import { assertCan, canRunSetup, canView } from "@/lib/permissions/permissions";
import { fieldPaths, workspaceAction } from "@/lib/actions/safe-action";
import { acceptSetup } from "@/lib/setup/accept";
import { acceptSetupSchema, startSetupSchema } from "@/lib/setup/schemas";
import { getSetupSuggestion, requestSetupSuggestions } from "@/lib/setup/suggestions";

const NOT_ALLOWED = "Setting up a workspace creates its brand and prompts and starts a check: ask a member, admin or owner to do it.";

/** Step 1: stores the request and queues the call that writes the suggestions (charged to the budget). */
export const requestSetupSuggestionsAction = workspaceAction.inputSchema(startSetupSchema, fieldPaths).action(async ({ parsedInput, ctx }) => {
  assertCan(canRunSetup(ctx), NOT_ALLOWED);
  return requestSetupSuggestions({ workspaceId: ctx.workspace.id, userId: ctx.userId, ...parsedInput });
});

/** The wizard's poll while the suggestions are written. */
export const setupSuggestionAction = workspaceAction
  .inputSchema(z.object({ suggestionId: z.uuid("Unknown suggestion") }), fieldPaths)
  .action(async ({ parsedInput, ctx }) => {
    assertCan(canView(ctx));
    return getSetupSuggestion(ctx.workspace.id, parsedInput.suggestionId);
  });

/** Step 2: the brand, competitors, prompts and the first check, in one transaction; a repeat returns the same check. */
export const acceptSetupAction = workspaceAction.inputSchema(acceptSetupSchema, fieldPaths).action(async ({ parsedInput, ctx }) => {
  assertCan(canRunSetup(ctx), NOT_ALLOWED);
  return acceptSetup(ctx.workspace.id, ctx.userId, parsedInput);
});
