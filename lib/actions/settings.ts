"use server";
import { z } from "zod";
import { createApiKey, listApiKeys, revokeApiKey } from "@/lib/api-keys/api-keys";
import { assertCan, canManageWorkspaceSettings } from "@/lib/auth/permissions";
import { fieldPaths, workspaceAction } from "@/lib/actions/safe-action";
import { budgetStatus } from "@/lib/billing/budget";
import { createProviderConfig, listProviderConfigs, testProviderConfig, updateProviderConfig } from "@/lib/providers/configs";
import { providerConfigInputSchema } from "@/lib/providers/schemas";
import { updateWorkspaceSettings } from "@/lib/workspaces/settings";
import { workspaceSettingsSchema } from "@/lib/workspaces/schemas";
import { apiKeyNameSchema } from "@/lib/api-keys/schemas";

const adminsOnly = "Only owners and admins can change workspace settings.";

export const listProvidersAction = workspaceAction.action(async ({ ctx }) => {
  const configs = await listProviderConfigs(ctx.workspace.id);
  return configs.map(({ settings, ...c }) => ({ ...c, settings: settings as Record<string, unknown> }));
});

export const createProviderAction = workspaceAction.inputSchema(providerConfigInputSchema, fieldPaths).action(async ({ parsedInput, ctx }) => {
  assertCan(canManageWorkspaceSettings(ctx), adminsOnly);
  return createProviderConfig(ctx.workspace.id, parsedInput);
});

export const updateProviderAction = workspaceAction
  .inputSchema(z.object({ providerConfigId: z.uuid(), config: providerConfigInputSchema }), fieldPaths)
  .action(async ({ parsedInput, ctx }) => {
    assertCan(canManageWorkspaceSettings(ctx), adminsOnly);
    await updateProviderConfig(ctx.workspace.id, parsedInput.providerConfigId, parsedInput.config);
    return { id: parsedInput.providerConfigId };
  });

export const workspaceSettingsAction = workspaceAction.action(async ({ ctx }) => {
  assertCan(canManageWorkspaceSettings(ctx), adminsOnly);
  return { name: ctx.workspace.name, budget: await budgetStatus(ctx.workspace.id) };
});

export const updateWorkspaceSettingsAction = workspaceAction
  .inputSchema(workspaceSettingsSchema, fieldPaths)
  .action(async ({ parsedInput, ctx }) => {
    assertCan(canManageWorkspaceSettings(ctx), adminsOnly);
    const micros = parsedInput.monthlyBudgetUsd === null ? null : Math.round(parsedInput.monthlyBudgetUsd * 1_000_000);
    await updateWorkspaceSettings(ctx.workspace.id, { name: parsedInput.name, monthlyBudgetMicros: micros });
    return { ok: true };
  });

export const listApiKeysAction = workspaceAction.action(async ({ ctx }) => {
  assertCan(canManageWorkspaceSettings(ctx), adminsOnly);
  return listApiKeys(ctx.workspace.id);
});

export const createApiKeyAction = workspaceAction
  .inputSchema(apiKeyNameSchema, fieldPaths)
  .action(async ({ parsedInput, ctx }) => {
    assertCan(canManageWorkspaceSettings(ctx), adminsOnly);
    return createApiKey(ctx.workspace.id, parsedInput.name, ctx.userId);
  });

export const revokeApiKeyAction = workspaceAction.inputSchema(z.object({ apiKeyId: z.uuid() }), fieldPaths).action(async ({ parsedInput, ctx }) => {
  assertCan(canManageWorkspaceSettings(ctx), adminsOnly);
  await revokeApiKey(ctx.workspace.id, parsedInput.apiKeyId);
  return { ok: true };
});

export const testProviderAction = workspaceAction
  .inputSchema(z.object({ providerConfigId: z.uuid(), prompt: z.string().trim().min(3).max(500).default("What is the best CRM for a small business?") }), fieldPaths)
  .action(async ({ parsedInput, ctx }) => {
    assertCan(canManageWorkspaceSettings(ctx), adminsOnly);
    return testProviderConfig(ctx.workspace.id, parsedInput.providerConfigId, parsedInput.prompt);
  });
