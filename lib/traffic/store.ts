import "server-only";
import { siteOf } from "@/lib/analysis/citations";
import { db } from "@/lib/db/prisma";
import { withRetries } from "@/lib/db/transaction";
import { NotFoundError } from "@/lib/errors";
import { Prisma } from "@/lib/generated/prisma/client";
import { pagePeriodUpsert } from "@/lib/traffic/page-periods";
import type { Verification } from "@/lib/traffic/verify";

export type StoredHit = { at: Date; domain: string; path: string; crawler: string; verification: Verification; status: number };

/**
 * Inserts a batch of hits and adds them to the daily rollup and its rollups for the Traffic page
 * (per day without the path, per day, week and month and page) in ONE statement, so every
 * rollup always equals the raw rows it came from (a failed statement writes none). For a few
 * hits (tests, small writers); an import writes through HitWriter (lib/traffic/hit-writer.ts),
 * which adds a whole chunk of batches to the rollups at once. The batch is grouped once into
 * traffic_daily's keys; the other rollups group those groups (rollupsOfGroups). These tables have
 * no foreign key (a check per row was a third of the import's PostgreSQL time): the batch locks
 * its workspace's row once (FOR KEY SHARE), so a deletion waits for it and its trigger
 * (workspaces_traffic_deleted) then removes these rows too; a deleted workspace stores nothing.
 */
export async function storeHits(workspaceId: string, hits: StoredHit[]): Promise<void> {
  if (!hits.length) return;
  const written = await withRetries(
    () => db().$executeRaw`
      WITH workspace AS (
        SELECT id FROM workspaces WHERE id = ${workspaceId}::uuid FOR KEY SHARE
      ), input AS (
        SELECT t.* FROM workspace, ${hitsInput(hits)}
      ), raw AS (
        ${insertRawHits(workspaceId)}
      ), g AS (
        SELECT at::date AS day, domain, path, crawler, verification, count(*)::int AS hits, (count(*) FILTER (WHERE status >= 400))::int AS errors
        FROM input
        GROUP BY 1, 2, 3, 4, 5
      ), ${rollupsOfGroups(workspaceId)}`,
  );
  if (written === 0) throw new NotFoundError("That workspace does not exist (any more).");
}

/** The hits as a set of rows t(at, domain, path, crawler, verification, status), `at` in UTC. */
export function hitsInput(hits: StoredHit[]): Prisma.Sql {
  return Prisma.sql`(
    SELECT (u.at AT TIME ZONE 'UTC') AS at, u.domain, u.path, u.crawler, u.verification, u.status
    FROM unnest(${hits.map((h) => h.at.toISOString())}::timestamptz[], ${hits.map((h) => h.domain)}::text[], ${hits.map((h) => h.path)}::text[],
                ${hits.map((h) => h.crawler)}::text[], ${hits.map((h) => h.verification)}::text[], ${hits.map((h) => h.status)}::int[])
         AS u(at, domain, path, crawler, verification, status)
  ) t`;
}

/** Inserts the rows of `input` (hitsInput's columns) as the workspace's raw hits. */
export function insertRawHits(workspaceId: string): Prisma.Sql {
  return Prisma.sql`
    INSERT INTO traffic_hits ("workspaceId", day, at, domain, path, crawler, verification, status)
    SELECT ${workspaceId}::uuid, at::date, at, domain, path, crawler, verification, status FROM input`;
}

/**
 * The tail of a statement whose CTE `g` holds hits grouped into traffic_daily's keys (day,
 * domain, path, crawler, verification, hits, errors): the CTEs that add them to the rollups for
 * the Traffic page, then the main INSERT that adds them to traffic_daily. Each rollup's groups
 * are upserted in key order, so two writers into the same pages lock rows in the same order; a
 * deadlock or serialization failure is retried as a whole by the caller.
 */
