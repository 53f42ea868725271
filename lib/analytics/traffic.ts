import "server-only";
import { bucketKeys, bucketOf, bucketUnit, num, type ResolvedFilter } from "@/lib/analytics/filter";
import { listTotal } from "@/lib/analytics/charts/page-params";
import { rollupScope } from "@/lib/analytics/rollups";
import { ownPageTitle } from "@/lib/analytics/source-categories";
import { addDays, isoDay } from "@/lib/analytics/schemas";
import { rollupSpans, type SpanLevel } from "@/lib/analytics/rollup-spans";
import { wilson } from "@/lib/analytics/stats";
import { readDb } from "@/lib/db/prisma";
import { Prisma } from "@/lib/generated/prisma/client";
import { CRAWLERS } from "@/lib/traffic/crawlers";
import { siteOf } from "@/lib/analysis/citations";
import { onSites } from "@/lib/traffic/store";
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
const domainScope = (domains: string[]) => onSites(Prisma.sql`t.domain`, domains);

/** Rows `t` (a table with `day`: traffic_daily, its rollups, traffic_visits_daily) of the workspace on the brand's hosts in [first, end). */
function crawlScope(r: ResolvedFilter, domains: string[], first: string, end: string): Prisma.Sql {
  return Prisma.sql`t."workspaceId" = ${r.filter.workspaceId}::uuid AND t.day >= ${first}::date AND t.day < ${end}::date AND ${domainScope(domains)}`;
}

/** A per-page count's rollups for each span level (rollupSpans), with the columns summed. */
type PageRollups = { tables: Record<SpanLevel, [table: Prisma.Sql, period: Prisma.Sql]>; columns: string[] };

// Crawls: months, ISO weeks (their Monday) and days, all crawlers together.
const PAGE_CRAWLS: PageRollups = {
  tables: {
    month: [Prisma.sql`traffic_pages_monthly`, Prisma.sql`t.month`],
    week: [Prisma.sql`traffic_pages_weekly`, Prisma.sql`t.week`],
    day: [Prisma.sql`traffic_pages_daily`, Prisma.sql`t.day`],
  },
  columns: ["hits", "errors"],
};
// Visits: months and weeks all assistants together; days per assistant (the visits' own rows).
const PAGE_VISITS: PageRollups = {
  tables: {
    month: [Prisma.sql`traffic_visits_pages_monthly`, Prisma.sql`t.month`],
    week: [Prisma.sql`traffic_visits_pages_weekly`, Prisma.sql`t.week`],
    day: [Prisma.sql`traffic_visits_daily`, Prisma.sql`t.day`],
  },
  columns: ["visits"],
};

/**
 * A count per page in [first, end) as rows (domain, path, ...columns) to be summed per page, from
 * a month, a week and a day rollup: the range as the fewest months, weeks and days, each added or
 * subtracted (rollupSpans), so 90 days are about 10 rows per page instead of one per day, crawler
 * or assistant (docs/traffic.md "What is stored"). A page counted on subtracted days only sums to
 * 0: callers keep pages with sums > 0.
 */
