import "server-only";
import { bucketKeys, bucketOf, bucketUnit, num, type AnalyticsFilter, type ResolvedFilter } from "@/lib/analytics/filter";
import { isoDay } from "@/lib/analytics/schemas";
import { rollupScope, weekRollupScope, wholeWeeks } from "@/lib/analytics/rollups";
import { domainRows } from "@/lib/analytics/sources";
import { wilson } from "@/lib/analytics/stats";
import { readDb } from "@/lib/db/prisma";
import { Prisma } from "@/lib/generated/prisma/client";
import { categorize, SOURCE_CATEGORIES, type SourceCategory } from "@/lib/sources/categories";
import { loadCategoryContext } from "@/lib/sources/overrides";

// Where answers come from. Categories over time read the domain rollups the top domains chart
// reads (per day or week and domain, no raw row), and categorize each domain of the range in
// TypeScript (the mapping, the overrides and own/competitor live outside SQL), then sum per
// bucket and category in SQL with that mapping. Own pages read their rollup (rollup_own_pages).
// Gap sources need what no rollup keeps (which domains one answer cited next to which mentions),
// so they read the raw rows of the captures in scope through captures (workspaceId, brandId,
// finishedAt) and then mentions and citations by captureId.

/**
 * Cited sources per category and bucket (day, or week past 120 days), only cited, not retrieved.
 * The range's domains come from its totals (whole weeks from the weekly rollups) and are
 * categorized here; the rows per bucket are then summed per category in SQL, so a daily range
 * sends a few rows per bucket instead of one per domain and bucket.
 */
export async function categoriesOverTime({ filter: f }: ResolvedFilter) {
  const [cited, ctx] = await Promise.all([
    readDb().$queryRaw<{ domain: string }[]>`
      SELECT r.domain FROM ${domainRows(f, { totals: true })} r
      GROUP BY r.domain
      HAVING sum(r.citations) > 0`,
    loadCategoryContext(f.workspaceId, f.brandId),
  ]);
  const domains = cited.map((r) => r.domain);
  const rows = domains.length
    ? await readDb().$queryRaw<{ bucket: Date; category: SourceCategory; citations: number }[]>`
        SELECT ${bucketOf(f, Prisma.sql`r.day::timestamp`)} AS bucket, m.category, sum(r.citations)::int AS citations
        FROM ${domainRows(f)} r
        JOIN unnest(${domains}::text[], ${domains.map((d) => categorize(d, ctx))}::text[]) AS m(domain, category) ON m.domain = r.domain
        GROUP BY 1, 2
        HAVING sum(r.citations) > 0`
    : [];
  const empty = () => Object.fromEntries(SOURCE_CATEGORIES.map((c) => [c, 0])) as Record<SourceCategory, number>;
  const totals = empty();
  const byBucket = new Map<string, Record<SourceCategory, number>>();
  for (const r of rows) {
    const key = isoDay(r.bucket);
    if (!byBucket.has(key)) byBucket.set(key, empty());
    byBucket.get(key)![r.category] += num(r.citations);
    totals[r.category] += num(r.citations);
  }
  const all = Object.values(totals).reduce((a, b) => a + b, 0);
  return {
    unit: bucketUnit(f),
    categories: SOURCE_CATEGORIES.map((category) => ({ category, citations: totals[category], share: all ? totals[category] / all : 0 })),
    points: bucketKeys(f).map((bucket) => ({ bucket, counts: byBucket.get(bucket) ?? empty() })),
  };
}

export type CategoriesOverTime = Awaited<ReturnType<typeof categoriesOverTime>>;

export const OWN_PAGES = 20;

/**
 * The brand's own pages cited most: citations and answers citing each (an answer is in one
 * rollup row per URL, so the rows' answers add up), with the title of the latest answer that
 * gave one. The pages are ranked on sums alone (a hash aggregate), their titles looked up after
 * (ownPageTitle): an ordered array_agg of every row's title sorted all of the range's rows on disk
 * (132,000 rows for a year at a million captures).
 */
