import "server-only";
import { bucketKeys, bucketOf, bucketUnit, captureScope, num, promptScope, type AnalyticsFilter } from "@/lib/analytics/filter";
import { listTotal } from "@/lib/analytics/charts/page-params";
import { monthRollupScope, rollupScope, weekRollupScope, wholeWeeks } from "@/lib/analytics/rollups";
import { rollupSpans, type Span, type SpanLevel } from "@/lib/analytics/rollup-spans";
import { isoDay } from "@/lib/analytics/schemas";
import { wilson } from "@/lib/analytics/stats";
import { readDb } from "@/lib/db/prisma";
import { Prisma } from "@/lib/generated/prisma/client";

// Only sources the answer cites count; those a provider merely retrieved (citedInText = false)
// are kept for the capture view but are not "cited".

export const TOP_DOMAINS = 8;

/**
 * The domain rollup rows in scope, as a subquery `(day, domain, citations, "ownCitations")`.
 * Without a prompt filter they come from the rollups without the prompt (rollup_domains), with
 * one tag alone from those per tag (rollup_tag_domains); otherwise (several tags, a market) from
 * the one per prompt (rollup_citations), since a prompt that carries two of the tags must count
 * once. Without a provider filter either, the days come from the rollups without the provider
 * (rollup_domain_day_totals, rollup_tag_domain_day_totals). A range bucketed by week, or read as
 * one total (`totals`), reads its whole weeks from the weekly rollups (rollup_domain_weeks,
 * rollup_tag_domain_weeks: `day` is then the week's Monday, its own bucket) and the days of the
 * partial weeks at its edges from the daily ones: a year is 52 rows per domain and provider
 * instead of 365, with the same sums. `domains` keeps those domains' rows only (a condition on the
 * key, so the daily rows of other domains are not read).
 */
export function domainRows(f: AnalyticsFilter, opts: { totals?: boolean; domains?: string[] } = {}): Prisma.Sql {
  const columns = Prisma.sql`r.domain, r.citations, r."ownCitations"`;
  const only = opts.domains ? Prisma.sql`AND r.domain = ANY(${opts.domains}::text[])` : Prisma.empty;
  if (f.markets?.length || (f.tags?.length ?? 0) > 1) return Prisma.sql`(SELECT r.day, ${columns} FROM rollup_citations r WHERE ${rollupScope(f)} ${only})`;
  // The tag is a key column of the per-tag rollups, not a condition on the prompt.
  const unprompted = { ...f, tags: undefined };
  const tag = f.tags?.length ? Prisma.sql`AND r.tag = ${f.tags[0]} ${only}` : only;
  const allProviders = !f.providerConfigIds?.length;
  const [daily, weekly] = f.tags?.length
    ? [allProviders ? Prisma.sql`rollup_tag_domain_day_totals` : Prisma.sql`rollup_tag_domains`, Prisma.sql`rollup_tag_domain_weeks`]
    : [allProviders ? Prisma.sql`rollup_domain_day_totals` : Prisma.sql`rollup_domains`, Prisma.sql`rollup_domain_weeks`];
  const whole = opts.totals || bucketUnit(f) === "week" ? wholeWeeks(unprompted) : null;
  if (!whole) return Prisma.sql`(SELECT r.day, ${columns} FROM ${daily} r WHERE ${rollupScope(unprompted)} ${tag})`;
  return Prisma.sql`(
    SELECT r.week AS day, ${columns} FROM ${weekly} r WHERE ${weekRollupScope(unprompted, whole.weeks)} ${tag}
    UNION ALL SELECT r.day, ${columns} FROM ${daily} r WHERE ${rollupScope(whole.head)} ${tag}
    UNION ALL SELECT r.day, ${columns} FROM ${daily} r WHERE ${rollupScope(whole.tail)} ${tag})`;
}

/**
 * The most cited domains of the range and how often each was cited per day (per week past 120
 * days). The top domains come from the range's totals (its whole weeks from the weekly rollups),
 * then only their rows per bucket: a daily range no longer groups every domain's every day.
 */
export async function topDomainsOverTime(f: AnalyticsFilter) {
  const top = await readDb().$queryRaw<{ domain: string; total: number; own: boolean }[]>`
    SELECT r.domain, sum(r.citations)::int AS total, sum(r."ownCitations") > 0 AS own
    FROM ${domainRows(f, { totals: true })} r
    GROUP BY r.domain
    HAVING sum(r.citations) > 0
    ORDER BY total DESC, r.domain
    LIMIT ${TOP_DOMAINS}`;
  const rows = top.length
    ? await readDb().$queryRaw<{ bucket: Date; domain: string; citations: number }[]>`
        SELECT ${bucketOf(f, Prisma.sql`r.day::timestamp`)} AS bucket, r.domain, sum(r.citations)::int AS citations
        FROM ${domainRows(f, { domains: top.map((d) => d.domain) })} r
        GROUP BY 1, 2
        HAVING sum(r.citations) > 0`
    : [];
  const byBucket = new Map<string, Map<string, number>>();
  for (const r of rows) {
    const key = isoDay(r.bucket);
    if (!byBucket.has(key)) byBucket.set(key, new Map());
    byBucket.get(key)!.set(r.domain, num(r.citations));
  }
  const domains = top.map((d) => ({ domain: d.domain, citations: num(d.total), own: d.own })).sort((a, b) => b.citations - a.citations || a.domain.localeCompare(b.domain));
  const points = bucketKeys(f).map((bucket) => ({
    bucket,
    counts: Object.fromEntries(domains.map((d) => [d.domain, byBucket.get(bucket)?.get(d.domain) ?? 0])),
  }));
  return { unit: bucketUnit(f), domains, points };
}

