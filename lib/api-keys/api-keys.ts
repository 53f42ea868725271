import "server-only";
import { createHash, randomBytes } from "node:crypto";
import type { ApiKeyScope } from "@/lib/permissions/api-key-scopes";
import { apiKeyRole, assertCan, type Actor, type Role } from "@/lib/permissions/permissions";
import { db } from "@/lib/db/prisma";
import { transaction } from "@/lib/db/transaction";
import type { Prisma } from "@/lib/generated/prisma/client";
import { ForbiddenError, NotFoundError } from "@/lib/errors";

// Keys look like `bk_3f9a1c2e_<40 random characters>`; the part before the second underscore is
// shown in the UI to tell keys apart. Only a SHA-256 of the key is stored: it is shown once.
//
// A key belongs to a member of its workspace (createdById) and carries a scope. It acts with
// apiKeyRole(scope, the member's current role), looked up on every request, so a demotion takes
// effect at once; it stops working when its member leaves (removeMember also revokes it).
const KEY_PREFIX = "bk_";

const hashKey = (key: string) => createHash("sha256").update(key).digest("hex");

type Tx = Prisma.TransactionClient;

/**
 * A new key owned by `createdById`, who must be a member of the workspace. Does not authorize:
 * the action checks canCreateApiKey first, and the CLI gives its keys to the first owner.
 */
export async function createApiKey(workspaceId: string, input: { name: string; scope: ApiKeyScope; createdById: string }) {
  const prefix = `${KEY_PREFIX}${randomBytes(4).toString("hex")}`;
  const key = `${prefix}_${randomBytes(30).toString("base64url")}`;
  return transaction(async (tx) => {
    // FOR SHARE: removing this member at the same moment waits for the key, then revokes it too.
    const member = await tx.$queryRaw<{ role: Role }[]>`
      SELECT role::text AS role FROM memberships WHERE "workspaceId" = ${workspaceId}::uuid AND "userId" = ${input.createdById} FOR SHARE`;
    if (!member.length) throw new NotFoundError("An API key must belong to a member of this workspace.");
    const row = await tx.apiKey.create({
      data: { workspaceId, name: input.name, scope: input.scope, prefix, keyHash: hashKey(key), createdById: input.createdById },
      select: { id: true, name: true, prefix: true, scope: true, createdAt: true },
    });
    return { ...row, key };
  });
}

/** For scripts (the CLI): a key owned by the workspace's first owner (oldest owner membership). */
export async function createApiKeyForFirstOwner(workspaceId: string, input: { name: string; scope: ApiKeyScope }) {
  const owner = await db().membership.findFirst({
    where: { workspaceId, role: "owner" },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    select: { user: { select: { id: true, name: true, email: true } } },
  });
  if (!owner) throw new NotFoundError("This workspace has no owner to own the key.");
  return { ...(await createApiKey(workspaceId, { ...input, createdById: owner.user.id })), owner: owner.user };
}

/**
 * The workspace's live keys with their creator and the role each acts with now (null when its
 * member is gone, e.g. their account was deleted: such a key no longer authenticates).
 */
export async function listApiKeys(workspaceId: string) {
  const keys = await db().apiKey.findMany({
    where: { workspaceId, revokedAt: null },
    select: { id: true, name: true, prefix: true, scope: true, createdById: true, createdAt: true, lastUsedAt: true },
    orderBy: { createdAt: "desc" },
  });
  const creatorIds = [...new Set(keys.flatMap((k) => (k.createdById ? [k.createdById] : [])))];
  const [users, members] = await Promise.all([
    db().user.findMany({ where: { id: { in: creatorIds } }, select: { id: true, name: true } }),
    db().membership.findMany({ where: { workspaceId, userId: { in: creatorIds } }, select: { userId: true, role: true } }),
  ]);
  const names = new Map(users.map((u) => [u.id, u.name]));
  const roles = new Map(members.map((m) => [m.userId, m.role]));
  return keys.map((k) => {
    const memberRole = k.createdById ? roles.get(k.createdById) : undefined;
    return {
      ...k,
      createdBy: k.createdById ? { id: k.createdById, name: names.get(k.createdById) ?? "a deleted account" } : null,
      actsAs: memberRole ? apiKeyRole(k.scope, memberRole) : null,
    };
  });
}

/** A live key of the workspace, for authorizing its revocation. */
export async function findApiKey(workspaceId: string, apiKeyId: string) {
  const key = await db().apiKey.findFirst({ where: { id: apiKeyId, workspaceId, revokedAt: null }, select: { id: true, name: true, createdById: true } });
  if (!key) throw new NotFoundError("That API key does not exist in this workspace.");
  return key;
}

