// Who may do what. Every server action and API route calls one of these before touching data;
// the data functions in lib/ additionally scope every query by workspaceId.
import type { ApiKeyScope } from "@/lib/permissions/api-key-scopes";
import { ForbiddenError } from "@/lib/errors";
import type { Role } from "@/lib/permissions/roles";

export type { Role };

export type Actor = { userId: string | null; role: Role };

export type SessionUser = { id: string; name: string; email: string };

/** The signed-in person and the workspace they are working in. */
export type WorkspaceContext = Actor & {
  userId: string;
  user: SessionUser;
  workspace: { id: string; slug: string; name: string };
  role: Role;
};

const rank: Record<Role, number> = { viewer: 0, member: 1, admin: 2, owner: 3 };
const atLeast = (actor: Actor, role: Role) => rank[actor.role] >= rank[role];

/** Read anything in the workspace. Every member, viewers included. */
export const canView = (_actor: Actor) => true;
/** Create and change brands, competitors and prompts. */
export const canEditTrackingSetup = (actor: Actor) => atLeast(actor, "member");
/** Start a check. */
export const canStartCheck = (actor: Actor) => atLeast(actor, "member");
/** Import a site's access logs (crawler hits): members and up, API keys with the write scope. */
export const canImportTraffic = (actor: Actor) => atLeast(actor, "member");
/** See, create and rotate the site key the visits script (/t.js) carries. */
export const canManageSiteKey = (actor: Actor) => atLeast(actor, "admin");
/** Start a site readiness check: the worker fetches the brand domains' pages 200 times or so, so admins decide when. */
export const canCheckSiteReadiness = (actor: Actor) => atLeast(actor, "admin");
/** The first-run wizard: it creates a brand, competitors and prompts and starts a check. */
export const canRunSetup = (actor: Actor) => canEditTrackingSetup(actor) && canStartCheck(actor);
/** Create and change schedules: tracking setup that starts checks on its own, so both (members and up). */
export const canManageSchedules = (actor: Actor) => canEditTrackingSetup(actor) && canStartCheck(actor);
/** Cancel a check: admins and owners, or the member who started it. */
export const canCancelCheck = (actor: Actor, check: { startedById: string | null }) =>
  atLeast(actor, "admin") || (atLeast(actor, "member") && actor.userId !== null && check.startedById === actor.userId);
/** Retry failed or cancelled captures. */
export const canRetryCapture = (actor: Actor) => atLeast(actor, "admin");
/** Invite, remove and change the role of members. */
export const canManageMembers = (actor: Actor) => atLeast(actor, "admin");
/** Give someone the owner role, or change an owner: owners only. */
export const canManageOwners = (actor: Actor) => atLeast(actor, "owner");
/** Provider configurations, prices, breakers, budgets. */
export const canManageWorkspaceSettings = (actor: Actor) => atLeast(actor, "admin");

/** A cited domain's category in this workspace (source_category_overrides). */
export const canCategorizeSources = (actor: Actor) => atLeast(actor, "admin");
/** Alert rules, their channels (webhook URLs, signing secrets, email lists) and the delivery log. */
export const canManageAlerts = (actor: Actor) => atLeast(actor, "admin");

/** Create, list and revoke read-only share links to a brand's Overview: they reach people outside the workspace. */
export const canManageShareLinks = (actor: Actor) => atLeast(actor, "admin");
/** The agency name and logo on shared reports and printouts. */
export const canManageBranding = (actor: Actor) => atLeast(actor, "admin");

const scopeRole: Record<ApiKeyScope, Role> = { read: "viewer", write: "member", admin: "admin" };
/** The role a scope stands for: read -> viewer, write -> member, admin -> admin. */
export const apiKeyScopeRole = (scope: ApiKeyScope): Role => scopeRole[scope];

/**
 * The role an API key acts with: the lower of its scope's role and its member's current role.
 * An owner's admin key acts as admin; an admin key of someone demoted to member acts as member.
 */
export const apiKeyRole = (scope: ApiKeyScope, memberRole: Role): Role =>
  rank[scopeRole[scope]] <= rank[memberRole] ? scopeRole[scope] : memberRole;
/** Create an API key with `scope`: never one that could do more than its creator (viewers: read keys). */
export const canCreateApiKey = (actor: Actor, scope: ApiKeyScope) => atLeast(actor, scopeRole[scope]);
/** Revoke an API key: admins and owners any key of the workspace, everyone else their own. */
export const canRevokeApiKey = (actor: Actor, key: { createdById: string | null }) =>
  atLeast(actor, "admin") || (actor.userId !== null && key.createdById === actor.userId);

export function assertCan(allowed: boolean, message = "You do not have permission to do that in this workspace."): void {
  if (!allowed) throw new ForbiddenError(message);
}