export type TopDomainsOverTime = Awaited<ReturnType<typeof topDomainsOverTime>>;

/** Captures whose answer cites at least one of the brand's own domains, out of all captures in scope. */
export async function ownDomainRate(f: AnalyticsFilter) {
  const [row] = await readDb().$queryRaw<{ n: number; own: number }[]>`
    SELECT coalesce(sum(r.captures), 0)::int AS n, coalesce(sum(r."citingOwn"), 0)::int AS own
    FROM rollup_answers r
    WHERE ${rollupScope(f)}`;
  return { ...wilson(num(row?.own), num(row?.n)), citing: num(row?.own) };
}

type CitedPageRow = { url: string; domain: string; title: string | null; own: boolean; citations: number; captures: number; total: number };

/**
 * Cited pages, most cited first: how often each URL was cited and in how many answers; `domain`
 * keeps that domain's. From the rollups (citedPagesRolled), the title only for the page shown, from
 * the daily row of its latest titled answer; from the raw rows with both a provider filter and a
 * tag or market filter, as no rollup keeps both the provider and the prompt.
 */
export async function citedPages(f: AnalyticsFilter, page: number, pageSize: number, domain?: string) {
  const prompts = Boolean(f.tags?.length || f.markets?.length);
  const pageRows = (page: number, pageSize: number) => (prompts && f.providerConfigIds?.length ? citedPagesRaw(f, page, pageSize, domain) : citedPagesRolled(f, page, pageSize, domain));
  const rows = await pageRows(page, pageSize);
  return {
    items: rows.map(({ total: _total, ...r }) => ({ ...r, citations: num(r.citations), captures: num(r.captures) })),
    total: await listTotal(rows, page, () => pageRows(1, 1)),
    page,
    pageSize,
    domain: domain ?? null,
  };
}

/** A cited page rollup and the condition keeping the filter's rows of it (its prompts, its tag, a domain). */
type CitedPageTable = { table: string; only: Prisma.Sql };
/** The tables a filter reads per period (none: no months per provider). */
type CitedPageTables = { [level in SpanLevel]: CitedPageTable | null };

/**
 * What a filter reads: `counts` for every URL's sums, `latest` for the latest titled answer's time
 * of the pages shown, `titles` (daily) for their titles. With a provider filter the rollups per
 * provider (days and weeks); with a tag or market filter those per prompt, of the filter's
 * prompts, except that one tag alone counts its whole weeks and months from those per tag (a row
 * per URL, not one per URL and prompt; they keep no title's time); otherwise the totals.
 */
async function citedPageTables(f: AnalyticsFilter, domain?: string): Promise<{ counts: CitedPageTables; latest: CitedPageTables; titles: CitedPageTable }> {
  const inDomain = domain ? Prisma.sql`AND r.domain = ${domain}` : Prisma.empty;
  const all = (table: string): CitedPageTable => ({ table, only: inDomain });
  if (f.providerConfigIds?.length) {
    const tables = { day: all("rollup_cited_pages"), week: all("rollup_cited_page_weeks"), month: null };
    return { counts: tables, latest: tables, titles: tables.day };
  }
  if (f.tags?.length || f.markets?.length) {
    // The filter's prompts first, as ids: planned as a subquery, its few prompts were estimated
    // so poorly that the weekly rows of every prompt were read (a parallel seq scan) and joined.
    const ids = await readDb().$queryRaw<{ id: string }[]>`SELECT p.id FROM prompts p WHERE p."workspaceId" = ${f.workspaceId}::uuid ${promptScope(f, Prisma.sql`p.id`)}`;
    const prompts = Prisma.sql`AND r."promptId" = ANY(${ids.map((p) => p.id)}::uuid[]) ${inDomain}`;
    const perPrompt = (table: string): CitedPageTable => ({ table, only: prompts });
    const latest = { day: perPrompt("rollup_cited_page_prompt_days"), week: perPrompt("rollup_cited_page_prompt_weeks"), month: perPrompt("rollup_cited_page_prompt_months") };
    // A prompt carrying two of several tags must count once, and a market is no key: per prompt.
    const tag = f.tags?.length === 1 && !f.markets?.length ? f.tags[0] : null;
    const perTag = (table: string): CitedPageTable => ({ table, only: Prisma.sql`AND r.tag = ${tag} ${inDomain}` });
    const counts = tag ? { day: latest.day, week: perTag("rollup_tag_cited_page_weeks"), month: perTag("rollup_tag_cited_page_months") } : latest;
    return { counts, latest, titles: latest.day };
  }
  const totals = { day: all("rollup_cited_page_day_totals"), week: all("rollup_cited_page_week_totals"), month: all("rollup_cited_page_month_totals") };
  return { counts: totals, latest: totals, titles: all("rollup_cited_pages") };
}

