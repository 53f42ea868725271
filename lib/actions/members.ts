"use server";
import { z } from "zod";
import { fieldPaths, workspaceAction } from "@/lib/actions/safe-action";
import { changeMemberRole, createInvitation, listMembers, listPendingInvitations, removeMember, revokeInvitation } from "@/lib/workspaces/members";
import { inviteSchema, roleSchema } from "@/lib/workspaces/schemas";

export const listMembersAction = workspaceAction.action(async ({ ctx }) => ({
  members: await listMembers(ctx.workspace.id),
  invitations: await listPendingInvitations(ctx.workspace.id),
  me: { userId: ctx.userId, role: ctx.role },
}));

export const inviteMemberAction = workspaceAction
  .inputSchema(inviteSchema, fieldPaths)
  .action(async ({ parsedInput, ctx }) => createInvitation(ctx, parsedInput));

export const revokeInvitationAction = workspaceAction
  .inputSchema(z.object({ invitationId: z.uuid() }), fieldPaths)
  .action(async ({ parsedInput, ctx }) => revokeInvitation(ctx, parsedInput.invitationId));

export const changeMemberRoleAction = workspaceAction
  .inputSchema(z.object({ membershipId: z.uuid(), role: roleSchema }), fieldPaths)
  .action(async ({ parsedInput, ctx }) => changeMemberRole(ctx, parsedInput.membershipId, parsedInput.role));

export const removeMemberAction = workspaceAction
  .inputSchema(z.object({ membershipId: z.uuid() }), fieldPaths)
  .action(async ({ parsedInput, ctx }) => removeMember(ctx, parsedInput.membershipId));
