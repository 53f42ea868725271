import "server-only";
import { bucketKeys, bucketOf, bucketUnit, num, type ResolvedFilter } from "@/lib/analytics/filter";
import { rollupScope } from "@/lib/analytics/rollups";
import { addDays, isoDay } from "@/lib/analytics/schemas";
import { rollupSpans, type SpanLevel } from "@/lib/analytics/traffic-spans";
import { wilson } from "@/lib/analytics/stats";
import { readDb } from "@/lib/db/prisma";
import { Prisma } from "@/lib/generated/prisma/client";
import { CRAWLERS } from "@/lib/traffic/crawlers";
import { siteOf } from "@/lib/traffic/store";
import type { Verification } from "@/lib/traffic/verify";

// The Traffic page's numbers (issue 21 item 4, docs/traffic.md): crawls read the daily rollup
// traffic_daily, never the raw hits; citations read rollup_own_pages and the answers in scope
// rollup_answers, as the Sources page does. Crawls belong to the selected brand's domains (a
// host counts when it shares its registrable domain with one of them) over the range's days; the
// provider, tag and market filters narrow the citations only (a crawler does not ask prompts).
// A page is (domain, path): the host without "www." and port as the import stores it, and the
// path without query or fragment, so a cited URL and a crawled path meet on the same key.

/** A gap of this many days without a crawl makes a cited page "not crawled". */
export const NOT_CRAWLED_DAYS = 30;

const CRAWLER_INFO = new Map(CRAWLERS.map((c) => [c.name, { operator: c.operator, purpose: c.purpose }]));

/** Operator and purpose of a stored crawler name; a name the list no longer has keeps its hits. */
export const crawlerInfo = (name: string) => CRAWLER_INFO.get(name) ?? { operator: "unknown", purpose: null };

/** Whether any hit was ever imported into the workspace: the page's empty state says how otherwise. */
export async function hasTrafficLogs(workspaceId: string): Promise<boolean> {
  const [row] = await readDb().$queryRaw<{ any: boolean }[]>`SELECT EXISTS (SELECT 1 FROM traffic_daily t WHERE t."workspaceId" = ${workspaceId}::uuid) AS any`;
  return !!row?.any;
}

/** The brand's registrable domains: the hosts whose crawls count for it. */
async function brandDomains(r: ResolvedFilter): Promise<string[]> {
  const brand = await readDb().brand.findFirst({ where: { id: r.filter.brandId, workspaceId: r.filter.workspaceId }, select: { domains: true } });
  const domains = (brand?.domains ?? []).map(siteOf);
  return [...new Set(domains.filter(Boolean))];
}

/** Rows `t` whose `domain` is one of the brand's hosts (or a subdomain of one). */
function domainScope(domains: string[]): Prisma.Sql {
  const subdomains = domains.map((d) => `%.${d.replace(/[\\%_]/g, "\\$&")}`);
  return Prisma.sql`(t.domain = ANY(${domains}::text[]) OR t.domain LIKE ANY(${subdomains}::text[]))`;
}

/** Rows `t` (a table with `day`: traffic_daily, its rollups, traffic_visits_daily) of the workspace on the brand's hosts in [first, end). */
function crawlScope(r: ResolvedFilter, domains: string[], first: string, end: string): Prisma.Sql {
  return Prisma.sql`t."workspaceId" = ${r.filter.workspaceId}::uuid AND t.day >= ${first}::date AND t.day < ${end}::date AND ${domainScope(domains)}`;
}

// The per-page rollups of a range's spans (rollupSpans): months, ISO weeks (their Monday) and days.
const PAGE_CRAWLS: Record<SpanLevel, [table: Prisma.Sql, period: Prisma.Sql]> = {
  month: [Prisma.sql`traffic_pages_monthly`, Prisma.sql`t.month`],
  week: [Prisma.sql`traffic_pages_weekly`, Prisma.sql`t.week`],
  day: [Prisma.sql`traffic_pages_daily`, Prisma.sql`t.day`],
};

