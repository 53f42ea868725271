// Every rollup table, declared once: its key, grain, tag and prompt dimensions, measures and the
// per-answer rows it sums. The SQL that keeps them (beacon_rollup_captures, the prompts' tag
// trigger) is generated from this list into prisma/sql/functions by `npm run sql:generate`
// (lib/analytics/rollup-sql.ts), with a rewrite's stage and its pruning (lib/analytics/rollups.ts).
// Pure: no database, no server-only, so the generator script and its unit test import it.
import { REDIRECT_LINK_PREFIX } from "@/lib/analysis/citations";

export type Grain = "day" | "week" | "month";

/**
 * Which of a family's tables: per day, ISO week (Monday) or month, whether the key holds a tag or the
 * prompt, and whether it leaves out the provider (`byProvider: false`; it holds it otherwise).
 */
export type Variant = { grain: Grain; byTag: boolean; byPrompt: boolean; byProvider?: false };

/**
 * A column besides the key. `sum` is added up (`sign * <sum>` selected, `r + excluded` on
 * conflict); anything else gives its select and its ON CONFLICT expression (`r` the row,
 * `excluded` the answers' part; `sign` is -1 when answers are taken away), and `changes`, the
 * condition on its staged value under which it changes the row even if every sum's difference is
 * zero (a rewrite writes only the rows that change; none: it never does on its own).
 */
export type Measure = { column: string; sum: string } | { column: string; select: string; merge: string; changes?: (column: string) => string };

/** The rows a family's tables sum, for one variant: the key's expressions in key order, then FROM (and WHERE). */
export type Rows = { with?: string; keys: string[]; from: string };

/**
 * The raw rows of an answer, besides its capture (whose fields a family reads never change once it
 * succeeded), that a family's rows are computed from: a rewrite stages only the families that
 * read what it changes (beacon_rollup_stage's `sources`). rollup-sql.test.ts checks each family's
 * SQL reads exactly these tables.
 */
export const ANSWER_SOURCES = ["mentions", "citations", "candidates"] as const;
export type AnswerSource = (typeof ANSWER_SOURCES)[number];

/** One kind of rollup: what it counts per answer, kept per day or week, with or without tag or prompt. */
export type Family = {
  /** The answer's rows it reads (AnswerSource). */
  reads: AnswerSource[];
  /** Key columns after the capture's (workspace, brand, [tag], period, provider, [prompt]). */
  keys: string[];
  measures: Measure[];
  /** The column that is zero when no answer counts in a row any more (a rewrite removes the row, beacon_rollup_apply_stage); none: rows stay. */
  prunedBy?: string;
  rows: (v: Variant) => Rows;
};

export type Rollup = Variant & { table: string; family: Family; omit?: string[] };

/** The capture's key columns of a variant, in key order. */
export function captureKeyColumns(v: Variant): string[] {
  return ["workspaceId", "brandId", ...(v.byTag ? ["tag"] : []), v.grain, ...(v.byProvider === false ? [] : ["providerConfigId"]), ...(v.byPrompt ? ["promptId"] : [])];
}

/** A column name as the SQL writes it: quoted when it has capitals. */
export const ident = (column: string) => (/^[a-z_]+$/.test(column) ? column : `"${column}"`);

/** The period of a timestamp (or date) expression. */
export const period = (grain: Grain, at: string) => (grain === "day" ? `${at}::date` : `date_trunc('${grain}', ${at})::date`);

/** The capture's key expressions over `captures c` (and `t` for a tag); `named` names the period as its column. */
function captureKeys(v: Variant, named = false): string[] {
  return captureKeyColumns(v).map((column) =>
    column === "tag" ? "t.tag" : column === v.grain ? `${period(v.grain, 'c."finishedAt"')}${named ? ` AS ${column}` : ""}` : `c.${ident(column)}`,
  );
}

/** The capture's key columns read from a CTE built with `captureKeys(v, true)`. */
const keyNames = (v: Variant, alias = "") => captureKeyColumns(v).map((column) => `${alias}${ident(column)}`);

