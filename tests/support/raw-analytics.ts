// The dashboards' queries as they were before the rollups (issue 10): straight over captures,
// mentions and citations. Kept here, unchanged, as the oracle that tests/integration/rollups.test.ts
// holds the rollup-based queries of lib/analytics to, on the same random data.
import { REDIRECT_LINK_PREFIX } from "@/lib/analysis/citations";
import { bucketKeys, bucketOf, bucketUnit, captureScope, num, previousPeriod, providerAndTagScope, type AnalyticsFilter, type ResolvedFilter } from "@/lib/analytics/filter";
import { budgetStatus } from "@/lib/billing/budget";
import { isoDay } from "@/lib/analytics/schemas";
import { meanInterval, wilson } from "@/lib/analytics/stats";
import type { VisibilityPoint } from "@/lib/analytics/visibility-trend";
import { bucketStarts, type TrendUnit } from "@/lib/analytics/trend-buckets";
import { assembleShareOfVoice, type AnswerDay, type EntityDay } from "@/lib/analytics/share-of-voice";
import { assembleKpis } from "@/lib/analytics/kpis";
import { GAP_SOURCES, OWN_PAGES } from "@/lib/analytics/source-categories";
import { acceptedCaptures, assembleCosts, type CostProviderRow } from "@/lib/analytics/costs";
import { db } from "@/lib/db/prisma";
import { Prisma } from "@/lib/generated/prisma/client";
import { categorize, SOURCE_CATEGORIES, type SourceCategory } from "@/lib/sources/categories";
import { loadCategoryContext } from "@/lib/sources/overrides";

type KpiRow = {
  n: number;
  mentioned: number;
  pos_n: number;
  pos_sum: number;
  pos_sumsq: number;
  positive: number;
  neutral: number;
  negative: number;
  sy: number;
  sx: number;
  syy: number;
  sxx: number;
  sxy: number;
};

/**
 * One pass over the captures in scope and their mentions. A capture counts once it has been
 * analysed for the brand (it has the brand's mention row); x is every tracked entity's mention
 * count in the answer, y the brand's.
 */
async function kpiSums(f: AnalyticsFilter): Promise<KpiRow> {
  const [row] = await db().$queryRaw<KpiRow[]>`
    WITH per_capture AS (
      SELECT
        bool_or(m.mentioned) FILTER (WHERE m.kind = 'brand') AS mentioned,
        min(m.position) FILTER (WHERE m.kind = 'brand' AND m.mentioned) AS position,
        min(m.sentiment::text) FILTER (WHERE m.kind = 'brand' AND m.mentioned) AS sentiment,
        coalesce(sum(m.count) FILTER (WHERE m.kind = 'brand'), 0)::float8 AS y,
        coalesce(sum(m.count), 0)::float8 AS x
      FROM captures c JOIN mentions m ON m."captureId" = c.id
      WHERE ${captureScope(f)}
      GROUP BY c.id
      HAVING count(*) FILTER (WHERE m.kind = 'brand') > 0
    )
    SELECT
      count(*)::int AS n,
      count(*) FILTER (WHERE mentioned)::int AS mentioned,
      count(position)::int AS pos_n,
      coalesce(sum(position), 0)::float8 AS pos_sum,
      coalesce(sum(position * position), 0)::float8 AS pos_sumsq,
      count(*) FILTER (WHERE mentioned AND sentiment = 'positive')::int AS positive,
      count(*) FILTER (WHERE mentioned AND sentiment = 'neutral')::int AS neutral,
      count(*) FILTER (WHERE mentioned AND sentiment = 'negative')::int AS negative,
      coalesce(sum(y), 0)::float8 AS sy, coalesce(sum(x), 0)::float8 AS sx,
      coalesce(sum(y * y), 0)::float8 AS syy, coalesce(sum(x * x), 0)::float8 AS sxx, coalesce(sum(x * y), 0)::float8 AS sxy
    FROM per_capture`;
  return row!;
}



/**
 * The prompts with an answer analysed for the brand in scope in each of two adjacent periods
 * (`previous` ends where `current` starts), and how many had one in only one period.
 */