/**
 * Crawls per page in [first, end), all crawlers together, as rows (domain, path, hits, errors)
 * to be summed per page, from traffic_pages_monthly, traffic_pages_weekly and traffic_pages_daily:
 * the range as the fewest months, weeks and days, each added or subtracted (rollupSpans), so 90
 * days are about 10 rows per page instead of a row per day, crawler and verification
 * (docs/traffic.md "What is stored"). A page crawled on subtracted days only sums to 0: callers
 * keep pages with hits > 0.
 */
function pageCrawls(r: ResolvedFilter, domains: string[], first: string, end: string): Prisma.Sql {
  const spans = rollupSpans(new Date(`${first}T00:00:00Z`), new Date(`${end}T00:00:00Z`));
  const parts: Prisma.Sql[] = [];
  for (const level of ["month", "week", "day"] as const) {
    for (const sign of [1, -1] as const) {
      const mine = spans.filter((s) => s.level === level && s.sign === sign);
      if (!mine.length) continue;
      const [table, period] = PAGE_CRAWLS[level];
      const within = mine.map((s) => Prisma.sql`(${period} >= ${isoDay(s.from)}::date AND ${period} < ${isoDay(s.to)}::date)`);
      parts.push(Prisma.sql`
        SELECT t.domain, t.path, ${sign === 1 ? Prisma.sql`t.hits, t.errors` : Prisma.sql`-t.hits, -t.errors`} FROM ${table} t
        WHERE t."workspaceId" = ${r.filter.workspaceId}::uuid AND (${Prisma.join(within, " OR ")}) AND ${domainScope(domains)}`);
    }
  }
  return Prisma.join(parts, " UNION ALL "); // a range has at least one day, so one span
}

const range = (r: ResolvedFilter) => ({ first: isoDay(r.filter.from), end: isoDay(r.filter.to) });

/** Crawls per bucket (day, or week past 120 days), crawler and verification, with each crawler's totals. */
export async function crawlsOverTime(r: ResolvedFilter) {
  const domains = await brandDomains(r);
  const { first, end } = range(r);
  const rows = await readDb().$queryRaw<{ bucket: Date; crawler: string; verification: Verification; hits: number }[]>`
    SELECT ${bucketOf(r.filter, Prisma.sql`t.day::timestamp`)} AS bucket, t.crawler, t.verification, sum(t.hits)::int AS hits
    FROM traffic_crawls_daily t
    WHERE ${crawlScope(r, domains, first, end)}
    GROUP BY 1, 2, 3
    ORDER BY 1, 2, 3`;
  const totals = new Map<string, { crawler: string; hits: number; verified: number; unverified: number; unchecked: number }>();
  for (const row of rows) {
    const total = totals.get(row.crawler) ?? { crawler: row.crawler, hits: 0, verified: 0, unverified: 0, unchecked: 0 };
    total.hits += num(row.hits);
    total[row.verification] += num(row.hits);
    totals.set(row.crawler, total);
  }
  return {
    unit: bucketUnit(r.filter),
    buckets: bucketKeys(r.filter),
    crawlers: [...totals.values()].sort((a, b) => b.hits - a.hits || a.crawler.localeCompare(b.crawler)).map((t) => ({ ...t, ...crawlerInfo(t.crawler) })),
    rows: rows.map((row) => ({ bucket: isoDay(row.bucket), crawler: row.crawler, verification: row.verification, hits: num(row.hits) })),
  };
}

export type CrawlsOverTime = Awaited<ReturnType<typeof crawlsOverTime>>;

/**
 * Visits that assistants sent to the brand's domains per bucket (day, or week past 120 days) and
 * assistant, from the visits script's rollup, with each assistant's total (most visits first).
 */
