import "server-only";
import { MARKET_OF_PROMPT } from "@/lib/analytics/filter";
import { marketLabel } from "@/lib/analytics/markets";
import { readDb } from "@/lib/db/prisma";

/** What the filter bar offers: brands, providers, prompt tags and markets of the workspace. */
export async function analyticsOptions(workspaceId: string) {
  const [brands, providers, tags, markets, captured] = await Promise.all([
    readDb().brand.findMany({ where: { workspaceId }, select: { id: true, name: true }, orderBy: { createdAt: "asc" } }),
    readDb().providerConfig.findMany({ where: { workspaceId }, select: { id: true, name: true }, orderBy: { name: "asc" } }),
    readDb().$queryRaw<{ tag: string }[]>`
      SELECT DISTINCT tag FROM prompts, unnest(tags) AS tag WHERE "workspaceId" = ${workspaceId}::uuid ORDER BY tag`,
    readDb().$queryRaw<{ market: string }[]>`
      SELECT DISTINCT ${MARKET_OF_PROMPT} AS market FROM prompts p WHERE p."workspaceId" = ${workspaceId}::uuid ORDER BY 1`,
    readDb().capture.findFirst({ where: { workspaceId, status: "succeeded" }, select: { id: true } }),
  ]);
  return { brands, providers, tags: tags.map((t) => t.tag), markets: markets.map((m) => ({ key: m.market, label: marketLabel(m.market) })), hasResults: captured !== null };
}

export type AnalyticsOptions = Awaited<ReturnType<typeof analyticsOptions>>;
