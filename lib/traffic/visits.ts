import "server-only";
import { randomBytes } from "node:crypto";
import { db, readDb } from "@/lib/db/prisma";
import { NotFoundError } from "@/lib/errors";
import { Prisma } from "@/lib/generated/prisma/client";
import { pagePeriodUpsert } from "@/lib/traffic/page-periods";
import { siteOf } from "@/lib/analysis/citations";
import { onOwnSites, ownSites } from "@/lib/traffic/store";
import { classifyVisit } from "@/lib/traffic/visit-source";

// Visits that AI assistants send to the workspace's own pages, reported by the /t.js script
// (docs/traffic.md "Visits sent by assistants"). Only the daily rollup (and its rollups) is
// stored: a visit is a count per (day, landing domain, path, assistant), with nothing about the visitor.

/** The shape of a site key: "bs_" and 24 URL-safe characters (18 random bytes). */
export const SITE_KEY_PATTERN = /^bs_[A-Za-z0-9_-]{24}$/;

export type SiteKey = { key: string; createdAt: Date };

/** The workspace's site key, or null before an admin created one. */
export async function siteKeyOf(workspaceId: string): Promise<SiteKey | null> {
  return db().trafficSiteKey.findUnique({ where: { workspaceId }, select: { key: true, createdAt: true } });
}

/**
 * A site key as it changes: the workspace's key after the call, and whether this call changed it
 * (false: the key was already created, or already rotated away from `replacing`).
 */
export type SiteKeyChange = SiteKey & { changed: boolean };

/**
 * Creates the workspace's site key, or replaces `replacing` (the key the admin saw): the old key
 * stops counting at once. A replacement keeps `firstCreatedAt`: the site has had the script since. Both are conditional writes, so a second click, or a second admin, that
 * saw the same key changes nothing and gets the key the first made. Before, "Create site key"
 * clicked twice created a key and rotated it away at once: a site given the first had nothing
 * counted.
 */
export async function rotateSiteKey(workspaceId: string, replacing: string | null): Promise<SiteKeyChange> {
  const key = `bs_${randomBytes(18).toString("base64url")}`;
  // Both by the database's clock: recordVisit compares the window's start with its now(), and the
  // visits_changed alert the key's age with its periods. From this server's clock (Prisma filled
  // windowStart), a web server two hours ahead gave a new key a window that did not end for two
  // hours: past the first minute's limit, every visit was dropped.
  const now = Prisma.sql`(now() AT TIME ZONE 'UTC')`;
  const [written] =
    replacing === null
      ? await db().$queryRaw<SiteKey[]>`
          INSERT INTO traffic_site_keys ("workspaceId", key, "createdAt", "firstCreatedAt", "windowStart", "windowCount")
          VALUES (${workspaceId}::uuid, ${key}, ${now}, ${now}, ${now}, 0)
          ON CONFLICT ("workspaceId") DO NOTHING
          RETURNING key, "createdAt"`
      : await db().$queryRaw<SiteKey[]>`
          UPDATE traffic_site_keys SET key = ${key}, "createdAt" = ${now}, "windowStart" = ${now}, "windowCount" = 0
          WHERE "workspaceId" = ${workspaceId}::uuid AND key = ${replacing}
          RETURNING key, "createdAt"`;
  if (written) return { ...written, changed: true };
  const current = await siteKeyOf(workspaceId);
  if (!current) throw new NotFoundError("This workspace has no site key to rotate: create one first.");
  return { ...current, changed: false };
}

/** Reports per key this process has let through in the current minute (see localAllowance). */
const localWindows = new Map<string, { minute: number; count: number }>();
/** Keys remembered at most; past it the map starts again (a flood of made-up keys cannot grow it). */
const LOCAL_KEYS_MAX = 10_000;

/**
 * The shared limit is counted on the key's row; a key is public (it is in the site's pages), so a
 * flood with a real key would make every report an UPDATE of that one row, each holding a
 * connection while it waits for the row. This process lets at most the limit per key and minute
 * reach the database, so the row sees at most (web processes x limit) updates a minute, whatever
 * arrives.
 */