async function comparablePromptIds(previous: AnalyticsFilter, current: AnalyticsFilter): Promise<{ ids: string[]; inOneOnly: number }> {
  const boundary = isoDay(current.from);
  const rows = await db().$queryRaw<{ id: string; before: boolean; now: boolean }[]>`
    SELECT c."promptId"::text AS id, bool_or(c."finishedAt"::date < ${boundary}::date) AS before, bool_or(c."finishedAt"::date >= ${boundary}::date) AS now
    FROM captures c
    WHERE ${captureScope({ ...current, from: previous.from })}
      AND EXISTS (SELECT 1 FROM mentions m WHERE m."captureId" = c.id AND m.kind = 'brand')
    GROUP BY 1`;
  const ids = rows.filter((r) => r.before && r.now).map((r) => r.id).sort();
  return { ids, inOneOnly: rows.length - ids.length };
}

/**
 * The headline numbers from the raw sums of each period, all answers and on the prompts answered
 * in both, assembled as the rollups' are (lib/analytics/kpis.ts assembleKpis, pure).
 */
export async function overviewKpis(f: AnalyticsFilter) {
  const previous = previousPeriod(f);
  const { ids, inOneOnly } = await comparablePromptIds(previous, f);
  const [now, before, comparableNow, comparableBefore] = await Promise.all([
    kpiSums(f),
    kpiSums(previous),
    kpiSums({ ...f, promptIds: ids }),
    kpiSums({ ...previous, promptIds: ids }),
  ]);
  return assembleKpis({ now, before, comparable: { now: comparableNow, before: comparableBefore, promptIds: ids, inOneOnly } }, previous);
}



/** Visibility per provider and bucket of `unit`, each point with its n and interval. */
export async function visibilityOverTime({ filter: f, providers }: ResolvedFilter, unit: TrendUnit) {
  const rows = await db().$queryRaw<{ bucket: Date; provider: string; n: number; mentioned: number }[]>`
    SELECT date_trunc(${unit}, c."finishedAt") AS bucket, c."providerConfigId"::text AS provider,
      count(*)::int AS n, count(*) FILTER (WHERE m.mentioned)::int AS mentioned
    FROM captures c JOIN mentions m ON m."captureId" = c.id AND m.kind = 'brand'
    WHERE ${captureScope(f)}
    GROUP BY 1, 2`;
  const counts = new Map<string, Map<string, { n: number; mentioned: number }>>();
  for (const r of rows) {
    const key = isoDay(r.bucket);
    if (!counts.has(key)) counts.set(key, new Map());
    counts.get(key)!.set(r.provider, { n: num(r.n), mentioned: num(r.mentioned) });
  }
  const seen = new Set(rows.map((r) => r.provider));
  const points: VisibilityPoint[] = bucketStarts(f.from, f.to, unit).map((bucket) => {
    const byProvider: VisibilityPoint["byProvider"] = {};
    let n = 0;
    let mentioned = 0;
    for (const [provider, c] of counts.get(bucket) ?? []) {
      byProvider[provider] = { ...wilson(c.mentioned, c.n), mentioned: c.mentioned };
      n += c.n;
      mentioned += c.mentioned;
    }
    return { bucket, byProvider, all: { ...wilson(mentioned, n), mentioned } };
  });
  return { unit, providers: providers.filter((p) => seen.has(p.id)), points };
}


/**
 * Share of voice: the daily sums per answer and per entity straight from captures and mentions,
 * assembled as the chart assembles the rollups' (lib/analytics/share-of-voice.ts).
 */