function pageSums(r: ResolvedFilter, domains: string[], first: string, end: string, rollups: PageRollups): Prisma.Sql {
  const spans = rollupSpans(new Date(`${first}T00:00:00Z`), new Date(`${end}T00:00:00Z`));
  const parts: Prisma.Sql[] = [];
  for (const level of ["month", "week", "day"] as const) {
    for (const sign of [1, -1] as const) {
      const mine = spans.filter((s) => s.level === level && s.sign === sign);
      if (!mine.length) continue;
      const [table, period] = rollups.tables[level];
      const within = mine.map((s) => Prisma.sql`(${period} >= ${isoDay(s.from)}::date AND ${period} < ${isoDay(s.to)}::date)`);
      const columns = Prisma.raw(rollups.columns.map((c) => `${sign === 1 ? "" : "-"}t.${c} AS ${c}`).join(", "));
      parts.push(Prisma.sql`
        SELECT t.domain, t.path, ${columns} FROM ${table} t
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
 * assistant, from the visits' rollup per day, domain and assistant, with each assistant's total (most visits first).
 */
export async function visitsOverTime(r: ResolvedFilter) {
  const domains = await brandDomains(r);
  const { first, end } = range(r);
  const rows = await readDb().$queryRaw<{ bucket: Date; assistant: string; visits: number }[]>`
    SELECT ${bucketOf(r.filter, Prisma.sql`t.day::timestamp`)} AS bucket, t.assistant, sum(t.visits)::int AS visits
    FROM traffic_visits_assistants_daily t
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
 * (pageSums); the number of crawlers and the last day, which do not add up over days, are read
 * for the rows shown only, on traffic_daily's per-page key.
 */
export async function topCrawledPages(r: ResolvedFilter, page: number, pageSize: number) {
  const domains = await brandDomains(r);
  const { first, end } = range(r);
  const pageRows = (page: number, pageSize: number) => readDb().$queryRaw<{ domain: string; path: string; hits: number; errors: number; crawlers: number; lastCrawled: Date; total: number }[]>`
    WITH ranked AS (
      SELECT c.domain, c.path, sum(c.hits)::int AS hits, sum(c.errors)::int AS errors, count(*) OVER ()::int AS total
      FROM (${pageSums(r, domains, first, end, PAGE_CRAWLS)}) c
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
  const rows = await pageRows(page, pageSize);
  return {
    items: rows.map(({ total: _total, ...row }) => ({ domain: row.domain, path: row.path, hits: num(row.hits), errors: num(row.errors), crawlers: num(row.crawlers), lastCrawled: isoDay(row.lastCrawled) })),
    total: await listTotal(rows, page, () => pageRows(1, 1)),
    page,
    pageSize,
  };
}

export const FUNNEL_LISTS = ["all", "crawled-not-cited", "cited-not-crawled", "blocked-cited"] as const;
export type FunnelList = (typeof FUNNEL_LISTS)[number];

// A cited URL's page key in SQL, as the import keys a hit (normalizeHost, the path without query).
const URL_HOST = Prisma.sql`regexp_replace(lower(substring(r.url from '^[a-zA-Z][a-zA-Z0-9+.-]*://(?:[^@/?#]*@)?([^/:?#]+)')), '^www\\.', '')`;
const URL_PATH = Prisma.sql`coalesce(nullif(substring(r.url from '^[a-zA-Z][a-zA-Z0-9+.-]*://[^/?#]*([^?#]*)'), ''), '/')`;

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
 * counts twice; capped at the answers in scope, the share stays a share.
 *
 * The list is ranked and paged first, from the sources its order needs only (numbers, no
 * breakdowns); the columns of the page's rows (crawls by crawler, last crawl, visits by assistant,
 * robots.txt) are then looked up for those rows alone, each an index probe on the page's key.
 */
export async function pageFunnel(r: ResolvedFilter, list: FunnelList, page: number, pageSize: number) {
  const domains = await brandDomains(r);
  const { first, end } = range(r);
  const workspace = Prisma.sql`${r.filter.workspaceId}::uuid`;
  const recent = isoDay(addDays(r.filter.to, -NOT_CRAWLED_DAYS));
  const crawled = Prisma.sql`crawled AS (
    SELECT c.domain, c.path, sum(c.hits)::int AS crawls FROM (${pageSums(r, domains, first, end, PAGE_CRAWLS)}) c GROUP BY 1, 2 HAVING sum(c.hits) > 0
  )`;
  // One page of the list's rows, each with the list's total.
  const pageRows = (page: number, pageSize: number) => {
    // A page of a list: the total counted over all its rows, only the page's rows sorted (a bounded
    // top-N sort, not the 10,000 pages of 90 days at 100M hits), numbered for the final order.
    const ranked = (rows: Prisma.Sql, order: Prisma.Sql) => Prisma.sql`ranked AS (
        SELECT q.domain, q.path, q.total, row_number() OVER (ORDER BY ${order}) AS ord
        FROM (SELECT r.*, count(*) OVER ()::int AS total FROM (${rows}) r ORDER BY ${order} LIMIT ${pageSize} OFFSET ${(page - 1) * pageSize}) q
      )`;
    // Each list's page of (domain, path, total, ord), ranked on the one source that defines it.
    const lists: Record<FunnelList, Prisma.Sql> = {
      // Every page crawled, cited or visited: the numbers the order needs, joined per page.
      all: Prisma.sql`${crawled}, visited AS (
          SELECT v.domain, v.path, sum(v.visits)::int AS visits FROM (${pageSums(r, domains, first, end, PAGE_VISITS)}) v GROUP BY 1, 2 HAVING sum(v.visits) > 0
        ), ${ranked(
          Prisma.sql`SELECT coalesce(c.domain, k.domain, v.domain) AS domain, coalesce(c.path, k.path, v.path) AS path,
              coalesce(c.answers, 0) AS answers, coalesce(k.crawls, 0) AS crawls, coalesce(v.visits, 0) AS visits
            FROM crawled k FULL JOIN cited c ON c.domain = k.domain AND c.path = k.path
              FULL JOIN visited v ON v.domain = coalesce(c.domain, k.domain) AND v.path = coalesce(c.path, k.path)`,
          Prisma.sql`answers DESC, crawls DESC, visits DESC, domain, path`,
        )}`,
      // The crawled pages without a citation: an anti-join with the (small) cited set.
      "crawled-not-cited": Prisma.sql`${crawled}, ${ranked(
        Prisma.sql`SELECT k.domain, k.path, k.crawls FROM crawled k WHERE NOT EXISTS (SELECT 1 FROM cited c WHERE c.domain = k.domain AND c.path = k.path)`,
        Prisma.sql`crawls DESC, domain, path`,
      )}`,
      // The cited pages without a crawl in the NOT_CRAWLED_DAYS days before the range's end: a probe on traffic_daily's per-page key each.
      "cited-not-crawled": ranked(
        Prisma.sql`SELECT c.domain, c.path, c.answers, c.citations FROM cited c
          WHERE NOT EXISTS (SELECT 1 FROM traffic_daily t WHERE t."workspaceId" = ${workspace} AND t.domain = c.domain AND t.path = c.path
                              AND t.day >= ${recent}::date AND t.day < ${end}::date AND ${domainScope(domains)})`,
        Prisma.sql`answers DESC, citations DESC, domain, path`,
      ),
      // The cited pages robots.txt blocks: a probe on the blocked pages' key each.
      "blocked-cited": ranked(
        Prisma.sql`SELECT c.domain, c.path, c.answers, c.citations FROM cited c
          WHERE EXISTS (SELECT 1 FROM site_readiness_blocked_pages b WHERE b."workspaceId" = ${workspace} AND b.domain = c.domain AND b.path = c.path)`,
        Prisma.sql`answers DESC, citations DESC, domain, path`,
      ),
    };
    return readDb().$queryRaw<FunnelSqlRow[]>`
        -- Summed per URL first, then per page: the page's host and path are parsed once per URL,
        -- not once per rollup row (66,000 rows for 90 days at a million captures: 255 ms of regex and sort).
        WITH by_url AS (
          SELECT r.url, sum(r.citations) AS citations, sum(r.answers) AS answers,
            max(r."titleAt") FILTER (WHERE r.title IS NOT NULL) AS "titleAt"
          FROM rollup_own_pages r
          WHERE ${rollupScope(r.filter)}
          GROUP BY 1
        ), cited AS (
          SELECT ${URL_HOST} AS domain, ${URL_PATH} AS path, min(r.url) AS url,
            -- The page's latest titled answer: its URL and time (the title is looked up for the rows shown).
            (array_agg(r.url ORDER BY r."titleAt" DESC NULLS LAST, r.url))[1] AS "titledUrl", max(r."titleAt") AS "titleAt",
            sum(r.citations)::int AS citations, sum(r.answers)::int AS answers
          FROM by_url r
          GROUP BY 1, 2
          HAVING sum(r.answers) > 0
        ), ${lists[list]}
        SELECT k.domain, k.path, k.total, c.url, ${ownPageTitle(r.filter, Prisma.sql`c."titledUrl"`, Prisma.sql`c."titleAt"`)} AS title, coalesce(c.citations, 0) AS citations, coalesce(c.answers, 0) AS answers,
          coalesce(cr.crawls, 0) AS crawls, cr.crawlers, coalesce(vi.visits, 0) AS visits, vi.assistants,
          -- The last crawl at any time before the range's end.
          (SELECT max(t.day) FROM traffic_daily t WHERE t."workspaceId" = ${workspace} AND t.domain = k.domain AND t.path = k.path AND t.day < ${end}::date) AS "lastCrawled",
          -- As the last readiness check of each domain found them, for every page cited before it.
          -- No answer for robots.txt counts as "disallow all" (RFC 9309): blocked, but not by its rules.
          b."blockedFor", s."robotsOutcome" = 'unreachable' AS "robotsUnreachable"
        FROM ranked k
          LEFT JOIN cited c ON c.domain = k.domain AND c.path = k.path
          -- Crawls in range by crawler (their sum: the page's crawls), on traffic_daily's per-page key.
          LEFT JOIN LATERAL (
            SELECT sum(x.hits)::int AS crawls, jsonb_agg(jsonb_build_object('crawler', x.crawler, 'hits', x.hits) ORDER BY x.hits DESC, x.crawler) AS crawlers
            FROM (SELECT t.crawler, sum(t.hits)::int AS hits FROM traffic_daily t
                  WHERE t."workspaceId" = ${workspace} AND t.domain = k.domain AND t.path = k.path AND t.day >= ${first}::date AND t.day < ${end}::date AND ${domainScope(domains)}
                  GROUP BY 1) x
          ) cr ON true
          -- Visits in range by assistant, on traffic_visits_daily's per-page index.
          LEFT JOIN LATERAL (
            SELECT sum(x.visits)::int AS visits, jsonb_agg(jsonb_build_object('assistant', x.assistant, 'visits', x.visits) ORDER BY x.visits DESC, x.assistant) AS assistants
            FROM (SELECT t.assistant, sum(t.visits)::int AS visits FROM traffic_visits_daily t
                  WHERE t."workspaceId" = ${workspace} AND t.domain = k.domain AND t.path = k.path AND t.day >= ${first}::date AND t.day < ${end}::date AND ${domainScope(domains)}
                  GROUP BY 1) x
          ) vi ON true
          LEFT JOIN site_readiness_blocked_pages b ON b."workspaceId" = ${workspace} AND b.domain = k.domain AND b.path = k.path
          LEFT JOIN site_readiness s ON s."workspaceId" = b."workspaceId" AND s.domain = b.domain
        ORDER BY k.ord`;
  };
  const [[answersInScope], rows] = await Promise.all([
    readDb().$queryRaw<{ n: number }[]>`SELECT coalesce(sum(r.captures), 0)::int AS n FROM rollup_answers r WHERE ${rollupScope(r.filter)}`,
    pageRows(page, pageSize),
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
    total: await listTotal(rows, page, () => pageRows(1, 1)),
    page,
    pageSize,
  };
}

export type PageFunnel = Awaited<ReturnType<typeof pageFunnel>>;
export type FunnelRow = PageFunnel["items"][number];