export async function visitsOverTime(r: ResolvedFilter) {
  const domains = await brandDomains(r);
  const { first, end } = range(r);
  const rows = await readDb().$queryRaw<{ bucket: Date; assistant: string; visits: number }[]>`
    SELECT ${bucketOf(r.filter, Prisma.sql`t.day::timestamp`)} AS bucket, t.assistant, sum(t.visits)::int AS visits
    FROM traffic_visits_daily t
    WHERE ${crawlScope(r, domains, first, end)}
    GROUP BY 1, 2
    ORDER BY 1, 2`;
  const totals = new Map<string, number>();
  for (const row of rows) totals.set(row.assistant, (totals.get(row.assistant) ?? 0) + num(row.visits));
  return {
    unit: bucketUnit(r.filter),
    buckets: bucketKeys(r.filter),
    assistants: [...totals].map(([assistant, visits]) => ({ assistant, visits })).sort((a, b) => b.visits - a.visits || a.assistant.localeCompare(b.assistant)),
    rows: rows.map((row) => ({ bucket: isoDay(row.bucket), assistant: row.assistant, visits: num(row.visits) })),
  };
}

/**
 * Pages most crawled in the range, a page of them at a time: ranked from the page rollups
 * (pageCrawls); the number of crawlers and the last day, which do not add up over days, are read
 * for the rows shown only, on traffic_daily's per-page key.
 */
export async function topCrawledPages(r: ResolvedFilter, page: number, pageSize: number) {
  const domains = await brandDomains(r);
  const { first, end } = range(r);
  const rows = await readDb().$queryRaw<{ domain: string; path: string; hits: number; errors: number; crawlers: number; lastCrawled: Date; total: number }[]>`
    WITH ranked AS (
      SELECT c.domain, c.path, sum(c.hits)::int AS hits, sum(c.errors)::int AS errors, count(*) OVER ()::int AS total
      FROM (${pageCrawls(r, domains, first, end)}) c
      GROUP BY c.domain, c.path
      HAVING sum(c.hits) > 0
      ORDER BY hits DESC, c.domain, c.path
      LIMIT ${pageSize} OFFSET ${(page - 1) * pageSize}
    )
    SELECT k.*, d.crawlers, d."lastCrawled"
    FROM ranked k
      CROSS JOIN LATERAL (SELECT count(DISTINCT t.crawler)::int AS crawlers, max(t.day) AS "lastCrawled" FROM traffic_daily t
                          WHERE t."workspaceId" = ${r.filter.workspaceId}::uuid AND t.domain = k.domain AND t.path = k.path
                            AND t.day >= ${first}::date AND t.day < ${end}::date) d
    ORDER BY k.hits DESC, k.domain, k.path`;
  return {
    items: rows.map(({ total: _total, ...row }) => ({ domain: row.domain, path: row.path, hits: num(row.hits), errors: num(row.errors), crawlers: num(row.crawlers), lastCrawled: isoDay(row.lastCrawled) })),
    total: num(rows[0]?.total),
    page,
    pageSize,
  };
}

export const FUNNEL_LISTS = ["all", "crawled-not-cited", "cited-not-crawled", "blocked-cited"] as const;
export type FunnelList = (typeof FUNNEL_LISTS)[number];

// A cited URL's page key in SQL, as the import keys a hit (normalizeHost, the path without query).
const URL_HOST = Prisma.sql`regexp_replace(lower(substring(r.url from '^[a-zA-Z][a-zA-Z0-9+.-]*://(?:[^@/?#]*@)?([^/:?#]+)')), '^www\\.', '')`;
const URL_PATH = Prisma.sql`coalesce(nullif(substring(r.url from '^[a-zA-Z][a-zA-Z0-9+.-]*://[^/?#]*([^?#]*)'), ''), '/')`;

const LIST_WHERE: Record<FunnelList, Prisma.Sql> = {
  all: Prisma.empty,
  "crawled-not-cited": Prisma.sql`WHERE p.crawls > 0 AND p.answers = 0`,
  "cited-not-crawled": Prisma.empty, // its own WHERE in pageFunnel: a probe per cited page
  "blocked-cited": Prisma.sql`WHERE p.answers > 0 AND p."blockedFor" IS NOT NULL`,
};
const LIST_ORDER: Record<FunnelList, Prisma.Sql> = {
  all: Prisma.sql`p.answers DESC, p.crawls DESC, p.visits DESC`,
  "crawled-not-cited": Prisma.sql`p.crawls DESC`,
  "cited-not-crawled": Prisma.sql`p.answers DESC, p.citations DESC`,
  "blocked-cited": Prisma.sql`p.answers DESC, p.citations DESC`,
};