export async function shareOfVoiceOverTime({ filter: f, brand }: ResolvedFilter, unit: TrendUnit) {
  const previous = previousPeriod(f);
  const both = { ...f, from: previous.from };
  const comparable = new Set((await comparablePromptIds(previous, f)).ids);
  const rows = await db().$queryRaw<{ day: Date; capture: string; prompt: string; entity: string | null; name: string | null; y: number; x: number; brand_row: boolean }[]>`
    WITH per_capture AS (
      SELECT c.id, c."promptId", c."finishedAt"::date AS day, coalesce(sum(m.count), 0)::float8 AS x, bool_or(m.kind = 'brand') AS brand_row
      FROM captures c JOIN mentions m ON m."captureId" = c.id
      WHERE ${captureScope(both)}
      GROUP BY c.id
    )
    SELECT p.day, p.id::text AS capture, p."promptId"::text AS prompt, p.x, p.brand_row,
      CASE WHEN m.kind = 'brand' THEN 'brand' ELSE coalesce(m."competitorId"::text, 'name:' || m.name) END AS entity,
      max(m.name) AS name, coalesce(sum(m.count), 0)::float8 AS y
    FROM per_capture p JOIN mentions m ON m."captureId" = p.id
    GROUP BY 1, 2, 3, 4, 5, 6`;
  const answers = new Map<string, AnswerDay>();
  const entities = new Map<string, EntityDay>();
  const counted = new Set<string>();
  for (const r of rows) {
    const day = isoDay(r.day);
    const inBoth = comparable.has(r.prompt);
    const x = num(r.x);
    const y = num(r.y);
    // An answer counts once it has been analysed for the brand (it has the brand's mention row).
    if (r.brand_row && !counted.has(r.capture)) {
      counted.add(r.capture);
      const a = answers.get(`${day}|${inBoth}`) ?? { day, comparable: inBoth, n: 0, sumX: 0, sumXX: 0 };
      answers.set(`${day}|${inBoth}`, { ...a, n: a.n + 1, sumX: a.sumX + x, sumXX: a.sumXX + x * x });
    }
    const key = `${day}|${inBoth}|${r.entity}`;
    const e = entities.get(key) ?? { day, comparable: inBoth, entity: r.entity!, name: r.name!, sumY: 0, sumYY: 0, sumXY: 0 };
    entities.set(key, { ...e, name: r.name! > e.name ? r.name! : e.name, sumY: e.sumY + y, sumYY: e.sumYY + y * y, sumXY: e.sumXY + x * y });
  }
  return assembleShareOfVoice({
    from: f.from,
    to: f.to,
    fromDay: isoDay(f.from),
    tracked: [{ id: "brand", name: brand.name }, ...brand.competitors.map((c) => ({ id: c.id, name: c.name }))],
    answers: [...answers.values()],
    entities: [...entities.values()],
    asked: unit,
  });
}


export const POSITION_BUCKETS = ["1", "2", "3", "4", "5+", "not mentioned"] as const;

/** Where the brand comes among the tracked entities of each answer, or that it does not come at all. */
export async function positionDistribution({ filter: f }: ResolvedFilter) {
  const rows = await db().$queryRaw<{ bucket: string; captures: number }[]>`
    SELECT CASE WHEN NOT m.mentioned OR m.position IS NULL THEN 'not mentioned'
                WHEN m.position >= 5 THEN '5+' ELSE m.position::text END AS bucket,
      count(*)::int AS captures
    FROM captures c JOIN mentions m ON m."captureId" = c.id AND m.kind = 'brand'
    WHERE ${captureScope(f)}
    GROUP BY 1`;
  const counts = new Map(rows.map((r) => [r.bucket, num(r.captures)]));
  const n = [...counts.values()].reduce((a, b) => a + b, 0);
  return { n, buckets: POSITION_BUCKETS.map((bucket) => ({ bucket, captures: counts.get(bucket) ?? 0, ...wilson(counts.get(bucket) ?? 0, n) })) };
}


type Row = {
  promptId: string;
  text: string;
  tags: string[];
  n: number;
  mentioned: number;
  pos_sum: number;
  pos_sumsq: number;
  rival_id: string | null;
  rival_name: string | null;
  lost: number | null;
  lost_instead: number | null;
};

/**
 * Per prompt: how often the brand appears, where, and "where we lose to whom": the competitor
 * that most often appears ahead of the brand or in an answer that leaves the brand out (ties go
 * to the name that sorts first).
 */