function localAllowance(key: string, limitPerMinute: number): boolean {
  const minute = Math.floor(Date.now() / 60_000);
  if (localWindows.size >= LOCAL_KEYS_MAX && !localWindows.has(key)) localWindows.clear();
  const window = localWindows.get(key);
  if (!window || window.minute !== minute) {
    localWindows.set(key, { minute, count: 1 });
    return true;
  }
  window.count++;
  return window.count <= limitPerMinute;
}

export type VisitOutcome = "recorded" | "not_assistant" | "unknown_key" | "rate_limited" | "other_domain";

/**
 * Records one page view reported by the script, when an assistant sent it (referrer or
 * utm_source, lib/traffic/visit-source.ts) to one of the key's workspace's own domains (same rule
 * as crawler hits: the registrable domain of a brand's domain). Page views that name no
 * assistant never reach the database. The rest count against the key's limit per minute, in a
 * window on the key's row by the database clock: the lookup and the count are one UPDATE, so
 * every web replica shares one limit. The outcome is for tests and logs; callers answer the
 * same whatever it is, so the answer does not tell whether a key exists.
 */
export async function recordVisit(input: { key: string; url: string; referrer: string }, limitPerMinute: number): Promise<VisitOutcome> {
  const visit = classifyVisit(input);
  if (!visit) return "not_assistant";
  if (!SITE_KEY_PATTERN.test(input.key)) return "unknown_key";
  if (!localAllowance(input.key, limitPerMinute)) return "rate_limited";
  const [site] = await db().$queryRaw<{ workspaceId: string; windowCount: number }[]>`
    UPDATE traffic_site_keys SET
      "windowStart" = CASE WHEN "windowStart" > (now() AT TIME ZONE 'UTC') - interval '1 minute' THEN "windowStart" ELSE (now() AT TIME ZONE 'UTC') END,
      "windowCount" = CASE WHEN "windowStart" > (now() AT TIME ZONE 'UTC') - interval '1 minute' THEN "windowCount" + 1 ELSE 1 END
    WHERE key = ${input.key}
    RETURNING "workspaceId"::text AS "workspaceId", "windowCount"`;
  if (!site) return "unknown_key";
  if (site.windowCount > limitPerMinute) return "rate_limited";
  if (!(await ownSites(site.workspaceId)).has(siteOf(visit.domain))) return "other_domain";
  await addVisits(site.workspaceId, [{ day: null, domain: visit.domain, path: visit.path, assistant: visit.assistant.name, visits: 1 }]);
  return "recorded";
}

/** Visits to add to one day's count of a page and assistant; day null: today by the database's clock (UTC). */
export type VisitCount = { day: string | null; domain: string; path: string; assistant: string; visits: number };

/**
 * Adds visits to traffic_visits_daily and its rollups for the Traffic page (per day and assistant
 * without the path, per week and page, per month and page) in ONE statement, so the rollups always
 * equal the daily rows (docs/traffic.md "What is stored"). Each table's groups are upserted in key order.
 */
export async function addVisits(workspaceId: string, visits: VisitCount[]): Promise<void> {
  if (!visits.length) return;
  await db().$executeRaw`
    WITH input AS (
      SELECT coalesce(v.day, (now() AT TIME ZONE 'UTC')::date) AS day, v.domain, v.path, v.assistant, v.visits
      FROM unnest(${visits.map((v) => v.day)}::date[], ${visits.map((v) => v.domain)}::text[], ${visits.map((v) => v.path)}::text[],
                  ${visits.map((v) => v.assistant)}::text[], ${visits.map((v) => v.visits)}::int[]) AS v(day, domain, path, assistant, visits)
    ), g AS (
      SELECT day, domain, path, assistant, sum(visits)::int AS visits FROM input GROUP BY 1, 2, 3, 4
    ), assistants AS (
      INSERT INTO traffic_visits_assistants_daily ("workspaceId", day, domain, assistant, visits)
      SELECT ${workspaceId}::uuid, day, domain, assistant, sum(visits) FROM g
      GROUP BY day, domain, assistant ORDER BY day, domain, assistant
      ON CONFLICT ("workspaceId", day, domain, assistant) DO UPDATE SET visits = traffic_visits_assistants_daily.visits + EXCLUDED.visits
    ), weekly AS (${pagePeriodUpsert(workspaceId, "traffic_visits_pages_weekly", "week", ["visits"])}
    ), monthly AS (${pagePeriodUpsert(workspaceId, "traffic_visits_pages_monthly", "month", ["visits"])}
    )
    INSERT INTO traffic_visits_daily ("workspaceId", day, domain, path, assistant, visits)
    SELECT ${workspaceId}::uuid, day, domain, path, assistant, visits FROM g
    ORDER BY day, domain, path, assistant
    ON CONFLICT ("workspaceId", day, domain, path, assistant) DO UPDATE SET visits = traffic_visits_daily.visits + EXCLUDED.visits`;
}

