import "server-only";
import { addDays, daysBetween, DAILY_BUCKETS_UP_TO_DAYS, isoDay, type ParsedAnalyticsFilter } from "@/lib/analytics/schemas";
import { readDb } from "@/lib/db/prisma";
import { NotFoundError } from "@/lib/errors";
import { Prisma } from "@/lib/generated/prisma/client";

/**
 * What every analytics query looks at: the SUCCEEDED captures of one brand whose finishedAt is in
 * [from, to), optionally only some providers, only prompts that carry any of some tags and only
 * prompts of some markets. Demo history is included like any other.
 */
export type AnalyticsFilter = {
  workspaceId: string;
  brandId: string;
  providerConfigIds?: string[];
  tags?: string[];
  /** Market keys (lib/analytics/markets.ts): a prompt's country and language. */
  markets?: string[];
  /**
   * Only these prompts (an empty list: none). For comparisons of like with like: an alert's two
   * periods on the prompts answered in both (comparedSums).
   */
  promptIds?: string[];
  from: Date;
  /** Exclusive. */
  to: Date;
};

export type Entity = { id: string; name: string };

/** A filter whose ids were checked against the workspace, with the names the charts label things by. */
export type ResolvedFilter = {
  filter: AnalyticsFilter;
  brand: Entity & { competitors: Entity[] };
  /** Every provider configuration of the workspace, filtered or not. */
  providers: Entity[];
};

/**
 * Checks that the brand and providers belong to the workspace (a foreign id is "not found") and
 * picks the first brand when none is given. Null when the workspace tracks no brand yet.
 */
export async function resolveFilter(workspaceId: string, input: ParsedAnalyticsFilter): Promise<ResolvedFilter | null> {
  const select = { id: true, name: true, competitors: { select: { id: true, name: true }, orderBy: { createdAt: "asc" as const } } };
  const [brand, providers] = await Promise.all([
    input.brandId
      ? readDb().brand.findFirst({ where: { id: input.brandId, workspaceId }, select })
      : readDb().brand.findFirst({ where: { workspaceId }, select, orderBy: { createdAt: "asc" } }),
    readDb().providerConfig.findMany({ where: { workspaceId }, select: { id: true, name: true }, orderBy: { name: "asc" } }),
  ]);
  if (input.brandId && !brand) throw new NotFoundError("That brand does not exist in this workspace.", { field: "brandId" });
  const known = new Set(providers.map((p) => p.id));
  if (input.providers.some((id) => !known.has(id))) throw new NotFoundError("That provider does not exist in this workspace.", { field: "providers" });
  if (!brand) return null;
  return {
    filter: {
      workspaceId,
      brandId: brand.id,
      providerConfigIds: input.providers.length ? input.providers : undefined,
      tags: input.tags.length ? input.tags : undefined,
      markets: input.markets.length ? input.markets : undefined,
      from: input.from,
      to: input.to,
    },
    brand,
    providers,
  };
}

/**
 * The WHERE clause of the captures in scope, for a query that names captures `c`. The range
 * conditions lead with the columns of captures (workspaceId, brandId, finishedAt).
 */
export function captureScope(f: AnalyticsFilter): Prisma.Sql {
  return Prisma.sql`c."workspaceId" = ${f.workspaceId}::uuid
    AND c."brandId" = ${f.brandId}::uuid
    AND c."finishedAt" >= ${f.from}::timestamp AND c."finishedAt" < ${f.to}::timestamp
    AND c.status = 'succeeded'
    ${providerAndTagScope(f)}`;
}

/** The provider and prompt conditions alone (costs apply them to the captures of attempts). */
export function providerAndTagScope(f: AnalyticsFilter): Prisma.Sql {
  const providers = f.providerConfigIds?.length ? Prisma.sql`AND c."providerConfigId" = ANY(${f.providerConfigIds}::uuid[])` : Prisma.empty;
  return Prisma.sql`${providers} ${promptScope(f, Prisma.sql`c."promptId"`)}`;
}

/** The market key of a prompt `p`, in SQL (lib/analytics/markets.ts marketKey). */
export const MARKET_OF_PROMPT = Prisma.sql`(coalesce(p.country, '') || ':' || coalesce(p.language, ''))`;

/**
 * The prompt conditions (the picked prompts; tags and markets as one subquery over the workspace's
 * prompts) on a column holding the prompt's id; empty when the filter has none.
 */
export function promptScope(f: AnalyticsFilter, promptId: Prisma.Sql): Prisma.Sql {
  const picked = f.promptIds ? Prisma.sql`AND ${promptId} = ANY(${f.promptIds}::uuid[])` : Prisma.empty;
  return Prisma.sql`${picked} ${promptAttributeScope(f, promptId)}`;
}

function promptAttributeScope(f: AnalyticsFilter, promptId: Prisma.Sql): Prisma.Sql {
  if (!f.tags?.length && !f.markets?.length) return Prisma.empty;
  const tags = f.tags?.length ? Prisma.sql`AND p.tags && ${f.tags}::text[]` : Prisma.empty;
  const markets = f.markets?.length ? Prisma.sql`AND ${MARKET_OF_PROMPT} = ANY(${f.markets}::text[])` : Prisma.empty;
  return Prisma.sql`AND ${promptId} IN (SELECT p.id FROM prompts p WHERE p."workspaceId" = ${f.workspaceId}::uuid ${tags} ${markets})`;
}

/** The period of equal length just before this one, for "change since". */
export function previousPeriod(f: AnalyticsFilter): AnalyticsFilter {
  return { ...f, from: new Date(f.from.getTime() - (f.to.getTime() - f.from.getTime())), to: f.from };
}

export type BucketUnit = "day" | "week";

export const bucketUnit = (f: AnalyticsFilter): BucketUnit => (daysBetween(f.from, f.to) > DAILY_BUCKETS_UP_TO_DAYS ? "week" : "day");

/** Every bucket start of the range (YYYY-MM-DD), so series show empty days instead of skipping them. */
export function bucketKeys(f: AnalyticsFilter): string[] {
  const unit = bucketUnit(f);
  let start = new Date(Date.UTC(f.from.getUTCFullYear(), f.from.getUTCMonth(), f.from.getUTCDate()));
  // date_trunc('week') starts weeks on Monday.
  if (unit === "week") start = addDays(start, -((start.getUTCDay() + 6) % 7));
  const keys: string[] = [];
  for (let d = start; d < f.to; d = addDays(d, unit === "week" ? 7 : 1)) keys.push(isoDay(d));
  return keys;
}

/** SQL that truncates a timestamp column to the range's bucket. */
export const bucketOf = (f: AnalyticsFilter, column: Prisma.Sql) => Prisma.sql`date_trunc(${bucketUnit(f)}, ${column})`;

/** Counts and sums come back from PostgreSQL as bigint, numeric or null. */
export const num = (value: unknown): number => (value === null || value === undefined ? 0 : Number(value));