/** `captures c`, with a row per distinct tag of the prompt (`t.tag`) when the key holds a tag. */
const capturesFrom = (v: Variant) =>
  `FROM captures c${v.byTag ? `\n  JOIN prompts p ON p.id = c."promptId"\n  CROSS JOIN LATERAL (SELECT DISTINCT unnest(p.tags) AS tag) t` : ""}`;

/** The captures a call counts: those of `ids` that succeeded (others are ignored). */
const SUCCEEDED = `WHERE c.id = ANY(ids) AND c.status = 'succeeded' AND c."finishedAt" IS NOT NULL`;

export const ordinals = (n: number) => Array.from({ length: n }, (_, i) => i + 1).join(", ");

const sum = (column: string, expression: string): Measure => ({ column, sum: expression });

/**
 * The title of the row's latest answer that has one. A title is never taken away (titles of
 * stored citations do not change; a row whose answers all leave is removed by a rewrite),
 * so removing passes no title.
 */
const LATEST_TITLE: Measure = {
  column: "title",
  select: `CASE WHEN sign > 0 THEN (array_agg(ci.title ORDER BY c."finishedAt" DESC) FILTER (WHERE ci.title <> ''))[1] END`,
  merge: `CASE WHEN excluded."titleAt" >= r."titleAt" OR r."titleAt" IS NULL THEN coalesce(excluded."title", r."title") ELSE r."title" END`,
};
const LATEST_TITLE_AT: Measure = {
  column: "titleAt",
  select: `CASE WHEN sign > 0 THEN max(c."finishedAt") FILTER (WHERE ci.title <> '') END`,
  merge: `greatest(r."titleAt", excluded."titleAt")`,
};

/** Per answer: analysed or not, the brand's mention, position and sentiment, the share of voice's y and x, citing the brand's own site. */
const answers: Family = {
  reads: ["mentions", "citations"],
  keys: [],
  measures: [
    sum("captures", "count(*)"),
    sum("costMicros", `sum("costMicros")`),
    sum("answers", "count(*) FILTER (WHERE analysed)"),
    sum("mentioned", "count(*) FILTER (WHERE analysed AND mentioned)"),
    sum("positionN", "count(position) FILTER (WHERE analysed)"),
    sum("positionSum", "coalesce(sum(position) FILTER (WHERE analysed), 0)"),
    sum("positionSumSq", "coalesce(sum(position::bigint * position) FILTER (WHERE analysed), 0)"),
    ...[1, 2, 3, 4].map((p) => sum(`position${p}`, `count(*) FILTER (WHERE analysed AND mentioned AND position = ${p})`)),
    sum("position5Plus", "count(*) FILTER (WHERE analysed AND mentioned AND position >= 5)"),
    ...["positive", "neutral", "negative"].map((s) => sum(s, `count(*) FILTER (WHERE analysed AND mentioned AND sentiment = '${s}')`)),
    sum("sumY", "coalesce(sum(y) FILTER (WHERE analysed), 0)"),
    sum("sumX", "coalesce(sum(x) FILTER (WHERE analysed), 0)"),
    sum("sumYY", "coalesce(sum(y * y) FILTER (WHERE analysed), 0)"),
    sum("sumXX", "coalesce(sum(x * x) FILTER (WHERE analysed), 0)"),
    sum("sumXY", "coalesce(sum(x * y) FILTER (WHERE analysed), 0)"),
    sum("citingOwn", "count(*) FILTER (WHERE own)"),
  ],
  rows: (v) => ({
    with: `cap AS (
    SELECT c.id, ${captureKeys(v, true).join(", ")}, c."costMicros"
    ${capturesFrom(v)}
    ${SUCCEEDED}
  ),
  per_capture AS (
    SELECT cap.*, b."captureId" IS NOT NULL AS analysed, coalesce(b.mentioned, false) AS mentioned, b.position, b.sentiment,
      coalesce(b.y, 0)::bigint AS y, coalesce(x.x, 0)::bigint AS x,
      EXISTS (SELECT 1 FROM citations ci WHERE ci."captureId" = cap.id AND ci."isOwnDomain" AND ci."citedInText") AS own
    FROM cap
    LEFT JOIN (
      SELECT m."captureId", bool_or(m.mentioned) AS mentioned,
        min(m.position) FILTER (WHERE m.mentioned) AS position,
        min(m.sentiment::text) FILTER (WHERE m.mentioned) AS sentiment,
        sum(m.count) AS y
      FROM mentions m WHERE m."captureId" = ANY(ids) AND m.kind = 'brand'
      GROUP BY 1
    ) b ON b."captureId" = cap.id
    LEFT JOIN (SELECT m."captureId", sum(m.count) AS x FROM mentions m WHERE m."captureId" = ANY(ids) GROUP BY 1) x ON x."captureId" = cap.id
  )`,
    keys: keyNames(v),
    from: "FROM per_capture",
  }),
};

