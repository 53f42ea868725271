import "server-only";
import type { Role } from "@/lib/permissions/permissions";
import { db } from "@/lib/db/prisma";
import { transaction } from "@/lib/db/transaction";
import type { Prisma } from "@/lib/generated/prisma/client";
import { createDefaultProviders } from "@/lib/workspaces/provider-configs";
import { NotFoundError } from "@/lib/errors";

export function slugify(name: string): string {
  const slug = name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 40);
  return slug || "workspace";
}

/** Creates a workspace owned by `ownerId`; the slug gets a numeric suffix when taken. */
export async function createWorkspace(ownerId: string, name: string, preferredSlug?: string) {
  return transaction((tx) => createWorkspaceIn(tx, ownerId, name, preferredSlug));
}

/** createWorkspace inside the caller's transaction (a new account's first workspace, lib/auth/sign-up.ts). */
export async function createWorkspaceIn(tx: Prisma.TransactionClient, ownerId: string, name: string, preferredSlug?: string) {
  const base = preferredSlug ?? slugify(name);
  const taken = new Set((await tx.workspace.findMany({ where: { slug: { startsWith: base } }, select: { slug: true } })).map((w) => w.slug));
  let slug = base;
  for (let n = 2; taken.has(slug); n++) slug = `${base}-${n}`;
  const workspace = await tx.workspace.create({ data: { name, slug, memberships: { create: { userId: ownerId, role: "owner" } } } });
  await createDefaultProviders(tx, workspace.id);
  return workspace;
}

export async function listWorkspacesOf(userId: string) {
  const memberships = await db().membership.findMany({
    where: { userId },
    include: { workspace: { select: { id: true, slug: true, name: true } } },
    orderBy: { createdAt: "asc" },
  });
  return memberships.map((m) => ({ ...m.workspace, role: m.role as Role }));
}

/** The workspace `userId` may switch to; throws when they are not a member. */
export async function requireMembership(userId: string, workspaceId: string) {
  const membership = await db().membership.findUnique({
    where: { workspaceId_userId: { workspaceId, userId } },
    include: { workspace: true },
  });
  if (!membership) throw new NotFoundError("Workspace not found.");
  return membership;
}

export async function findWorkspaceBySlug(slug: string) {
  return db().workspace.findUnique({ where: { slug }, select: { id: true, slug: true, name: true } });
}