type FunnelSqlRow = {
  domain: string;
  path: string;
  url: string | null;
  title: string | null;
  crawls: number;
  lastCrawled: Date | null;
  crawlers: { crawler: string; hits: number }[] | null;
  citations: number;
  answers: number;
  visits: number;
  assistants: { assistant: string; visits: number }[] | null;
  blockedFor: string[] | null;
  robotsUnreachable: boolean | null;
  total: number;
};

/**
 * Per own page: crawled (crawls in range, the last day a crawler came, by whom), cited (answers
 * citing it, out of the answers in scope, with the 95 % interval) and visited (visits assistants
 * sent to it in range, by assistant), and the search and user-fetch crawlers robots.txt blocks
 * from it as the last readiness check found (`blockedFor`: every page cited in the 90 days before
 * that check; a page first cited since shows no block until the next one). `list` keeps the pages to act
 * on: crawled but never cited in the range, or cited in the range with no crawl in the
 * NOT_CRAWLED_DAYS days before its end, or cited and blocked by robots.txt for a crawler that
 * answers questions (search or user purpose). A page's answers add up its URLs' rows (one per URL and
 * answer in the rollup), so an answer citing two spellings of one page (with and without www.)
 * counts twice; capped at the answers in scope, the share stays a share. Each column joins as one
 * more CTE on (domain, path).
 */
