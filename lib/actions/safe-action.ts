import "server-only";
import { randomUUID } from "node:crypto";
import { createSafeActionClient } from "next-safe-action";
import { requireWorkspaceContext } from "@/lib/auth/session";
import { assertCan } from "@/lib/permissions/permissions";
import { UserError } from "@/lib/errors";
import { deletedMeanwhile } from "@/lib/db/sqlstate";
import { canManageInstance, isOperator } from "@/lib/instance/operators";

/** What the browser receives as `result.serverError`. */
export type ActionError = { message: string; field?: string; code: string };

/**
 * Actions for signed-out visitors (sign in, sign up). A UserError's message reaches the user;
 * anything else is logged with a request id and the user gets only that id.
 */
export const publicAction = createSafeActionClient({
  handleServerError(error): ActionError {
    if (error instanceof UserError) return { message: error.message, field: error.field, code: error.code };
    const requestId = randomUUID().slice(0, 8);
    const raced = deletedMeanwhile(error);
    if (raced) {
      // Logged too: a wrong id in the code reads the same way as a race, and must stay visible.
      console.warn(`[action] request ${requestId}: a row it changes or names is gone (${raced.code}):`, error);
      return { message: raced.message, code: raced.code };
    }
    console.error(`[action] request ${requestId} failed:`, error);
    return { message: `Something went wrong on our side (request ${requestId}). Please try again.`, code: "internal" };
  },
});

/** Actions inside a workspace: the session, workspace and role are loaded before the input is used. */
export const workspaceAction = publicAction.use(async ({ next }) => next({ ctx: await requireWorkspaceContext() }));

/** Instance administration (provider connections, grants, operators): operators only, whatever the workspace. */
export const operatorAction = workspaceAction.use(async ({ next, ctx }) => {
  assertCan(canManageInstance({ isOperator: await isOperator(ctx.user.id) }), "Only operators (the instance's admins) can do that.");
  return next({ ctx });
});

/** Validation errors as the browser gets them: messages keyed by dotted field path ("competitors.2.name"). */
export type DottedValidationErrors = { formErrors: string[]; fieldErrors: Record<string, string[]> };

type ErrorTree = { _errors?: string[]; [key: string]: unknown };

function dotted(tree: unknown): DottedValidationErrors {
  const result: DottedValidationErrors = { formErrors: [], fieldErrors: {} };
  const walk = (node: ErrorTree, path: string[]) => {
    for (const [key, value] of Object.entries(node)) {
      if (key === "_errors") {
        const messages = (value as string[]) ?? [];
        if (!messages.length) continue;
        if (path.length) (result.fieldErrors[path.join(".")] ??= []).push(...messages);
        else result.formErrors.push(...messages);
      } else if (value && typeof value === "object") walk(value as ErrorTree, [...path, key]);
    }
  };
  walk((tree ?? {}) as ErrorTree, []);
  return result;
}

/**
 * Pass as the second argument of `.inputSchema()`: next-safe-action's own flattened shape keeps
 * only top-level fields, and forms need nested ones (a competitor's domain, a prompt in a list).
 */
export const fieldPaths = { handleValidationErrorsShape: async (errors: unknown) => dotted(errors) };