export async function promptPerformance(f: AnalyticsFilter) {
  const rows = await db().$queryRaw<Row[]>`
    WITH brand_mentions AS (
      SELECT c.id, c."promptId", m.mentioned, m.position
      FROM captures c JOIN mentions m ON m."captureId" = c.id AND m.kind = 'brand'
      WHERE ${captureScope(f)}
    ),
    per_prompt AS (
      SELECT "promptId", count(*)::int AS n, count(*) FILTER (WHERE mentioned)::int AS mentioned,
        coalesce(sum(position) FILTER (WHERE mentioned), 0)::float8 AS pos_sum,
        coalesce(sum(position * position) FILTER (WHERE mentioned), 0)::float8 AS pos_sumsq
      FROM brand_mentions GROUP BY 1
    ),
    losses AS (
      SELECT b."promptId", coalesce(cm."competitorId"::text, cm.name) AS rival, bool_or(cm."competitorId" IS NULL) AS untracked, max(cm.name) AS mention_name,
        count(*)::int AS lost, count(*) FILTER (WHERE NOT b.mentioned)::int AS lost_instead
      FROM brand_mentions b
      JOIN mentions cm ON cm."captureId" = b.id AND cm.kind = 'competitor' AND cm.mentioned
      WHERE NOT b.mentioned OR cm.position < b.position
      GROUP BY 1, 2
    ),
    top_loss AS (
      SELECT DISTINCT ON (l."promptId") l."promptId", l.rival, coalesce(co.name, l.mention_name) AS name, l.lost, l.lost_instead
      FROM losses l LEFT JOIN competitors co ON co.id::text = l.rival
      WHERE l.untracked OR co.id IS NOT NULL
      ORDER BY l."promptId", l.lost DESC, coalesce(co.name, l.mention_name)
    )
    SELECT pp."promptId", p.text, p.tags, pp.n, pp.mentioned, pp.pos_sum, pp.pos_sumsq,
      t.rival AS rival_id, t.name AS rival_name, t.lost, t.lost_instead
    FROM per_prompt pp
    JOIN prompts p ON p.id = pp."promptId"
    LEFT JOIN top_loss t ON t."promptId" = pp."promptId"
    ORDER BY pp.n DESC, p.text`;
  return rows.map((r) => ({
    promptId: r.promptId,
    text: r.text,
    tags: r.tags,
    n: num(r.n),
    visibility: wilson(num(r.mentioned), num(r.n)),
    averagePosition: meanInterval(num(r.pos_sum), num(r.pos_sumsq), num(r.mentioned)),
    losesTo: r.rival_name
      ? { key: r.rival_id!, name: r.rival_name, captures: num(r.lost), instead: num(r.lost_instead), ahead: num(r.lost) - num(r.lost_instead) }
      : null,
  }));
}


// Only sources the answer cites count; those a provider merely retrieved (citedInText = false)
// are kept for the capture view but are not "cited".

export const TOP_DOMAINS = 8;

/** The most cited domains of the range and how often each was cited per day (per week past 120 days). */
export async function topDomainsOverTime(f: AnalyticsFilter) {
  const rows = await db().$queryRaw<{ bucket: Date; domain: string; citations: number; total: number; own: boolean }[]>`
    WITH cited AS (
      SELECT ${bucketOf(f, Prisma.sql`c."finishedAt"`)} AS bucket, ci.domain, ci."isOwnDomain"
      FROM captures c JOIN citations ci ON ci."captureId" = c.id AND ci."citedInText"
      WHERE ${captureScope(f)}
    ),
    top AS (
      SELECT domain, count(*)::int AS total, bool_or("isOwnDomain") AS own
      FROM cited GROUP BY domain ORDER BY total DESC, domain LIMIT ${TOP_DOMAINS}
    )
    SELECT cited.bucket, cited.domain, count(*)::int AS citations, top.total, top.own
    FROM cited JOIN top USING (domain)
    GROUP BY 1, 2, 4, 5`;
  const domains = new Map<string, { domain: string; citations: number; own: boolean }>();
  const byBucket = new Map<string, Map<string, number>>();
  for (const r of rows) {
    domains.set(r.domain, { domain: r.domain, citations: num(r.total), own: r.own });
    const key = isoDay(r.bucket);
    if (!byBucket.has(key)) byBucket.set(key, new Map());
    byBucket.get(key)!.set(r.domain, num(r.citations));
  }
  const top = [...domains.values()].sort((a, b) => b.citations - a.citations || a.domain.localeCompare(b.domain));
  const points = bucketKeys(f).map((bucket) => ({
    bucket,
    counts: Object.fromEntries(top.map((d) => [d.domain, byBucket.get(bucket)?.get(d.domain) ?? 0])),
  }));
  return { unit: bucketUnit(f), domains: top, points };
}


