"use server";
import { workspaceAction } from "@/lib/actions/safe-action";
import { assertCan, canManageSiteKey } from "@/lib/permissions/permissions";
import { rotateSiteKey, siteKeyOf, SITE_KEY_PATTERN } from "@/lib/traffic/visits";
import { z } from "zod";

// The site key of the visits script: admins see it with the snippet, create it and rotate it
// (a rotated key stops counting at once, so every site must get the new snippet).

export const getSiteKeyAction = workspaceAction.action(async ({ ctx }) => {
  assertCan(canManageSiteKey(ctx), "Only admins can see the site key.");
  return siteKeyOf(ctx.workspace.id);
});

/** replacing: the key the admin saw (null: none yet), so a second click changes nothing (rotateSiteKey). */
export const rotateSiteKeyAction = workspaceAction
  .inputSchema(z.object({ replacing: z.string().regex(SITE_KEY_PATTERN, "That is not a site key.").nullable() }).strict())
  .action(async ({ parsedInput, ctx }) => {
    assertCan(canManageSiteKey(ctx), "Only admins can create or rotate the site key.");
    return rotateSiteKey(ctx.workspace.id, parsedInput.replacing);
  });
