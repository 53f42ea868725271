// Who may do what. Every server action and API route calls one of these before touching data;
// the data functions in lib/ additionally scope every query by workspaceId.
import { ForbiddenError } from "@/lib/errors";

export type Role = "owner" | "admin" | "member" | "viewer";

export type Actor = { userId: string | null; role: Role };

const rank: Record<Role, number> = { viewer: 0, member: 1, admin: 2, owner: 3 };
const atLeast = (actor: Actor, role: Role) => rank[actor.role] >= rank[role];

/** Read anything in the workspace. Every member, viewers included. */
export const canView = (_actor: Actor) => true;
/** Create and change brands, competitors and prompts. */
export const canEditTrackingSetup = (actor: Actor) => atLeast(actor, "member");
/** Start a check. */
export const canStartCheck = (actor: Actor) => atLeast(actor, "member");
/** Cancel a check: admins and owners, or the member who started it. */
export const canCancelCheck = (actor: Actor, check: { startedById: string | null }) =>
  atLeast(actor, "admin") || (atLeast(actor, "member") && actor.userId !== null && check.startedById === actor.userId);
/** Retry failed or cancelled captures. */
export const canRetryCapture = (actor: Actor) => atLeast(actor, "admin");
/** Invite, remove and change the role of members. */
export const canManageMembers = (actor: Actor) => atLeast(actor, "admin");
/** Give someone the owner role, or change an owner: owners only. */
export const canManageOwners = (actor: Actor) => atLeast(actor, "owner");
/** Provider configurations, prices, breakers, budgets, API keys. */
export const canManageWorkspaceSettings = (actor: Actor) => atLeast(actor, "admin");

export function assertCan(allowed: boolean, message = "You do not have permission to do that in this workspace."): void {
  if (!allowed) throw new ForbiddenError(message);
}
