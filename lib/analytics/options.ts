import "server-only";
import { readDb } from "@/lib/db/prisma";

/** What the filter bar offers: brands, providers and prompt tags of the workspace. */
export async function analyticsOptions(workspaceId: string) {
  const [brands, providers, tags, captured] = await Promise.all([
    readDb().brand.findMany({ where: { workspaceId }, select: { id: true, name: true }, orderBy: { createdAt: "asc" } }),
    readDb().providerConfig.findMany({ where: { workspaceId }, select: { id: true, name: true }, orderBy: { name: "asc" } }),
    readDb().$queryRaw<{ tag: string }[]>`
      SELECT DISTINCT tag FROM prompts, unnest(tags) AS tag WHERE "workspaceId" = ${workspaceId}::uuid ORDER BY tag`,
    readDb().capture.findFirst({ where: { workspaceId, status: "succeeded" }, select: { id: true } }),
  ]);
  return { brands, providers, tags: tags.map((t) => t.tag), hasResults: captured !== null };
}

export type AnalyticsOptions = Awaited<ReturnType<typeof analyticsOptions>>;
