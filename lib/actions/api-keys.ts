"use server";
import { z } from "zod";
import { fieldPaths, workspaceAction } from "@/lib/actions/safe-action";
import { createApiKey, findApiKey, listApiKeys, revokeApiKey } from "@/lib/api-keys/api-keys";
import { createApiKeySchema } from "@/lib/api-keys/schemas";
import { API_KEY_SCOPES } from "@/lib/permissions/api-key-scopes";
import { assertCan, canCreateApiKey, canRevokeApiKey, canView } from "@/lib/permissions/permissions";

// Every member sees the workspace's keys (names, creators, scopes; never the keys themselves),
// creates keys up to their own role, and revokes their own; admins and owners revoke any.

export const listApiKeysAction = workspaceAction.action(async ({ ctx }) => {
  assertCan(canView(ctx));
  const keys = await listApiKeys(ctx.workspace.id);
  return {
    keys: keys.map(({ createdById, ...k }) => ({ ...k, canRevoke: canRevokeApiKey(ctx, { createdById }) })),
    /** The scopes this member may give a new key. */
    scopes: API_KEY_SCOPES.filter((scope) => canCreateApiKey(ctx, scope)),
  };
});

export const createApiKeyAction = workspaceAction.inputSchema(createApiKeySchema, fieldPaths).action(async ({ parsedInput, ctx }) => {
  assertCan(canCreateApiKey(ctx, parsedInput.scope), `A ${ctx.role} cannot create ${parsedInput.scope} keys: a key can do at most what its creator can.`);
  return createApiKey(ctx.workspace.id, { name: parsedInput.name, scope: parsedInput.scope, createdById: ctx.userId });
});

export const revokeApiKeyAction = workspaceAction.inputSchema(z.object({ apiKeyId: z.uuid() }), fieldPaths).action(async ({ parsedInput, ctx }) => {
  const key = await findApiKey(ctx.workspace.id, parsedInput.apiKeyId);
  assertCan(canRevokeApiKey(ctx, key), "Only admins, owners and the member who created a key can revoke it.");
  await revokeApiKey(ctx.workspace.id, key.id);
  return { ok: true };
});
