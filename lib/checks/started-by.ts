import "server-only";
import { db } from "@/lib/db/prisma";

export async function userNames(ids: (string | null)[]): Promise<Map<string, string>> {
  const unique = [...new Set(ids.filter((id): id is string => !!id))];
  if (!unique.length) return new Map();
  const users = await db().user.findMany({ where: { id: { in: unique } }, select: { id: true, name: true } });
  return new Map(users.map((u) => [u.id, u.name]));
}

/** Who started a check: a member (through the UI or their API key), an old API key with no member, or a schedule. */
export function startedBy(check: { startedById: string | null; apiKeyId: string | null }, names: Map<string, string>): string {
  if (!check.startedById) return check.apiKeyId ? "API" : "schedule";
  const name = names.get(check.startedById) ?? "a former member";
  return check.apiKeyId ? `${name} (API key)` : name;
}
