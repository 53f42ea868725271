"use server";
import { assertCan, canManageBranding, canManageShareLinks, canView } from "@/lib/permissions/permissions";
import { fieldPaths, workspaceAction } from "@/lib/actions/safe-action";
import { getBranding, setBranding } from "@/lib/share-links/branding";
import { brandingInput, createShareLinkInput, revokeShareLinkInput } from "@/lib/share-links/schemas";
import { createShareLink, listShareLinks, revokeShareLink } from "@/lib/share-links/share-links";

// Share links reach people outside the workspace, so only admins and owners create, list and
// revoke them, and set the agency name and logo they carry.

export const listShareLinksAction = workspaceAction.action(async ({ ctx }) => {
  assertCan(canManageShareLinks(ctx), "Only admins can see the workspace's share links.");
  return listShareLinks(ctx.workspace.id);
});

export const createShareLinkAction = workspaceAction.inputSchema(createShareLinkInput, fieldPaths).action(async ({ parsedInput, ctx }) => {
  assertCan(canManageShareLinks(ctx), "Only admins can share reports outside the workspace.");
  return createShareLink(ctx.workspace.id, ctx.userId, parsedInput);
});

export const revokeShareLinkAction = workspaceAction.inputSchema(revokeShareLinkInput, fieldPaths).action(async ({ parsedInput, ctx }) => {
  assertCan(canManageShareLinks(ctx), "Only admins can revoke share links.");
  await revokeShareLink(ctx.workspace.id, parsedInput.shareLinkId);
  return { ok: true };
});

export const getBrandingAction = workspaceAction.action(async ({ ctx }) => {
  assertCan(canView(ctx));
  return getBranding(ctx.workspace.id);
});

export const setBrandingAction = workspaceAction.inputSchema(brandingInput, fieldPaths).action(async ({ parsedInput, ctx }) => {
  assertCan(canManageBranding(ctx), "Only admins can change the agency name and logo.");
  return setBranding(ctx.workspace.id, ctx.userId, parsedInput);
});