/**
 * Per answer and entity (the brand, a competitor, or an untracked name): its mention rows, y its
 * mentions there and x all tracked mentions there (the share of voice interval's sums,
 * 20261208130000_mention_rollup_share_sums), and whether a competitor came ahead of the brand or
 * instead of it. The name is the latest answer's that names the entity.
 */
const mentions: Family = {
  reads: ["mentions"],
  keys: ["entity"],
  prunedBy: "rows",
  measures: [
    // What added answers call it; a removal passes '' (a rewrite's stage keeps the name it adds).
    {
      column: "name",
      select: "CASE WHEN sign > 0 THEN max(name) ELSE '' END",
      merge: `CASE WHEN excluded."name" <> '' THEN excluded."name" ELSE r."name" END`,
      changes: (name) => `${name} <> ''`,
    },
    sum("rows", "sum(rows)"),
    sum("mentions", "sum(y)"),
    sum("sumYY", "sum(y * y)"),
    sum("sumXY", "sum(x * y)"),
    sum("ahead", "sum(ahead)"),
    sum("instead", "sum(instead)"),
  ],
  rows: (v) => ({
    with: `cap AS (
    SELECT c.id, ${captureKeys(v, true).join(", ")}
    ${capturesFrom(v)}
    ${SUCCEEDED}
  ),
  b AS (
    SELECT m."captureId", bool_or(m.mentioned) AS mentioned, min(m.position) FILTER (WHERE m.mentioned) AS position
    FROM mentions m WHERE m."captureId" = ANY(ids) AND m.kind = 'brand'
    GROUP BY 1
  ),
  x AS (SELECT m."captureId", sum(m.count)::bigint AS x FROM mentions m WHERE m."captureId" = ANY(ids) GROUP BY 1),
  per_capture AS (
    SELECT ${keyNames(v, "cap.").join(", ")},
      CASE WHEN m.kind = 'brand' THEN 'brand' ELSE coalesce(m."competitorId"::text, 'name:' || m.name) END AS entity,
      max(m.name) AS name,
      count(*) AS rows,
      coalesce(sum(m.count), 0)::bigint AS y,
      min(x.x) AS x,
      count(*) FILTER (WHERE m.kind = 'competitor' AND m.mentioned AND (NOT b.mentioned OR m.position < b.position)) AS ahead,
      count(*) FILTER (WHERE m.kind = 'competitor' AND m.mentioned AND NOT b.mentioned) AS instead
    FROM cap
    JOIN mentions m ON m."captureId" = cap.id
    JOIN x ON x."captureId" = cap.id
    LEFT JOIN b ON b."captureId" = cap.id
    GROUP BY cap.id, ${ordinals(captureKeyColumns(v).length + 1)}
  )`,
    keys: [...keyNames(v), "entity"],
    from: "FROM per_capture",
  }),
};

/** Per domain an answer cites in its text: the citations, and those of the brand's own site. */
const citedDomains: Family = {
  reads: ["citations"],
  keys: ["domain"],
  prunedBy: "citations",
  measures: [sum("citations", "count(*)"), sum("ownCitations", `count(*) FILTER (WHERE ci."isOwnDomain")`)],
  rows: (v) => ({
    keys: [...captureKeys(v), "ci.domain"],
    from: `${capturesFrom(v)}
  JOIN citations ci ON ci."captureId" = c.id AND ci."citedInText"
  ${SUCCEEDED}`,
  }),
};