/**
 * The rows of the filter's range as months, weeks and days of the cited page rollups, as `spans`
 * (rollupSpans) cover it, each span's `columns` given its sign. `f` has no prompt filter here:
 * each table's `only` holds it, and `also` any other condition on the rows.
 */
function spanRows(f: AnalyticsFilter, tables: CitedPageTables, spans: Span[], columns: (sign: 1 | -1) => Prisma.Sql, also = Prisma.empty): Prisma.Sql {
  const parts = spans.map((s) => {
    const periods = { first: isoDay(s.from), end: isoDay(s.to) };
    const scope = s.level === "month" ? monthRollupScope(f, periods) : s.level === "week" ? weekRollupScope(f, periods) : rollupScope({ ...f, from: s.from, to: s.to });
    const { table, only } = tables[s.level]!;
    return Prisma.sql`SELECT ${columns(s.sign)} FROM ${Prisma.raw(table)} r WHERE ${scope} ${only} ${also}`;
  });
  return Prisma.sql`(${Prisma.join(parts, " UNION ALL ")})`; // a range has at least one day, so one span
}

/**
 * Every URL's sum is needed before the top can be cut, so the range is read in as few rows per
 * URL as there are: its months, weeks and days, each added or subtracted (rollupSpans: 30 days
 * are a month less or plus a few days, ~35,000 rows at a million captures instead of ~87,000 as
 * whole weeks and edge days). A maximum does not subtract: the domain and the latest titled
 * answer's time are read apart for the pages shown only, from added spans inside the range, and
 * the title from the daily row (per provider or prompt) of that time.
 */
async function citedPagesRolled(f: AnalyticsFilter, page: number, pageSize: number, domain?: string) {
  const tables = await citedPageTables(f, domain);
  const unprompted = { ...f, tags: undefined, markets: undefined };
  const coarsest = tables.counts.month ? "month" : "week";
  const counts = spanRows(unprompted, tables.counts, rollupSpans(f.from, f.to, { coarsest }), (sign) =>
    sign === 1 ? Prisma.sql`r.url, r.citations, r."ownCitations", r.answers` : Prisma.sql`r.url, -r.citations, -r."ownCitations", -r.answers`);
  const shown = Prisma.sql`AND r.url = ANY(ARRAY(SELECT url FROM ranked))`;
  const latest = spanRows(unprompted, tables.latest, rollupSpans(f.from, f.to, { coarsest, subtract: false }), () => Prisma.sql`r.url, r.domain, r."titleAt"`, shown);
  return readDb().$queryRaw<CitedPageRow[]>`
    WITH ranked AS (
      SELECT r.url, sum(r."ownCitations") > 0 AS own, sum(r.citations)::int AS citations, sum(r.answers)::int AS captures,
        count(*) OVER ()::int AS total
      FROM ${counts} r (url, citations, "ownCitations", answers)
      GROUP BY r.url
      HAVING sum(r.citations) > 0
      ORDER BY citations DESC, r.url
      LIMIT ${pageSize} OFFSET ${(page - 1) * pageSize}
    ), latest AS (
      SELECT r.url, min(r.domain) AS domain, max(r."titleAt") AS "titleAt" FROM ${latest} r GROUP BY r.url
    )
    SELECT p.url, l.domain, t.title, p.own, p.citations, p.captures, p.total
    FROM ranked p
    JOIN latest l ON l.url = p.url
    LEFT JOIN LATERAL (
      -- The title from the daily row (per provider or prompt) that holds the latest titled answer.
      SELECT r.title FROM ${Prisma.raw(tables.titles.table)} r
      WHERE ${rollupScope(unprompted)} ${tables.titles.only} AND r.day = l."titleAt"::date AND r.url = p.url AND r."titleAt" = l."titleAt"
      ORDER BY r.title LIMIT 1
    ) t ON true
    ORDER BY p.citations DESC, p.url`;
}

function citedPagesRaw(f: AnalyticsFilter, page: number, pageSize: number, domain?: string) {
  return readDb().$queryRaw<CitedPageRow[]>`
    SELECT ci.url, min(ci.domain) AS domain,
      (array_agg(ci.title ORDER BY c."finishedAt" DESC) FILTER (WHERE ci.title IS NOT NULL AND ci.title <> ''))[1] AS title,
      bool_or(ci."isOwnDomain") AS own,
      count(*)::int AS citations, count(DISTINCT ci."captureId")::int AS captures,
      count(*) OVER ()::int AS total
    FROM captures c JOIN citations ci ON ci."captureId" = c.id AND ci."citedInText"
    WHERE ${captureScope(f)} ${domain ? Prisma.sql`AND ci.domain = ${domain}` : Prisma.empty}
    GROUP BY ci.url
    ORDER BY citations DESC, ci.url
    LIMIT ${pageSize} OFFSET ${(page - 1) * pageSize}`;
}

export type CitedPages = Awaited<ReturnType<typeof citedPages>>;