export function rollupsOfGroups(workspaceId: string): Prisma.Sql {
  return Prisma.sql`crawls AS (
        INSERT INTO traffic_crawls_daily ("workspaceId", day, domain, crawler, verification, hits, errors)
        SELECT ${workspaceId}::uuid, day, domain, crawler, verification, sum(hits), sum(errors) FROM g
        GROUP BY day, domain, crawler, verification
        ORDER BY day, domain, crawler, verification
        ON CONFLICT ("workspaceId", day, domain, crawler, verification)
        DO UPDATE SET hits = traffic_crawls_daily.hits + EXCLUDED.hits, errors = traffic_crawls_daily.errors + EXCLUDED.errors
      ), pages_daily AS (
        INSERT INTO traffic_pages_daily ("workspaceId", day, domain, path, hits, errors)
        SELECT ${workspaceId}::uuid, day, domain, path, sum(hits), sum(errors) FROM g
        GROUP BY day, domain, path
        ORDER BY day, domain, path
        ON CONFLICT ("workspaceId", day, domain, path)
        DO UPDATE SET hits = traffic_pages_daily.hits + EXCLUDED.hits, errors = traffic_pages_daily.errors + EXCLUDED.errors
      ), pages_weekly AS (${pagePeriodUpsert(workspaceId, "traffic_pages_weekly", "week", ["hits", "errors"])}
      ), pages_monthly AS (${pagePeriodUpsert(workspaceId, "traffic_pages_monthly", "month", ["hits", "errors"])}
      )
      INSERT INTO traffic_daily ("workspaceId", day, domain, path, crawler, verification, hits, errors)
      SELECT ${workspaceId}::uuid, day, domain, path, crawler, verification, hits, errors FROM g
      ORDER BY domain, path, day, crawler, verification
      ON CONFLICT ("workspaceId", domain, path, day, crawler, verification)
      DO UPDATE SET hits = traffic_daily.hits + EXCLUDED.hits, errors = traffic_daily.errors + EXCLUDED.errors`;
}

/**
 * Rows whose host (`column`) is one of `sites` (siteOf) or a subdomain of one. Reads of stored
 * crawls and visits go through it with the sites of today's domains, as imports and the visits
 * endpoint count only those: a domain a brand dropped stops counting in both.
 */
export function onSites(column: Prisma.Sql, sites: Iterable<string>): Prisma.Sql {
  const exact = [...new Set(sites)];
  const subdomains = exact.map((d) => `%.${d.replace(/[\\%_]/g, "\\$&")}`);
  return Prisma.sql`(${column} = ANY(${exact}::text[]) OR ${column} LIKE ANY(${subdomains}::text[]))`;
}

/** onSites with the workspace's own sites now: what the Traffic page, its alerts and REST read. */
export async function onOwnSites(workspaceId: string, column: Prisma.Sql): Promise<Prisma.Sql> {
  return onSites(column, await ownSites(workspaceId));
}

/** The sites of the workspace's brands' domains (siteOf each). */
export async function ownSites(workspaceId: string): Promise<Set<string>> {
  return new Set((await ownDomains(workspaceId)).map(siteOf));
}

/** The workspace's own domains: every domain of every brand it tracks. */
export async function ownDomains(workspaceId: string): Promise<string[]> {
  const brands = await db().brand.findMany({ where: { workspaceId }, select: { domains: true } });
  return brands.flatMap((b) => b.domains);
}

/** Refreshed ranges stored by `traffic ranges import`, by crawler name. */
export async function storedRanges(): Promise<Map<string, string[]>> {
  const rows = await db().crawlerIpRange.findMany({ select: { crawler: true, prefixes: true } });
  return new Map(rows.map((r) => [r.crawler, r.prefixes]));
}

/** Replaces a crawler's refreshed ranges. */
export async function saveRanges(input: { crawler: string; prefixes: string[]; source: string; publishedAt: Date | null }) {
  const data = { prefixes: input.prefixes, source: input.source, publishedAt: input.publishedAt, importedAt: new Date() };
  await db().crawlerIpRange.upsert({ where: { crawler: input.crawler }, create: { crawler: input.crawler, ...data }, update: data });
}
