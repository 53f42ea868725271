import "server-only";
import { randomUUID } from "node:crypto";
import { createSafeActionClient } from "next-safe-action";
import { requireWorkspaceContext } from "@/lib/auth/session";
import { UserError } from "@/lib/errors";

/** What the browser receives as `result.serverError`. */
export type ActionError = { message: string; field?: string; code: string };

/**
 * Actions for signed-out visitors (sign in, sign up). A UserError's message reaches the user;
 * anything else is logged with a request id and the user gets only that id.
 */
export const publicAction = createSafeActionClient({
  defaultValidationErrorsShape: "flattened",
  handleServerError(error): ActionError {
    if (error instanceof UserError) return { message: error.message, field: error.field, code: error.code };
    const requestId = randomUUID().slice(0, 8);
    console.error(`[action] request ${requestId} failed:`, error);
    return { message: `Something went wrong on our side (request ${requestId}). Please try again.`, code: "internal" };
  },
});

/** Actions inside a workspace: the session, workspace and role are loaded before the input is used. */
export const workspaceAction = publicAction.use(async ({ next }) => next({ ctx: await requireWorkspaceContext() }));