export async function ownPagesCited({ filter: f }: ResolvedFilter) {
  const rows = await readDb().$queryRaw<{ url: string; domain: string; title: string | null; citations: number; captures: number }[]>`
    WITH ranked AS (
      SELECT r.url, min(r.domain) AS domain, sum(r.citations)::int AS citations, sum(r.answers)::int AS captures,
        max(r."titleAt") FILTER (WHERE r.title IS NOT NULL) AS "titleAt"
      FROM rollup_own_pages r
      WHERE ${rollupScope(f)}
      GROUP BY r.url
      HAVING sum(r.citations) > 0
      ORDER BY citations DESC, captures DESC, r.url
      LIMIT ${OWN_PAGES}
    )
    SELECT p.url, p.domain, ${ownPageTitle(f, Prisma.sql`p.url`, Prisma.sql`p."titleAt"`)} AS title, p.citations, p.captures
    FROM ranked p
    ORDER BY p.citations DESC, p.captures DESC, p.url`;
  return { items: rows.map((r) => ({ ...r, citations: num(r.citations), captures: num(r.captures) })) };
}

/**
 * The title an own page's answer gave at `titleAt` (its latest titled answer's time, from
 * max("titleAt")), as a scalar subquery: the day's rollup_own_pages rows of that URL in scope, one
 * probe on the day. Looked up for the pages shown only, so the range's rows are summed without
 * carrying titles.
 */
export function ownPageTitle(f: AnalyticsFilter, url: Prisma.Sql, titleAt: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`(SELECT r.title FROM rollup_own_pages r
    WHERE ${rollupScope(f)} AND r.day = (${titleAt})::date AND r.url = ${url} AND r."titleAt" = ${titleAt} AND r.title IS NOT NULL
    ORDER BY r.title LIMIT 1)`;
}

export type OwnPagesCited = Awaited<ReturnType<typeof ownPagesCited>>;

/**
 * The own_page_dropped alert's numbers: answers before `splitAt` and from it, and per own page
 * cited in at least `minAnswersBefore` answers before it, the answers citing it in each part
 * (rollup_answers, rollup_own_pages), most cited first.
 */
export async function ownPagesByPeriod(f: AnalyticsFilter, splitAt: Date, minAnswersBefore: number) {
  const split = isoDay(splitAt);
  const [[totals], pages] = await Promise.all([
    readDb().$queryRaw<{ before: number; now: number }[]>`
      SELECT coalesce(sum(r.captures) FILTER (WHERE r.day < ${split}::date), 0)::int AS before,
             coalesce(sum(r.captures) FILTER (WHERE r.day >= ${split}::date), 0)::int AS now
      FROM rollup_answers r WHERE ${rollupScope(f)}`,
    readDb().$queryRaw<{ url: string; before: number; now: number }[]>`
      SELECT r.url,
        coalesce(sum(r.answers) FILTER (WHERE r.day < ${split}::date), 0)::int AS before,
        coalesce(sum(r.answers) FILTER (WHERE r.day >= ${split}::date), 0)::int AS now
      FROM rollup_own_pages r
      WHERE ${rollupScope(f)}
      GROUP BY r.url
      HAVING coalesce(sum(r.answers) FILTER (WHERE r.day < ${split}::date), 0) >= ${minAnswersBefore}
      ORDER BY 2 DESC, 1`,
  ]);
  return { answersBefore: num(totals?.before), answersNow: num(totals?.now), pages: pages.map((p) => ({ url: p.url, before: num(p.before), now: num(p.now) })) };
}

export const GAP_SOURCES = 25;


/**
 * The gap rollup rows in scope that meet `where` (on `r`), as a subquery `(domain, name, answers,
 * "offSite")` (migrations 20261208160000_gap_source_rollups to
 * 20261208160300_weekly_gap_source_rollups). Domain '' holds the gap answers, name '' a domain's;
 * offSite counts those citing the domain other than as the brand's own. Without the prompt, per
 * tag for one tag alone, per prompt otherwise (a prompt with two of the tags counts once). Without
 * the prompt the whole ISO weeks of the range come from the weekly rollups and the days at its
 * edges from the daily ones: a year is 52 rows per domain and provider instead of 365.
 */
