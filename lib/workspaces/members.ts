import "server-only";
import { createHash, randomBytes } from "node:crypto";
import { publicUrl } from "@/lib/config/env";
import { assertStillCan, revokeApiKeysOfMember } from "@/lib/api-keys/api-keys";
import { pausePoint } from "@/lib/db/pause-points";
import { assertCan, canManageMembers, canManageOwners, type Role } from "@/lib/permissions/permissions";
import { ROLES } from "@/lib/permissions/roles";
import type { WorkspaceContext } from "@/lib/permissions/permissions";
import { db } from "@/lib/db/prisma";
import { transaction } from "@/lib/db/transaction";
import type { Prisma } from "@/lib/generated/prisma/client";
import { ConflictError, NotFoundError, UserError } from "@/lib/errors";

const INVITATION_TTL_DAYS = 7;

const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");

export async function listMembers(workspaceId: string) {
  const memberships = await db().membership.findMany({
    where: { workspaceId },
    include: { user: { select: { id: true, name: true, email: true } } },
    orderBy: { createdAt: "asc" },
  });
  return memberships.map((m) => ({ id: m.id, role: m.role as Role, joinedAt: m.createdAt, user: m.user }));
}

export async function listPendingInvitations(workspaceId: string) {
  return db().invitation.findMany({
    where: { workspaceId, acceptedAt: null, revokedAt: null, expiresAt: { gt: new Date() } },
    select: { id: true, email: true, role: true, expiresAt: true, createdAt: true },
    orderBy: { createdAt: "desc" },
  });
}

type Tx = Prisma.TransactionClient;

async function findMembership(tx: Tx, workspaceId: string, membershipId: string) {
  const membership = await tx.membership.findFirst({ where: { id: membershipId, workspaceId } });
  if (!membership) throw new NotFoundError("That member is not in this workspace.");
  return membership;
}

/**
 * Runs a change that may take away an owner. The workspace's owner rows are locked first (in a
 * fixed order), so two owners demoting each other at once cannot leave the workspace ownerless.
 */
async function withOwnersLocked<T>(workspaceId: string, change: (tx: Tx, ownerCount: number) => Promise<T>): Promise<T> {
  return transaction(async (tx) => {
    const owners = await tx.$queryRaw<{ id: string }[]>`
      SELECT id FROM memberships WHERE "workspaceId" = ${workspaceId}::uuid AND role = 'owner' ORDER BY id FOR UPDATE`;
    return change(tx, owners.length);
  });
}

const LAST_OWNER = "A workspace needs at least one owner. Make someone else an owner first.";

/** The roles a member with `role` may invite (createInvitation's rule); none when removed (null). */
const invitableBy = (userId: string, role: Role | null): Role[] =>
  role === null || !canManageMembers({ userId, role }) ? [] : ROLES.filter((r) => r !== "owner" || canManageOwners({ userId, role }));

/**
 * A member removed or given a lower role: the pending invitations they sent that they could no
 * longer send are revoked with the change, as their API keys are. A link an admin sent stayed
 * good for a week after the admin was removed, and granted the role they no longer held.
 */
async function revokeInvitationsBeyond(tx: Tx, workspaceId: string, userId: string, role: Role | null): Promise<void> {
  await tx.invitation.updateMany({
    where: { workspaceId, invitedById: userId, acceptedAt: null, revokedAt: null, role: { notIn: invitableBy(userId, role) } },
    data: { revokedAt: new Date() },
  });
}

export async function changeMemberRole(ctx: WorkspaceContext, membershipId: string, role: Role) {
  assertCan(canManageMembers(ctx), "Only owners and admins can change roles.");
  await withOwnersLocked(ctx.workspace.id, async (tx, owners) => {
    const membership = await findMembership(tx, ctx.workspace.id, membershipId);
    if (membership.role === "owner" || role === "owner") assertCan(canManageOwners(ctx), "Only owners can grant or change the owner role.");
    if (membership.role === "owner" && role !== "owner" && owners <= 1) throw new UserError(LAST_OWNER);
    await tx.membership.update({ where: { id: membership.id }, data: { role } });
    await revokeInvitationsBeyond(tx, ctx.workspace.id, membership.userId, role);
  });
}

export async function removeMember(ctx: WorkspaceContext, membershipId: string) {
  assertCan(canManageMembers(ctx), "Only owners and admins can remove members.");
  await withOwnersLocked(ctx.workspace.id, async (tx, owners) => {
    const membership = await findMembership(tx, ctx.workspace.id, membershipId);
    if (membership.role === "owner") assertCan(canManageOwners(ctx), "Only owners can remove an owner.");
    if (membership.role === "owner" && owners <= 1) throw new UserError(LAST_OWNER);
    await tx.membership.delete({ where: { id: membership.id } });
    // Their API keys and the invitations they sent die with the membership, in the same transaction.
    await revokeApiKeysOfMember(tx, ctx.workspace.id, membership.userId);
    await revokeInvitationsBeyond(tx, ctx.workspace.id, membership.userId, null);
  });
}