export async function pageFunnel(r: ResolvedFilter, list: FunnelList, page: number, pageSize: number) {
  const domains = await brandDomains(r);
  const { first, end } = range(r);
  const recent = isoDay(addDays(r.filter.to, -NOT_CRAWLED_DAYS));
  // "Not crawled in 30 days": one probe on traffic_daily's per-page index per cited page.
  const notCrawled = Prisma.sql`WHERE p.answers > 0 AND NOT EXISTS (
    SELECT 1 FROM traffic_daily t WHERE t."workspaceId" = ${r.filter.workspaceId}::uuid AND t.domain = p.domain AND t.path = p.path
      AND t.day >= ${recent}::date AND t.day < ${end}::date AND ${domainScope(domains)})`;
  const [[answersInScope], rows] = await Promise.all([
    readDb().$queryRaw<{ n: number }[]>`SELECT coalesce(sum(r.captures), 0)::int AS n FROM rollup_answers r WHERE ${rollupScope(r.filter)}`,
    readDb().$queryRaw<FunnelSqlRow[]>`
      WITH crawled AS (
        SELECT c.domain, c.path, sum(c.hits)::int AS crawls FROM (${pageCrawls(r, domains, first, end)}) c GROUP BY 1, 2 HAVING sum(c.hits) > 0
      ), cited AS (
        SELECT ${URL_HOST} AS domain, ${URL_PATH} AS path, min(r.url) AS url,
          (array_agg(r.title ORDER BY r."titleAt" DESC) FILTER (WHERE r.title IS NOT NULL))[1] AS title,
          sum(r.citations)::int AS citations, sum(r.answers)::int AS answers
        FROM rollup_own_pages r
        WHERE ${rollupScope(r.filter)}
        GROUP BY 1, 2
        HAVING sum(r.answers) > 0
      ), per_assistant AS (
        SELECT t.domain, t.path, t.assistant, sum(t.visits)::int AS visits
        FROM traffic_visits_daily t
        WHERE ${crawlScope(r, domains, first, end)}
        GROUP BY 1, 2, 3
      ), visited AS (
        SELECT domain, path, sum(visits)::int AS visits,
          jsonb_agg(jsonb_build_object('assistant', assistant, 'visits', visits) ORDER BY visits DESC, assistant) AS assistants
        FROM per_assistant GROUP BY 1, 2
      ), blocked AS (
        -- As the last readiness check of each domain found them, for every page cited before it.
        -- No answer for robots.txt counts as "disallow all" (RFC 9309): blocked, but not by its rules.
        SELECT b.domain, b.path, b."blockedFor", s."robotsOutcome" = 'unreachable' AS "robotsUnreachable"
        FROM site_readiness_blocked_pages b JOIN site_readiness s ON s."workspaceId" = b."workspaceId" AND s.domain = b.domain
        WHERE b."workspaceId" = ${r.filter.workspaceId}::uuid
      ), p AS (
        SELECT coalesce(c.domain, k.domain, v.domain) AS domain, coalesce(c.path, k.path, v.path) AS path, c.url, c.title,
          coalesce(k.crawls, 0) AS crawls,
          coalesce(c.citations, 0) AS citations, coalesce(c.answers, 0) AS answers,
          coalesce(v.visits, 0) AS visits, v.assistants, b."blockedFor", b."robotsUnreachable"
        FROM crawled k FULL JOIN cited c ON c.domain = k.domain AND c.path = k.path
          FULL JOIN visited v ON v.domain = coalesce(c.domain, k.domain) AND v.path = coalesce(c.path, k.path)
          LEFT JOIN blocked b ON b.domain = coalesce(c.domain, k.domain, v.domain) AND b.path = coalesce(c.path, k.path, v.path)
        WHERE coalesce(k.crawls, 0) > 0 OR coalesce(c.answers, 0) > 0 OR coalesce(v.visits, 0) > 0
      ), listed AS (
        SELECT p.*, count(*) OVER ()::int AS total, row_number() OVER (ORDER BY ${LIST_ORDER[list]}, p.domain, p.path) AS ord FROM p
        ${list === "cited-not-crawled" ? notCrawled : LIST_WHERE[list]}
        ORDER BY ord
        LIMIT ${pageSize} OFFSET ${(page - 1) * pageSize}
      )
      -- The last crawl at any time before the range's end, for the rows shown only (one index probe each).
      -- By whom, for the rows shown only.
      SELECT l.*, (SELECT max(t.day) FROM traffic_daily t
                   WHERE t."workspaceId" = ${r.filter.workspaceId}::uuid AND t.domain = l.domain AND t.path = l.path AND t.day < ${end}::date) AS "lastCrawled",
        (SELECT jsonb_agg(jsonb_build_object('crawler', b.crawler, 'hits', b.hits) ORDER BY b.hits DESC, b.crawler)
         FROM (SELECT t.crawler, sum(t.hits)::int AS hits FROM traffic_daily t
               WHERE t."workspaceId" = ${r.filter.workspaceId}::uuid AND t.domain = l.domain AND t.path = l.path
                 AND t.day >= ${first}::date AND t.day < ${end}::date
               GROUP BY 1) b) AS crawlers
      FROM listed l
      ORDER BY l.ord`,
  ]);
  const n = num(answersInScope?.n);
  return {
    list,
    answersInScope: n,
    notCrawledDays: NOT_CRAWLED_DAYS,
    items: rows.map((row) => ({
      domain: row.domain,
      path: row.path,
      url: row.url ?? `https://${row.domain}${row.path}`,
      title: row.title,
      crawls: num(row.crawls),
      lastCrawled: row.lastCrawled ? isoDay(row.lastCrawled) : null,
      crawlers: (row.crawlers ?? []).map((c) => ({ ...c, hits: num(c.hits), ...crawlerInfo(c.crawler) })),
      citations: num(row.citations),
      answers: Math.min(num(row.answers), n),
      share: wilson(Math.min(num(row.answers), n), n),
      visits: num(row.visits),
      assistants: (row.assistants ?? []).map((a) => ({ assistant: a.assistant, visits: num(a.visits) })),
      blockedFor: row.blockedFor ?? [],
      /** robots.txt did not answer the last check (5xx, 429, no connection), so it blocks every crawler. */
      robotsUnreachable: row.robotsUnreachable ?? false,
    })),
    total: num(rows[0]?.total),
    page,
    pageSize,
  };
}

export type PageFunnel = Awaited<ReturnType<typeof pageFunnel>>;
export type FunnelRow = PageFunnel["items"][number];