export async function revokeApiKey(workspaceId: string, apiKeyId: string) {
  const { count } = await db().apiKey.updateMany({ where: { id: apiKeyId, workspaceId, revokedAt: null }, data: { revokedAt: new Date() } });
  if (!count) throw new NotFoundError("That API key does not exist in this workspace.");
}

/** Revokes every key a member owns in the workspace; runs inside the transaction that removes them. */
export async function revokeApiKeysOfMember(tx: Tx, workspaceId: string, userId: string): Promise<number> {
  const { count } = await tx.apiKey.updateMany({ where: { workspaceId, createdById: userId, revokedAt: null }, data: { revokedAt: new Date() } });
  return count;
}

export type ApiKeyCaller = {
  apiKeyId: string;
  workspaceId: string;
  /** The member the key belongs to. */
  userId: string;
  scope: ApiKeyScope;
  memberRole: Role;
  /** What the key may do: the lower of its scope's role and its member's current role. */
  role: Role;
};

/**
 * The caller a bearer key stands for, or null for an unknown or revoked key and for a key whose
 * member is no longer in the workspace.
 */
export async function authenticateApiKey(key: string): Promise<ApiKeyCaller | null> {
  if (!key.startsWith(KEY_PREFIX) || key.length > 200) return null;
  const [row] = await db().$queryRaw<{ id: string; workspaceId: string; userId: string; scope: ApiKeyScope; memberRole: Role; useToRecord: boolean }[]>`
    SELECT k.id::text AS id, k."workspaceId"::text AS "workspaceId", k."createdById" AS "userId", k.scope::text AS scope, m.role::text AS "memberRole",
           k."lastUsedAt" IS NULL OR k."lastUsedAt" < (now() AT TIME ZONE 'UTC') - interval '1 minute' AS "useToRecord"
      FROM api_keys k
      JOIN memberships m ON m."workspaceId" = k."workspaceId" AND m."userId" = k."createdById"
     WHERE k."keyHash" = ${hashKey(key)} AND k."revokedAt" IS NULL`;
  if (!row) return null;
  // Record use at most once a minute, so busy clients do not write on every request; by the
  // database's clock, which every web server shares (one running ahead stamped a future time, and
  // the others recorded no use until it passed).
  if (row.useToRecord) await db().$executeRaw`UPDATE api_keys SET "lastUsedAt" = now() AT TIME ZONE 'UTC' WHERE id = ${row.id}::uuid`;
  return { apiKeyId: row.id, workspaceId: row.workspaceId, userId: row.userId, scope: row.scope, memberRole: row.memberRole, role: apiKeyRole(row.scope, row.memberRole) };
}

/** Who acts: a member of the workspace, through one of their keys or not. */
export type ActingMember = { workspaceId: string; userId: string; apiKeyId?: string | null };

/**
 * The role `acting` has now, read again under share locks held until the caller's transaction
 * commits: a request is authorized when it arrives, and an API body streams as slowly as its
 * client likes. A member removed or demoted, or a key revoked, meanwhile (removeMember,
 * changeMemberRole and revokeApiKey write these rows, in this order) either committed first and
 * is refused here (403), or waits for the caller's commit.
 */
export async function actorNow(tx: Tx, acting: ActingMember): Promise<Actor> {
  const [member] = await tx.$queryRaw<{ role: Role }[]>`
    SELECT role::text AS role FROM memberships WHERE "workspaceId" = ${acting.workspaceId}::uuid AND "userId" = ${acting.userId} FOR SHARE`;
  if (!member) throw new ForbiddenError("You are no longer a member of this workspace.");
  if (!acting.apiKeyId) return { userId: acting.userId, role: member.role };
  const [key] = await tx.$queryRaw<{ scope: ApiKeyScope }[]>`
    SELECT scope::text AS scope FROM api_keys
    WHERE id = ${acting.apiKeyId}::uuid AND "workspaceId" = ${acting.workspaceId}::uuid AND "createdById" = ${acting.userId} AND "revokedAt" IS NULL
    FOR SHARE`;
  if (!key) throw new ForbiddenError("This API key was revoked.");
  return { userId: acting.userId, role: apiKeyRole(key.scope, member.role) };
}

/**
 * actorNow for a write that an action authorized when it arrived: refused (403, `message`) unless
 * `can` still allows it, the role share-locked until the caller's transaction commits.
 */
export async function assertStillCan(tx: Tx, acting: ActingMember, can: (actor: Actor) => boolean, message: string): Promise<Actor> {
  const actor = await actorNow(tx, acting);
  assertCan(can(actor), message);
  return actor;
}