/** Days as YYYY-MM-DD, both included. */
export type DayRange = { from: string; to: string };

export type PageVisits = { domain: string; path: string; visits: number; byAssistant: Record<string, number> };

/**
 * Visits per landing page in the range, most visited first, each split by assistant: one page of
 * them (`page`, `pageSize`), with how many landing pages had visits in all (`total`). Here, and in
 * visitsByAssistantPerDay, only today's own sites count, as on the Traffic page.
 */
export async function visitsByPage(workspaceId: string, range: DayRange, paging: { page: number; pageSize: number }): Promise<{ pages: PageVisits[]; total: number }> {
  const own = await onOwnSites(workspaceId, Prisma.sql`domain`);
  const rows = await readDb().$queryRaw<{ domain: string; path: string; assistant: string | null; visits: number | null; pageTotal: number | null; total: number }[]>`
    WITH ranked AS (
      SELECT domain, path, sum(visits)::int AS "pageTotal", count(*) OVER ()::int AS total
      FROM traffic_visits_daily
      WHERE "workspaceId" = ${workspaceId}::uuid AND day BETWEEN ${range.from}::date AND ${range.to}::date AND ${own}
      GROUP BY domain, path
    ), shown AS (
      SELECT * FROM ranked ORDER BY "pageTotal" DESC, domain, path LIMIT ${paging.pageSize} OFFSET ${(paging.page - 1) * paging.pageSize}
    )
    SELECT v.domain, v.path, v.assistant, sum(v.visits)::int AS visits, p."pageTotal", p.total
    FROM traffic_visits_daily v JOIN shown p USING (domain, path)
    WHERE v."workspaceId" = ${workspaceId}::uuid AND v.day BETWEEN ${range.from}::date AND ${range.to}::date
    GROUP BY v.domain, v.path, v.assistant, p."pageTotal", p.total
    UNION ALL
    -- A page past the last still says how many there are.
    SELECT NULL, NULL, NULL, NULL, NULL, (SELECT count(*)::int FROM ranked) WHERE NOT EXISTS (SELECT 1 FROM shown)
    ORDER BY "pageTotal" DESC NULLS LAST, domain, path, visits DESC, assistant`;
  const pages: PageVisits[] = [];
  for (const row of rows) {
    if (row.domain === null || row.path === null || row.assistant === null) continue;
    let page = pages.at(-1);
    if (!page || page.domain !== row.domain || page.path !== row.path) pages.push((page = { domain: row.domain, path: row.path, visits: row.pageTotal!, byAssistant: {} }));
    page.byAssistant[row.assistant] = row.visits!;
  }
  return { pages, total: rows[0]?.total ?? 0 };
}

export type AssistantDay = { day: string; assistant: string; visits: number };

/** Visits per day and assistant in the range (days without visits are left out). */
export async function visitsByAssistantPerDay(workspaceId: string, range: DayRange): Promise<AssistantDay[]> {
  const own = await onOwnSites(workspaceId, Prisma.sql`domain`);
  return readDb().$queryRaw<AssistantDay[]>`
    SELECT to_char(day, 'YYYY-MM-DD') AS day, assistant, sum(visits)::int AS visits
    FROM traffic_visits_daily
    WHERE "workspaceId" = ${workspaceId}::uuid AND day BETWEEN ${range.from}::date AND ${range.to}::date AND ${own}
    GROUP BY day, assistant
    ORDER BY day, assistant`;
}