function gapRows(f: AnalyticsFilter, where: Prisma.Sql): Prisma.Sql {
  const columns = Prisma.sql`r.domain, r.name, r.answers, r."offSite"`;
  if (f.markets?.length || (f.tags?.length ?? 0) > 1) return Prisma.sql`(SELECT ${columns} FROM rollup_gap_source_prompts r WHERE ${rollupScope(f)} AND ${where})`;
  const unprompted = { ...f, tags: undefined };
  const tag = f.tags?.length ? Prisma.sql`AND r.tag = ${f.tags[0]}` : Prisma.empty;
  const [daily, weekly] = f.tags?.length ? [Prisma.sql`rollup_tag_gap_sources`, Prisma.sql`rollup_tag_gap_source_weeks`] : [Prisma.sql`rollup_gap_sources`, Prisma.sql`rollup_gap_source_weeks`];
  const whole = wholeWeeks(unprompted);
  if (!whole) return Prisma.sql`(SELECT ${columns} FROM ${daily} r WHERE ${rollupScope(unprompted)} ${tag} AND ${where})`;
  return Prisma.sql`(
    SELECT ${columns} FROM ${weekly} r WHERE ${weekRollupScope(unprompted, whole.weeks)} ${tag} AND ${where}
    UNION ALL SELECT ${columns} FROM ${daily} r WHERE ${rollupScope(whole.head)} ${tag} AND ${where}
    UNION ALL SELECT ${columns} FROM ${daily} r WHERE ${rollupScope(whole.tail)} ${tag} AND ${where})`;
}
/**
 * Gap sources: domains cited in answers that name a competitor and leave the brand out (answers
 * analysed for the brand), ranked by those answers, each with the competitors named in them.
 * The brand's and the competitors' own sites (their registrable domains) are left out unless
 * `includeEntityDomains`: a marketer cannot get listed there, and they crowded out the sites one
 * can act on. Leaving them out changes no other row and not the number of gap answers.
 */
export async function gapSources({ filter: f }: ResolvedFilter, { includeEntityDomains = false }: { includeEntityDomains?: boolean } = {}) {
  const ctx = await loadCategoryContext(f.workspaceId, f.brandId);
  const entityDomains = [...ctx.ownDomains, ...ctx.competitorDomains];
  const counted = includeEntityDomains ? Prisma.sql`r.answers` : Prisma.sql`r."offSite"`;
  const sites = includeEntityDomains ? Prisma.empty : Prisma.sql`AND r.domain <> ALL(${entityDomains}::text[])`;
  const rows = await readDb().$queryRaw<{ domain: string | null; answers: number | null; gap: number; competitors: { name: string; answers: number }[] | null }[]>`
      WITH top AS (
        SELECT r.domain, sum(${counted})::int AS answers
        FROM ${gapRows(f, Prisma.sql`r.name = '' AND r.domain <> '' ${sites}`)} r
        GROUP BY r.domain
        HAVING sum(${counted}) > 0
        ORDER BY answers DESC, r.domain LIMIT ${GAP_SOURCES}
      ),
      named AS (
        SELECT r.domain, r.name, sum(${counted})::int AS answers
        FROM ${gapRows(f, Prisma.sql`r.domain IN (SELECT domain FROM top) AND r.name <> ''`)} r
        GROUP BY r.domain, r.name
        HAVING sum(${counted}) > 0
      )
      -- One row with the gap count even when no gap answer cites anything.
      SELECT t.domain, t.answers, g.n AS gap,
        (SELECT json_agg(json_build_object('name', x.name, 'answers', x.answers) ORDER BY x.answers DESC, x.name)
         FROM named x WHERE x.domain = t.domain) AS competitors
      FROM (SELECT coalesce(sum(r.answers), 0)::int AS n FROM ${gapRows(f, Prisma.sql`r.domain = '' AND r.name = ''`)} r) g
      LEFT JOIN top t ON true
      ORDER BY t.answers DESC, t.domain`;
  const gap = num(rows[0]?.gap);
  return {
    /** Answers in scope that name a competitor and not the brand. */
    gapAnswers: gap,
    items: rows.flatMap((r) => (r.domain === null ? [] : [{
      domain: r.domain,
      category: categorize(r.domain, ctx),
      answers: num(r.answers),
      /** Of the gap answers, those citing the domain. */
      ...wilson(num(r.answers), gap),
      competitors: r.competitors ?? [],
    }])),
  };
}

export type GapSources = Awaited<ReturnType<typeof gapSources>>;