/** Captures whose answer cites at least one of the brand's own domains, out of all captures in scope. */
export async function ownDomainRate(f: AnalyticsFilter) {
  const [row] = await db().$queryRaw<{ n: number; own: number }[]>`
    SELECT count(*)::int AS n,
      count(*) FILTER (WHERE EXISTS (
        SELECT 1 FROM citations ci WHERE ci."captureId" = c.id AND ci."isOwnDomain" AND ci."citedInText"
      ))::int AS own
    FROM captures c
    WHERE ${captureScope(f)}`;
  return { ...wilson(num(row?.own), num(row?.n)), citing: num(row?.own) };
}

/** Cited sources per category and bucket, from the raw citations (lib/analytics/source-categories.ts reads the domain rollups). */
export async function categoriesOverTime({ filter: f }: ResolvedFilter) {
  const [rows, ctx] = await Promise.all([
    db().$queryRaw<{ bucket: Date; domain: string; citations: number }[]>`
      SELECT ${bucketOf(f, Prisma.sql`c."finishedAt"`)} AS bucket, ci.domain, count(*)::int AS citations
      FROM captures c JOIN citations ci ON ci."captureId" = c.id AND ci."citedInText"
      WHERE ${captureScope(f)}
      GROUP BY 1, 2`,
    loadCategoryContext(f.workspaceId, f.brandId),
  ]);
  const empty = () => Object.fromEntries(SOURCE_CATEGORIES.map((c) => [c, 0])) as Record<SourceCategory, number>;
  const totals = empty();
  const byBucket = new Map<string, Record<SourceCategory, number>>();
  for (const r of rows) {
    const key = isoDay(r.bucket);
    const category = categorize(r.domain, ctx);
    if (!byBucket.has(key)) byBucket.set(key, empty());
    byBucket.get(key)![category] += num(r.citations);
    totals[category] += num(r.citations);
  }
  const all = Object.values(totals).reduce((a, b) => a + b, 0);
  return {
    unit: bucketUnit(f),
    categories: SOURCE_CATEGORIES.map((category) => ({ category, citations: totals[category], share: all ? totals[category] / all : 0 })),
    points: bucketKeys(f).map((bucket) => ({ bucket, counts: byBucket.get(bucket) ?? empty() })),
  };
}

/** Cited pages, from the raw citations (the query before rollup_cited_pages). */
export async function citedPages(f: AnalyticsFilter, page: number, pageSize: number, domain?: string) {
  const rows = await db().$queryRaw<{ url: string; domain: string; title: string | null; own: boolean; citations: number; captures: number; total: number }[]>`
    SELECT ci.url, min(ci.domain) AS domain,
      (array_agg(ci.title ORDER BY c."finishedAt" DESC) FILTER (WHERE ci.title IS NOT NULL AND ci.title <> ''))[1] AS title,
      bool_or(ci."isOwnDomain") AS own,
      count(*)::int AS citations, count(DISTINCT ci."captureId")::int AS captures,
      count(*) OVER ()::int AS total
    FROM captures c JOIN citations ci ON ci."captureId" = c.id AND ci."citedInText" AND NOT starts_with(ci.url, ${REDIRECT_LINK_PREFIX})
    WHERE ${captureScope(f)} ${domain ? Prisma.sql`AND ci.domain = ${domain}` : Prisma.empty}
    GROUP BY ci.url
    ORDER BY citations DESC, ci.url
    LIMIT ${pageSize} OFFSET ${(page - 1) * pageSize}`;
  // Counted on its own: a page past the last has no row to carry it.
  const [all] = await db().$queryRaw<{ n: number }[]>`
    SELECT count(DISTINCT ci.url)::int AS n
    FROM captures c JOIN citations ci ON ci."captureId" = c.id AND ci."citedInText" AND NOT starts_with(ci.url, ${REDIRECT_LINK_PREFIX})
    WHERE ${captureScope(f)} ${domain ? Prisma.sql`AND ci.domain = ${domain}` : Prisma.empty}`;
  return {
    items: rows.map(({ total: _total, ...r }) => ({ ...r, citations: num(r.citations), captures: num(r.captures) })),
    total: num(all?.n),
    page,
    pageSize,
    domain: domain ?? null,
  };
}

