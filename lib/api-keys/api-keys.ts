import "server-only";
import { createHash, randomBytes } from "node:crypto";
import { db } from "@/lib/db/prisma";
import { NotFoundError } from "@/lib/errors";

// Keys look like `bk_3f9a1c2e_<40 random characters>`; the part before the second underscore is
// shown in the UI to tell keys apart. Only a SHA-256 of the key is stored: it is shown once.
const KEY_PREFIX = "bk_";

const hashKey = (key: string) => createHash("sha256").update(key).digest("hex");

export async function createApiKey(workspaceId: string, name: string, createdById: string | null) {
  const prefix = `${KEY_PREFIX}${randomBytes(4).toString("hex")}`;
  const key = `${prefix}_${randomBytes(30).toString("base64url")}`;
  const row = await db().apiKey.create({ data: { workspaceId, name, prefix, keyHash: hashKey(key), createdById }, select: { id: true, name: true, prefix: true, createdAt: true } });
  return { ...row, key };
}

export async function listApiKeys(workspaceId: string) {
  return db().apiKey.findMany({
    where: { workspaceId, revokedAt: null },
    select: { id: true, name: true, prefix: true, createdAt: true, lastUsedAt: true },
    orderBy: { createdAt: "desc" },
  });
}

export async function revokeApiKey(workspaceId: string, apiKeyId: string) {
  const { count } = await db().apiKey.updateMany({ where: { id: apiKeyId, workspaceId, revokedAt: null }, data: { revokedAt: new Date() } });
  if (!count) throw new NotFoundError("That API key does not exist in this workspace.");
}

export type ApiKeyCaller = { apiKeyId: string; workspaceId: string };

/** The workspace a bearer key belongs to, or null for an unknown or revoked key. */
export async function authenticateApiKey(key: string): Promise<ApiKeyCaller | null> {
  if (!key.startsWith(KEY_PREFIX) || key.length > 200) return null;
  const row = await db().apiKey.findUnique({ where: { keyHash: hashKey(key) }, select: { id: true, workspaceId: true, revokedAt: true, lastUsedAt: true } });
  if (!row || row.revokedAt) return null;
  // Record use at most once a minute, so busy clients do not write on every request.
  if (!row.lastUsedAt || Date.now() - row.lastUsedAt.getTime() > 60_000) {
    await db().apiKey.update({ where: { id: row.id }, data: { lastUsedAt: new Date() } });
  }
  return { apiKeyId: row.id, workspaceId: row.workspaceId };
}
