"use server";
import { z } from "zod";
import { editedAt } from "@/lib/validation/edit-version";
import { fieldPaths, operatorAction, workspaceAction } from "@/lib/actions/safe-action";
import { listBreakers } from "@/lib/breaker/queries";
import {
  createConnection,
  grantConnection,
  listConnections,
  listWorkspacesForGrants,
  revokeConnection,
  testConnection,
  updateConnection,
} from "@/lib/connections/connections";
import { grantOperator, isOperator, listOperators } from "@/lib/instance/operators";
import { connectionInputSchema } from "@/lib/providers/registry";
import { grantInputSchema } from "@/lib/providers/schemas";
import { text } from "@/lib/validation/text";

// The Instance page: operators manage the provider connections, who may use them, and who else
// is an operator. Every action here is `operatorAction` (lib/actions/safe-action.ts).

/** Whether the signed-in user is an operator (to show the Instance page in the navigation). */
export const amIOperatorAction = workspaceAction.action(async ({ ctx }) => ({ operator: await isOperator(ctx.user.id) }));

export const instanceOverviewAction = operatorAction.action(async () => {
  const [connections, workspaces, operators, breakers] = await Promise.all([listConnections(), listWorkspacesForGrants(), listOperators(), listBreakers("instance")]);
  return {
    connections: connections.map(({ settings, ...c }) => ({ ...c, settings: settings as Record<string, unknown> })),
    workspaces,
    operators,
    breakers,
  };
});

export const createConnectionAction = operatorAction.inputSchema(connectionInputSchema, fieldPaths).action(async ({ parsedInput }) => createConnection(parsedInput));

export const updateConnectionAction = operatorAction
  // `version`: the connection's updatedAt as the form read it (an edit saved since refuses this one).
  .inputSchema(z.object({ connectionId: z.uuid(), connection: connectionInputSchema, version: editedAt }), fieldPaths)
  .action(async ({ parsedInput }) => {
    await updateConnection(parsedInput.connectionId, parsedInput.connection, { version: parsedInput.version });
    return { id: parsedInput.connectionId };
  });

export const grantConnectionAction = operatorAction.inputSchema(grantInputSchema, fieldPaths).action(async ({ parsedInput, ctx }) => {
  await grantConnection(parsedInput, ctx.user.id);
  return { ok: true };
});

export const revokeConnectionAction = operatorAction
  .inputSchema(z.object({ connectionId: z.uuid(), workspaceId: z.uuid() }), fieldPaths)
  .action(async ({ parsedInput }) => {
    await revokeConnection(parsedInput.connectionId, parsedInput.workspaceId);
    return { ok: true };
  });

export const testConnectionAction = operatorAction
  .inputSchema(
    z.object({
      connectionId: z.uuid(),
      model: text({ min: 1, max: 100, label: "The model" }),
      prompt: text({ min: 3, max: 500, label: "The question" }).default("What is the best CRM for a small business?"),
    }),
    fieldPaths,
  )
  .action(async ({ parsedInput }) => testConnection(parsedInput.connectionId, parsedInput.model, parsedInput.prompt));

export const grantOperatorAction = operatorAction
  .inputSchema(z.object({ email: text({ min: 3, max: 320, label: "The email" }) }), fieldPaths)
  .action(async ({ parsedInput, ctx }) => grantOperator(parsedInput.email, ctx.user.id));