// A citation that names a page: not a redirect link (Gemini's), which names only its site.
const A_PAGE = `NOT starts_with(ci.url, '${REDIRECT_LINK_PREFIX}')`;

/** Per URL of the brand's own site an answer cites in its text: citations, answers and the latest title. */
const ownPages: Family = {
  reads: ["citations"],
  keys: ["url", "domain"],
  prunedBy: "citations",
  measures: [sum("citations", "count(*)"), sum("answers", "count(DISTINCT c.id)"), LATEST_TITLE, LATEST_TITLE_AT],
  rows: (v) => ({
    keys: [...captureKeys(v), "ci.url", "ci.domain"],
    from: `${capturesFrom(v)}
  JOIN citations ci ON ci."captureId" = c.id AND ci."citedInText" AND ci."isOwnDomain" AND ${A_PAGE}
  ${SUCCEEDED}`,
  }),
};

/** Per URL an answer cites in its text (20261209140000_cited_page_rollups), kept as the own pages are. */
const citedPages: Family = {
  reads: ["citations"],
  keys: ["url", "domain"],
  prunedBy: "citations",
  measures: [
    sum("citations", "count(*)"),
    sum("ownCitations", `count(*) FILTER (WHERE ci."isOwnDomain")`),
    sum("answers", "count(DISTINCT c.id)"),
    LATEST_TITLE,
    LATEST_TITLE_AT,
  ],
  rows: (v) => ({
    keys: [...captureKeys(v), "ci.url", "ci.domain"],
    from: `${capturesFrom(v)}
  JOIN citations ci ON ci."captureId" = c.id AND ci."citedInText" AND ${A_PAGE}
  ${SUCCEEDED}`,
  }),
};

/**
 * Gap sources (20261208160000_gap_source_rollups): per gap answer (the brand's mention row not
 * mentioned, a competitor mentioned) a row with domain '', per domain it cites in the text a row
 * with name '', and per such domain and competitor mention row one with the name; offSite those
 * whose domain is cited other than as the brand's own. With a tag `gap` holds an answer once per
 * tag, so its citations are read by id rather than joined (the same rows, grouped).
 */
const gapSources: Family = {
  reads: ["mentions", "citations"],
  keys: ["domain", "name"],
  prunedBy: "answers",
  measures: [sum("answers", "count(*)"), sum("offSite", "count(*) FILTER (WHERE off)")],
  rows: (v) => ({
    with: `gap AS (
    SELECT c.id, ${captureKeys(v, true).join(", ")}
    ${capturesFrom(v)}
    ${SUCCEEDED}
      AND EXISTS (SELECT 1 FROM mentions m WHERE m."captureId" = c.id AND m.kind = 'brand' AND m."brandId" = c."brandId" AND NOT m.mentioned)
      AND EXISTS (SELECT 1 FROM mentions m WHERE m."captureId" = c.id AND m.kind = 'competitor' AND m.mentioned)
  ),
  cited AS (
    SELECT ci."captureId" AS id, ci.domain, bool_or(NOT ci."isOwnDomain") AS off
    ${v.byTag ? `FROM citations ci WHERE ci."captureId" IN (SELECT id FROM gap) AND ci."citedInText"` : `FROM gap g JOIN citations ci ON ci."captureId" = g.id AND ci."citedInText"`}
    GROUP BY 1, 2
  ),
  per_answer AS (
    SELECT g.*, '' AS domain, '' AS name, true AS off FROM gap g
    UNION ALL
    SELECT g.*, s.domain, '', s.off FROM gap g JOIN cited s ON s.id = g.id
    UNION ALL
    SELECT g.*, s.domain, m.name, s.off FROM gap g JOIN cited s ON s.id = g.id
    JOIN mentions m ON m."captureId" = g.id AND m.kind = 'competitor' AND m.mentioned
  )`,
    keys: [...keyNames(v), "domain", "name"],
    from: "FROM per_answer",
  }),
};

