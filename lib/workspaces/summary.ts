import "server-only";
import { db } from "@/lib/db/prisma";

export async function workspaceSummary(workspaceId: string) {
  const [brands, competitors, prompts, members] = await Promise.all([
    db().brand.count({ where: { workspaceId } }),
    db().competitor.count({ where: { workspaceId } }),
    db().prompt.count({ where: { workspaceId, deletedAt: null } }),
    db().membership.count({ where: { workspaceId } }),
  ]);
  return { brands, competitors, prompts, members };
}
