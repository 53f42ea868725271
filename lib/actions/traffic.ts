"use server";
import { workspaceAction } from "@/lib/actions/safe-action";
import { assertCan, canManageSiteKey } from "@/lib/permissions/permissions";
import { rotateSiteKey, siteKeyOf } from "@/lib/traffic/visits";

// The site key of the visits script: admins see it with the snippet, create it and rotate it
// (a rotated key stops counting at once, so every site must get the new snippet).

export const getSiteKeyAction = workspaceAction.action(async ({ ctx }) => {
  assertCan(canManageSiteKey(ctx), "Only admins can see the site key.");
  return siteKeyOf(ctx.workspace.id);
});

export const rotateSiteKeyAction = workspaceAction.action(async ({ ctx }) => {
  assertCan(canManageSiteKey(ctx), "Only admins can create or rotate the site key.");
  return rotateSiteKey(ctx.workspace.id);
});