/** The brand's own pages cited most, from the raw citations (the query before rollup_own_pages). */
export async function ownPagesCited({ filter: f }: ResolvedFilter) {
  const rows = await db().$queryRaw<{ url: string; domain: string; title: string | null; citations: number; captures: number }[]>`
    SELECT ci.url, min(ci.domain) AS domain,
      (array_agg(ci.title ORDER BY c."finishedAt" DESC) FILTER (WHERE ci.title IS NOT NULL AND ci.title <> ''))[1] AS title,
      count(*)::int AS citations, count(DISTINCT ci."captureId")::int AS captures
    FROM captures c JOIN citations ci ON ci."captureId" = c.id AND ci."citedInText" AND ci."isOwnDomain" AND NOT starts_with(ci.url, ${REDIRECT_LINK_PREFIX})
    WHERE ${captureScope(f)}
    GROUP BY ci.url
    ORDER BY citations DESC, captures DESC, ci.url
    LIMIT ${OWN_PAGES}`;
  return { items: rows.map((r) => ({ ...r, citations: num(r.citations), captures: num(r.captures) })) };
}

/** The own_page_dropped alert's numbers from the raw rows (its queries before rollup_own_pages). */
export async function ownPagesByPeriod(f: AnalyticsFilter, splitAt: Date, minAnswersBefore: number) {
  const [totals] = await db().$queryRaw<{ before: number; now: number }[]>`
    SELECT count(*) FILTER (WHERE c."finishedAt" < ${splitAt}::timestamp)::int AS before,
           count(*) FILTER (WHERE c."finishedAt" >= ${splitAt}::timestamp)::int AS now
    FROM captures c WHERE ${captureScope(f)}`;
  const pages = await db().$queryRaw<{ url: string; before: number; now: number }[]>`
    SELECT ci.url,
      count(DISTINCT ci."captureId") FILTER (WHERE c."finishedAt" < ${splitAt}::timestamp)::int AS before,
      count(DISTINCT ci."captureId") FILTER (WHERE c."finishedAt" >= ${splitAt}::timestamp)::int AS now
    FROM captures c JOIN citations ci ON ci."captureId" = c.id AND ci."citedInText" AND ci."isOwnDomain" AND NOT starts_with(ci.url, ${REDIRECT_LINK_PREFIX})
    WHERE ${captureScope(f)}
    GROUP BY ci.url
    HAVING count(DISTINCT ci."captureId") FILTER (WHERE c."finishedAt" < ${splitAt}::timestamp) >= ${minAnswersBefore}
    ORDER BY 2 DESC, 1`;
  return { answersBefore: num(totals?.before), answersNow: num(totals?.now), pages: pages.map((p) => ({ url: p.url, before: num(p.before), now: num(p.now) })) };
}