/** Untracked names an answer mentions (competitor discovery, 20261207180000_discovery_candidates). */
const candidates: Family = {
  reads: ["candidates"],
  keys: ["key", "name"],
  prunedBy: "answers",
  measures: [sum("answers", "count(*)")],
  rows: (v) => ({
    keys: [...captureKeys(v), "k.key", "k.name"],
    from: `${capturesFrom(v)}
  JOIN capture_candidates k ON k."captureId" = c.id
  ${SUCCEEDED}`,
  }),
};

const day = { grain: "day", byTag: false, byPrompt: false } as const;
const week = { grain: "week", byTag: false, byPrompt: false } as const;
const month = { grain: "month", byTag: false, byPrompt: false } as const;

/**
 * The rollups (tables in prisma/schema.prisma), by family; beacon_rollup_captures writes them in
 * `lockOrder` (below). A table with a tag follows the prompts' current tags: the tag trigger moves
 * its rows from the family's table per prompt and day (or per prompt and week or month, if the
 * family has one of the tag table's grain), which must therefore be here too.
 */
export const ROLLUPS: Rollup[] = [
  { table: "rollup_answers", family: answers, ...day, byPrompt: true },
  { table: "rollup_mentions", family: mentions, ...day, byPrompt: true },
  { table: "rollup_citations", family: citedDomains, ...day, byPrompt: true },
  { table: "rollup_domains", family: citedDomains, ...day },
  { table: "rollup_tag_domains", family: citedDomains, ...day, byTag: true },
  // What long ranges read instead of one row per day (20261208100000_weekly_domain_and_own_page_rollups).
  { table: "rollup_domain_weeks", family: citedDomains, ...week },
  { table: "rollup_tag_domain_weeks", family: citedDomains, ...week, byTag: true },
  // Without the provider, the days a range reads with no provider or market filter and at most
  // one tag (20261214110000_domain_day_totals): a row per domain and day instead of one per provider too.
  { table: "rollup_domain_day_totals", family: citedDomains, ...day, byProvider: false },
  { table: "rollup_tag_domain_day_totals", family: citedDomains, ...day, byTag: true, byProvider: false },
  { table: "rollup_own_pages", family: ownPages, ...day, byPrompt: true },
  { table: "rollup_cited_pages", family: citedPages, ...day },
  // Per week only the latest titled answer's time: its title is read from that day's row.
  { table: "rollup_cited_page_weeks", family: citedPages, ...week, omit: ["title"] },
  // Without the provider, what the table reads with no filter on providers or prompts
  // (20261211150000_cited_page_totals): a range's whole months, the whole weeks and days at its
  // edges, about one row per URL and period (a year: 12 months, not 52 weeks times the providers).
  { table: "rollup_cited_page_day_totals", family: citedPages, ...day, byProvider: false, omit: ["title"] },
  { table: "rollup_cited_page_week_totals", family: citedPages, ...week, byProvider: false, omit: ["title"] },
  { table: "rollup_cited_page_month_totals", family: citedPages, ...month, byProvider: false, omit: ["title"] },
  // Per prompt without the provider, what it reads with a tag or market filter: the prompts are a
  // key, so a re-tagging moves no row. The daily rows keep the title, read for the pages shown.
  { table: "rollup_cited_page_prompt_days", family: citedPages, ...day, byPrompt: true, byProvider: false },
  { table: "rollup_cited_page_prompt_weeks", family: citedPages, ...week, byPrompt: true, byProvider: false, omit: ["title"] },
  { table: "rollup_cited_page_prompt_months", family: citedPages, ...month, byPrompt: true, byProvider: false, omit: ["title"] },
  // Per tag without the provider, what one tag alone reads for a range's whole months and weeks
  // (20261213100000_tag_cited_page_rollups): a row per URL instead of one per URL and prompt. Moved
  // between tags from the prompt's months and weeks above (a re-tagging moves a prompt's months and
  // weeks, not its days, which the edges still read per prompt), so no latest title: a maximum
  // does not move.
  { table: "rollup_tag_cited_page_weeks", family: citedPages, ...week, byTag: true, byProvider: false, omit: ["title", "titleAt"] },
  { table: "rollup_tag_cited_page_months", family: citedPages, ...month, byTag: true, byProvider: false, omit: ["title", "titleAt"] },
  { table: "rollup_gap_source_prompts", family: gapSources, ...day, byPrompt: true },
  { table: "rollup_gap_sources", family: gapSources, ...day },
  { table: "rollup_tag_gap_sources", family: gapSources, ...day, byTag: true },
  { table: "rollup_gap_source_weeks", family: gapSources, ...week },
  { table: "rollup_tag_gap_source_weeks", family: gapSources, ...week, byTag: true },
  { table: "rollup_candidates", family: candidates, ...day, byPrompt: true },
  { table: "rollup_candidate_days", family: candidates, ...day },
  // What discovery reads with neither a tag nor a provider filter (20261210130100_candidate_day_totals).
  { table: "rollup_candidate_day_totals", family: candidates, ...day, byProvider: false },
  // What discovery reads with one tag and no provider filter (20261211140000_tag_candidates).
  { table: "rollup_tag_candidates", family: candidates, ...day, byTag: true, byProvider: false },
  // The same three per ISO week: discovery reads a range's whole weeks there, its edge days from
  // the daily ones (20261211140100_candidate_weeks).
  { table: "rollup_candidate_weeks", family: candidates, ...week },
  { table: "rollup_candidate_week_totals", family: candidates, ...week, byProvider: false },
  { table: "rollup_tag_candidate_weeks", family: candidates, ...week, byTag: true, byProvider: false },
  // Per prompt, what discovery reads where the per-tag rows cannot serve (a tag with a provider
  // filter, tags that share a prompt): the prompt is a key, so a re-tagging moves no row. Whole
  // weeks per prompt (with and without the provider), edge days per prompt without the provider;
  // with it, the edge days are rollup_candidates' (20261212130000_candidate_prompt_rollups).
  { table: "rollup_candidate_prompt_days", family: candidates, ...day, byPrompt: true, byProvider: false },
  { table: "rollup_candidate_prompt_weeks", family: candidates, ...week, byPrompt: true, byProvider: false },
  { table: "rollup_candidate_prompt_provider_weeks", family: candidates, ...week, byPrompt: true },
];

