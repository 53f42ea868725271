import "server-only";
import { cookies, headers } from "next/headers";
import { redirect } from "next/navigation";
import { auth } from "@/lib/auth/auth";
import type { SessionUser, WorkspaceContext } from "@/lib/permissions/permissions";
import { db } from "@/lib/db/prisma";
import { UnauthorizedError } from "@/lib/errors";

export const ACTIVE_WORKSPACE_COOKIE = "beacon_workspace";


export async function getSessionUser(): Promise<SessionUser | null> {
  const session = await auth().api.getSession({ headers: await headers() });
  if (!session) return null;
  const { id, name, email } = session.user;
  return { id, name, email };
}

/**
 * The active workspace is remembered in a cookie per browser; it must still be one the user is
 * a member of, otherwise their oldest membership is used. Null when signed out or when the
 * user belongs to no workspace.
 */
export async function getWorkspaceContext(): Promise<WorkspaceContext | null> {
  const user = await getSessionUser();
  if (!user) return null;
  const wanted = (await cookies()).get(ACTIVE_WORKSPACE_COOKIE)?.value;
  const memberships = await db().membership.findMany({
    where: { userId: user.id },
    include: { workspace: { select: { id: true, slug: true, name: true } } },
    orderBy: { createdAt: "asc" },
  });
  const membership = memberships.find((m) => m.workspaceId === wanted) ?? memberships[0];
  if (!membership) return null;
  return { userId: user.id, user, workspace: membership.workspace, role: membership.role };
}

export async function requireWorkspaceContext(): Promise<WorkspaceContext> {
  const ctx = await getWorkspaceContext();
  if (!ctx) throw new UnauthorizedError("Please sign in again.");
  return ctx;
}

/**
 * For server components: layouts and pages render in parallel, so each page redirects signed-out
 * visitors itself instead of relying on the layout.
 */
export async function requirePageContext(): Promise<WorkspaceContext> {
  const ctx = await getWorkspaceContext();
  if (!ctx) redirect((await getSessionUser()) ? "/welcome" : "/login");
  return ctx;
}

/** Remembers the workspace this browser works in (validated again on every request). */
export async function rememberWorkspace(workspaceId: string): Promise<void> {
  (await cookies()).set(ACTIVE_WORKSPACE_COOKIE, workspaceId, {
    httpOnly: true,
    sameSite: "lax",
    path: "/",
    maxAge: 60 * 60 * 24 * 365,
  });
}