/** Creates an invitation and returns the link to share; the token is not stored, only its hash. */
export async function createInvitation(ctx: WorkspaceContext, input: { email: string; role: Role }) {
  assertCan(canManageMembers(ctx), "Only owners and admins can invite members.");
  assertCan(invitableBy(ctx.userId, ctx.role).includes(input.role), "Only owners can invite another owner.");
  const existing = await db().membership.findFirst({ where: { workspaceId: ctx.workspace.id, user: { email: input.email } } });
  if (existing) throw new ConflictError(`${input.email} is already a member of this workspace.`, { field: "email" });

  const token = randomBytes(24).toString("base64url");
  const invitation = await transaction(async (tx) => {
    // The inviter's role as it is now, held to the commit: one removed or demoted since the request
    // was authorized is refused; one removed after waits for this, and its revocation
    // (revokeInvitationsBeyond) then finds this invitation.
    await assertStillCan(tx, { workspaceId: ctx.workspace.id, userId: ctx.userId }, (now) => invitableBy(ctx.userId, now.role).includes(input.role), "You can no longer invite with this role.");
    await pausePoint("invitation:before-insert", { tx });
    return tx.invitation.create({
      data: {
        workspaceId: ctx.workspace.id,
        email: input.email,
        role: input.role,
        tokenHash: hashToken(token),
        invitedById: ctx.userId,
        expiresAt: new Date(Date.now() + INVITATION_TTL_DAYS * 24 * 3600 * 1000),
      },
    });
  });
  return { id: invitation.id, email: invitation.email, role: invitation.role, link: `${publicUrl()}/invite/${token}` };
}

export async function revokeInvitation(ctx: WorkspaceContext, invitationId: string) {
  assertCan(canManageMembers(ctx), "Only owners and admins can revoke invitations.");
  const { count } = await db().invitation.updateMany({
    where: { id: invitationId, workspaceId: ctx.workspace.id, acceptedAt: null, revokedAt: null },
    data: { revokedAt: new Date() },
  });
  if (!count) throw new NotFoundError("That invitation no longer exists.");
}

export type InvitationView = {
  workspaceName: string;
  email: string;
  role: Role;
  state: "pending" | "accepted" | "revoked" | "expired";
};

export async function findInvitation(token: string): Promise<InvitationView | null> {
  const invitation = await db().invitation.findUnique({ where: { tokenHash: hashToken(token) }, include: { workspace: true } });
  if (!invitation) return null;
  const state = invitation.acceptedAt ? "accepted" : invitation.revokedAt ? "revoked" : invitation.expiresAt < new Date() ? "expired" : "pending";
  return { workspaceName: invitation.workspace.name, email: invitation.email, role: invitation.role as Role, state };
}

/** Adds the signed-in user to the invitation's workspace; returns the workspace id. */
export async function acceptInvitation(user: { id: string; email: string }, token: string): Promise<string> {
  return transaction((tx) => acceptInvitationIn(tx, user, token));
}

/** acceptInvitation inside the caller's transaction (an account created by the link, lib/auth/sign-up.ts). */
export async function acceptInvitationIn(tx: Tx, user: { id: string; email: string }, token: string): Promise<string> {
  // Locked: two accounts signing up with one link at once cannot both use it.
  const [locked] = await tx.$queryRaw<{ id: string }[]>`SELECT id FROM invitations WHERE "tokenHash" = ${hashToken(token)} FOR UPDATE`;
  const invitation = locked ? await tx.invitation.findUnique({ where: { id: locked.id } }) : null;
  if (!invitation || invitation.revokedAt) throw new NotFoundError("This invitation link is not valid.");
  if (invitation.acceptedAt) throw new UserError("This invitation has already been used.");
  if (invitation.expiresAt < new Date()) throw new UserError("This invitation has expired. Ask for a new link.");
  if (invitation.email.toLowerCase() !== user.email.toLowerCase()) {
    throw new UserError(`This invitation is for ${invitation.email}. Sign in with that address to accept it.`);
  }
  await tx.membership.upsert({
    where: { workspaceId_userId: { workspaceId: invitation.workspaceId, userId: user.id } },
    create: { workspaceId: invitation.workspaceId, userId: user.id, role: invitation.role },
    update: {},
  });
  await tx.invitation.update({ where: { id: invitation.id }, data: { acceptedAt: new Date(), acceptedById: user.id } });
  return invitation.workspaceId;
}
