import "server-only";
import { cookies, headers } from "next/headers";
import { redirect } from "next/navigation";
import { auth } from "@/lib/auth/auth";
import type { SessionUser, WorkspaceContext } from "@/lib/permissions/permissions";
import { db } from "@/lib/db/prisma";
import { ForbiddenError, UnauthorizedError } from "@/lib/errors";

export const ACTIVE_WORKSPACE_COOKIE = "beacon_workspace";


export async function getSessionUser(): Promise<SessionUser | null> {
  const session = await auth().api.getSession({ headers: await headers() });
  if (!session) return null;
  const { id, name, email } = session.user;
  return { id, name, email };
}

/**
 * The active workspace is remembered in a cookie per browser. `left`: the cookie names a
 * workspace the user is not a member of (removed since, or another account's cookie on this
 * browser); `ctx` is then their oldest membership. Null when signed out.
 */
export async function resolveWorkspace(): Promise<{ ctx: WorkspaceContext | null; left: boolean } | null> {
  const user = await getSessionUser();
  if (!user) return null;
  const wanted = (await cookies()).get(ACTIVE_WORKSPACE_COOKIE)?.value;
  const memberships = await db().membership.findMany({
    where: { userId: user.id },
    include: { workspace: { select: { id: true, slug: true, name: true } } },
    orderBy: { createdAt: "asc" },
  });
  const named = memberships.find((m) => m.workspaceId === wanted);
  const membership = named ?? memberships[0];
  return {
    ctx: membership ? { userId: user.id, user, workspace: membership.workspace, role: membership.role } : null,
    left: wanted !== undefined && !named,
  };
}

/**
 * For pages and reads: the workspace the cookie names, or the user's oldest one when it names
 * none of theirs (the dashboard's layout first clears such a cookie: app/workspace/left). Null
 * when signed out or when the user belongs to no workspace.
 */
export async function getWorkspaceContext(): Promise<WorkspaceContext | null> {
  return (await resolveWorkspace())?.ctx ?? null;
}

/** Forgets the active workspace: the user's oldest membership is then theirs. */
export async function forgetWorkspace(): Promise<void> {
  (await cookies()).delete(ACTIVE_WORKSPACE_COOKIE);
}

/**
 * For actions: the workspace the cookie names, which is the one the page that sends the action
 * shows. A cookie naming a workspace the user has left is refused, not replaced by another of
 * theirs: the page's change must not land in a workspace it was not made for.
 */
export async function requireWorkspaceContext(): Promise<WorkspaceContext> {
  const resolved = await resolveWorkspace();
  if (!resolved) throw new UnauthorizedError("Please sign in again.");
  if (resolved.left) throw new ForbiddenError("You are no longer a member of the workspace this page shows. Reload the page to go on in another.");
  if (!resolved.ctx) throw new UnauthorizedError("Please sign in again.");
  return resolved.ctx;
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