/** A rollup's key columns, in key order. */
export const keyColumns = (r: Rollup) => [...captureKeyColumns(r), ...r.family.keys];

/** A rollup's measures (the family's, less those the table omits). */
export const measuresOf = (r: Rollup) => r.family.measures.filter((m) => !r.omit?.includes(m.column));

/**
 * How many of a check's captures write one row of the table, from the fewest: those of one prompt
 * (0); of one tag's prompts and one provider (1); of one provider (2); of one tag's prompts on
 * every provider (3); all of them that cite the same domain, page or name (4).
 */
const sharedBy = (r: Variant) => (r.byPrompt ? 0 : r.byProvider === false ? (r.byTag ? 3 : 4) : r.byTag ? 1 : 2);

/**
 * The rollups' lock order: beacon_rollup_captures writes each table, rows in key order, in this
 * order, after the prompts' tag locks, and so do a rewrite's (beacon_rollup_apply_stage) and the
 * tag trigger's moves. The tables whose
 * rows fewer captures share come first, ROLLUPS' order among equals: a row is held from its
 * upsert to the commit, so the rows every capture of a provider (or of the check) writes are
 * taken last and held the shortest. Written in ROLLUPS' order, a success held its first domain
 * row over the 30 statements after it, and the captures citing that domain queued behind it
 * (39–64 % of busy database time waiting, `npm run bench -- --pipeline`, docs/benchmarks.md). Two
 * transactions that share a day, provider and prompt still meet first at that rollup_answers row.
 */
export const lockOrder = (rollups: Rollup[]): Rollup[] => [...rollups].sort((a, b) => sharedBy(a) - sharedBy(b));
