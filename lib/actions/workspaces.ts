"use server";
import { z } from "zod";
import { getSessionUser, rememberWorkspace } from "@/lib/auth/session";
import { fieldPaths, publicAction } from "@/lib/actions/safe-action";
import { UnauthorizedError } from "@/lib/errors";
import { workspaceNameSchema } from "@/lib/workspaces/schemas";
import { createWorkspace, requireMembership } from "@/lib/workspaces/workspaces";

// Not a workspaceAction: switching is how a browser whose workspace the user has left goes on.
export const switchWorkspaceAction = publicAction
  .inputSchema(z.object({ workspaceId: z.uuid("Unknown workspace") }), fieldPaths)
  .action(async ({ parsedInput }) => {
    const user = await getSessionUser();
    if (!user) throw new UnauthorizedError("Please sign in again.");
    const membership = await requireMembership(user.id, parsedInput.workspaceId);
    await rememberWorkspace(membership.workspaceId);
    return { workspaceId: membership.workspaceId };
  });

// Signed-in users without any workspace (e.g. removed from their last one) may create one too.
export const createWorkspaceAction = publicAction
  .inputSchema(z.object({ name: workspaceNameSchema }), fieldPaths)
  .action(async ({ parsedInput }) => {
    const user = await getSessionUser();
    if (!user) throw new UnauthorizedError("Please sign in again.");
    const workspace = await createWorkspace(user.id, parsedInput.name);
    await rememberWorkspace(workspace.id);
    return { workspaceId: workspace.id, slug: workspace.slug };
  });