/** The gap sources from the raw rows (the query before rollup_gap_sources). */
export async function gapSources({ filter: f }: ResolvedFilter, { includeEntityDomains = false }: { includeEntityDomains?: boolean } = {}) {
  const ctx = await loadCategoryContext(f.workspaceId, f.brandId);
  const entityDomains = [...ctx.ownDomains, ...ctx.competitorDomains];
  const sites = includeEntityDomains ? Prisma.empty : Prisma.sql`AND NOT ci."isOwnDomain" AND ci.domain <> ALL(${entityDomains}::text[])`;
  const rows = await db().$queryRaw<{ domain: string | null; answers: number | null; gap: number; competitors: { name: string; answers: number }[] | null }[]>`
      WITH gap AS (
        SELECT c.id FROM captures c
        WHERE ${captureScope(f)}
          AND EXISTS (SELECT 1 FROM mentions m WHERE m."captureId" = c.id AND m.kind = 'brand' AND m."brandId" = ${f.brandId}::uuid AND NOT m.mentioned)
          AND EXISTS (SELECT 1 FROM mentions m WHERE m."captureId" = c.id AND m.kind = 'competitor' AND m.mentioned)
      ),
      cited AS (
        SELECT DISTINCT ci."captureId" AS id, ci.domain
        FROM gap g JOIN citations ci ON ci."captureId" = g.id AND ci."citedInText" ${sites}
      ),
      named AS (
        SELECT m."captureId" AS id, m.name FROM gap g JOIN mentions m ON m."captureId" = g.id AND m.kind = 'competitor' AND m.mentioned
      ),
      top AS (
        SELECT domain, count(*)::int AS answers FROM cited GROUP BY domain ORDER BY answers DESC, domain LIMIT ${GAP_SOURCES}
      )
      -- One row with the gap count even when no gap answer cites anything.
      SELECT t.domain, t.answers, g.n AS gap,
        (SELECT json_agg(json_build_object('name', x.name, 'answers', x.answers) ORDER BY x.answers DESC, x.name)
         FROM (SELECT n.name, count(*)::int AS answers FROM cited s JOIN named n ON n.id = s.id WHERE s.domain = t.domain GROUP BY n.name) x) AS competitors
      FROM (SELECT count(*)::int AS n FROM gap) g LEFT JOIN top t ON true
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

// The Costs page as it was before rollup_attempts: every attempt's row, joined to its capture
// (the accepted captures already came from rollup_answers).
/**
 * Money by attempt, the unit of cost: attempts started in [from, to), of captures of the brand
 * (and of the chosen providers and tags), whatever became of the capture. Cost per accepted
 * capture divides that by the captures that succeeded in the range; retry waste is the cost of
 * attempts that did not succeed (`wastedAttempts` of them, `chargedWastedAttempts` at a cost: a
 * call refused before the provider did any work costs nothing and wastes nothing); unknown
 * outcomes carry estimated costs.
 */
export async function costsDashboard({ filter: f, providers }: ResolvedFilter) {
  const attemptScope = Prisma.sql`a."workspaceId" = ${f.workspaceId}::uuid
    AND a."startedAt" >= ${f.from}::timestamp AND a."startedAt" < ${f.to}::timestamp
    AND c."workspaceId" = ${f.workspaceId}::uuid AND c."brandId" = ${f.brandId}::uuid
    ${providerAndTagScope(f)}`;
  const [daily, perProvider, accepted, budget] = await Promise.all([
    db().$queryRaw<{ bucket: Date; provider: string; spent: bigint }[]>`
      SELECT ${bucketOf(f, Prisma.sql`a."startedAt"`)} AS bucket, c."providerConfigId"::text AS provider, sum(a."costMicros")::bigint AS spent
      FROM attempts a JOIN captures c ON c.id = a."captureId"
      WHERE ${attemptScope}
      GROUP BY 1, 2`,
    db().$queryRaw<CostProviderRow[]>`
      SELECT c."providerConfigId"::text AS provider,
        count(*)::int AS attempts,
        coalesce(sum(a."costMicros"), 0)::bigint AS spent,
        coalesce(sum(a."costMicros") FILTER (WHERE a.outcome <> 'succeeded'), 0)::bigint AS wasted,
        count(*) FILTER (WHERE a.outcome <> 'succeeded')::int AS wasted_attempts,
        count(*) FILTER (WHERE a.outcome <> 'succeeded' AND a."costMicros" > 0)::int AS charged_wasted_attempts,
        count(*) FILTER (WHERE a.outcome = 'unknown')::int AS unknown,
        coalesce(sum(a."costMicros") FILTER (WHERE a.outcome = 'unknown'), 0)::bigint AS unknown_cost,
        coalesce(sum(a."costMicros") FILTER (WHERE a."costIsEstimate"), 0)::bigint AS estimated_cost
      FROM attempts a JOIN captures c ON c.id = a."captureId"
      WHERE ${attemptScope}
      GROUP BY 1`,
    // The accepted captures were read from their rollup already then.
    acceptedCaptures(f),
    budgetStatus(f.workspaceId),
  ]);

  return assembleCosts(f, providers, { daily, perProvider, accepted, budget });
}

