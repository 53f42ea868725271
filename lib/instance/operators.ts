import "server-only";
import { db } from "@/lib/db/prisma";
import { NotFoundError } from "@/lib/errors";
import type { Prisma } from "@/lib/generated/prisma/client";

// Operators are the instance's admins: they own the provider connections (credentials come from
// the server's environment) and decide which workspaces may use them. Workspace roles never
// grant this.

export async function isOperator(userId: string | null | undefined): Promise<boolean> {
  if (!userId) return false;
  return (await db().operator.count({ where: { userId } })) > 0;
}

/** Names the instance admin check the way the workspace ones are named (lib/permissions/permissions.ts). */
export const canManageInstance = (actor: { isOperator: boolean }) => actor.isOperator;

/**
 * Makes `userId` an operator if the instance has none yet: the first account of a fresh
 * instance. Serialised with an advisory lock, so two first sign-ups at once make one operator.
 * Returns whether this user became one.
 */
export async function claimFirstOperator(tx: Prisma.TransactionClient, userId: string): Promise<boolean> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended('beacon:first-operator', 0))`;
  if (await tx.operator.count()) return false;
  await tx.operator.create({ data: { userId } });
  return true;
}

/** Grants the operator role to the account with this email (CLI and Instance page). */
export async function grantOperator(email: string, grantedById: string | null = null): Promise<{ userId: string; alreadyOperator: boolean }> {
  const user = await db().user.findFirst({ where: { email: { equals: email.trim(), mode: "insensitive" } }, select: { id: true } });
  if (!user) throw new NotFoundError(`No account with the email ${email.trim()}. The person must sign up first.`, { field: "email" });
  const existing = await db().operator.findUnique({ where: { userId: user.id } });
  if (existing) return { userId: user.id, alreadyOperator: true };
  await db().operator.create({ data: { userId: user.id, grantedById } });
  return { userId: user.id, alreadyOperator: false };
}

export async function listOperators() {
  const rows = await db().operator.findMany({ include: { user: { select: { name: true, email: true } } }, orderBy: { grantedAt: "asc" } });
  return rows.map((r) => ({ userId: r.userId, name: r.user.name, email: r.user.email, grantedAt: r.grantedAt }));
}
