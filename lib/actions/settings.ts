"use server";
import { z } from "zod";
import { assertCan, canManageWorkspaceSettings } from "@/lib/permissions/permissions";
import { fieldPaths, workspaceAction } from "@/lib/actions/safe-action";
import { grantedConnections } from "@/lib/connections/connections";
import { createProviderConfig, listProviderConfigs, updateProviderConfig } from "@/lib/workspaces/provider-configs";
import { providerConfigInputSchema } from "@/lib/providers/schemas";
import { updateWorkspaceSettings, workspaceSettings } from "@/lib/workspaces/settings";
import { editedAt } from "@/lib/validation/edit-version";
import { workspaceSettingsSchema } from "@/lib/workspaces/schemas";

const adminsOnly = "Only owners and admins can change workspace settings.";

export const listProvidersAction = workspaceAction.action(async ({ ctx }) => listProviderConfigs(ctx.workspace.id));

/** The connections an admin may point a provider at: the ones granted to this workspace. */
export const grantedConnectionsAction = workspaceAction.action(async ({ ctx }) => {
  assertCan(canManageWorkspaceSettings(ctx), adminsOnly);
  return grantedConnections(ctx.workspace.id);
});

export const createProviderAction = workspaceAction.inputSchema(providerConfigInputSchema, fieldPaths).action(async ({ parsedInput, ctx }) => {
  assertCan(canManageWorkspaceSettings(ctx), adminsOnly);
  return createProviderConfig(ctx.workspace.id, parsedInput);
});

export const updateProviderAction = workspaceAction
  .inputSchema(z.object({ providerConfigId: z.uuid(), config: providerConfigInputSchema, version: editedAt }), fieldPaths)
  .action(async ({ parsedInput, ctx }) => {
    assertCan(canManageWorkspaceSettings(ctx), adminsOnly);
    await updateProviderConfig(ctx.workspace.id, parsedInput.providerConfigId, parsedInput.config, { version: parsedInput.version });
    return { id: parsedInput.providerConfigId };
  });

export const workspaceSettingsAction = workspaceAction.action(async ({ ctx }) => {
  assertCan(canManageWorkspaceSettings(ctx), adminsOnly);
  return workspaceSettings(ctx.workspace.id);
});

export const updateWorkspaceSettingsAction = workspaceAction
  .inputSchema(workspaceSettingsSchema.extend({ version: editedAt }), fieldPaths)
  .action(async ({ parsedInput, ctx }) => {
    assertCan(canManageWorkspaceSettings(ctx), adminsOnly);
    const micros = parsedInput.monthlyBudgetUsd === null ? null : Math.round(parsedInput.monthlyBudgetUsd * 1_000_000);
    await updateWorkspaceSettings(ctx.workspace.id, { name: parsedInput.name, monthlyBudgetMicros: micros }, { version: parsedInput.version });
    return { ok: true };
  });
