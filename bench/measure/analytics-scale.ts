// npm run bench -- --analytics-scale [--captures=N] [--runs=N]: the analytics dashboards at
// scale. One workspace (the demo's, without its simulated history) gets N captures (default
// 1,000,000) spread over the last 180 days, each with the brand's and three competitors' mention
// rows and 2–3 citations over ~200 domains, generated entirely in SQL, then their daily rollups
// (beacon_rollup_captures, what the success path calls per capture, here over batches). Then
// each chart's route work (resolveFilter + the chart's query from lib/analytics/charts.ts, what
// GET /api/analytics/<chart> runs after the session check, called directly) is timed for the
// ranges the filter bar offers (7, 30, 90 days) and a custom year, without a filter and with a
// tag filter: every chart of CHART_LIST (so a new chart is timed with no edit here), the two
// dashboard pages (their charts started together, as the pages do: the time until the last one)
// and the alert kinds' judges that read answers (periods of 7, 30 and 90 days). 2 warm-ups, then
// `runs` timed calls, one at a time.
// Import only after setDatabaseUrl() (lib/db/prisma.ts reads it).
import type pg from "pg";
import { competitorOvertookKind } from "@/lib/alerts/kinds/competitor-overtook";
import { metricChangeKind } from "@/lib/alerts/kinds/metric-change";
import { ownPageDroppedKind } from "@/lib/alerts/kinds/own-page-dropped";
import { alertReads } from "@/lib/alerts/reads";
import { CHART_LIST, CHARTS, type Chart, type ChartName } from "@/lib/analytics/charts";
import { resolveFilter } from "@/lib/analytics/filter";
import { analyticsFilterInput, lastDays, RANGE_PRESETS } from "@/lib/analytics/schemas";
import { db } from "@/lib/db/prisma";
import { DEMO_WORKSPACE } from "@/lib/seed/demo-content";
import { seedDemo } from "@/lib/seed/demo";
import { BENCH_STATE, connect, ensureBenchState, restoreDroppedIndexes, withoutSecondaryIndexes } from "../lib/database";
import { buildRollups } from "../lib/rollups";
import { round, summarize, type Summary } from "../lib/stats";

const HISTORY_DAYS = 180;
const DOMAINS = 200;
const BATCH = 100_000;
/**
 * The goal for every chart and alert query (issue 20): 150 ms at 10,000,000 captures, with
 * headroom at the default million (75 ms). Slower ones get their plans in the result.
 */
const goalMs = (captures: number) => (captures > 1_000_000 ? 150 : 75);
const RANGES = [...RANGE_PRESETS, 365];
/** No filter, and a tag filter ("buying" is on 4 of the 12 demo prompts: the prompt-keyed rollups then answer). */
const FILTERS = [
  { label: "", tags: [] as string[] },
  { label: ", tag buying", tags: ["buying"] },
];
/** The dashboards' pages and the chart requests each starts together (their components' useChartQuery calls). */
const PAGES: Record<string, ChartName[]> = {
  Overview: ["provider-coverage", "kpis", "markets", "visibility", "share-of-voice", "positions", "prompts"],
  Sources: ["provider-coverage", "top-domains", "own-domain", "source-categories", "cited-pages", "own-pages", "gap-sources"],
};
/** The alert kinds that read answers (new_brand is competitor discovery: npm run bench -- --discovery), each judged as after a check. */
const ALERT_QUERIES = [
  { label: "number changed (metric_change, visibility)", kind: metricChangeKind, params: { metric: "visibility" } },
  { label: "competitor overtook (competitor_overtook)", kind: competitorOvertookKind, params: {} },
  { label: "own page stopped being cited (own_page_dropped)", kind: ownPageDroppedKind, params: {} },
] as const;
const ALERT_MAX_DAYS = 90;
const MIN_RUNS = 3;
const RUN_BUDGET_MS = 10_000;

export type AnalyticsScaleRow = { query: string; rangeDays: number; runs: number; ms: Summary };
export type AnalyticsScaleResult = {
  captures: number;
  mentions: number;
  citations: number;
  historyDays: number;
  /** The database already held the captures (BENCH_ANALYTICS_DATABASE_URL): nothing was generated. */
  reused: boolean;
  generateSeconds: number;
  rollupSeconds: number;
  analyzeSeconds: number;
  rollupRows: Record<string, number>;
  tableSizesMB: Record<string, number>;
  runs: number;
  warmups: number;
  rows: AnalyticsScaleRow[];
  goalMs: number;
  /** EXPLAIN (ANALYZE, BUFFERS) of every SQL statement of a query whose p95 was over the goal. */
  slowPlans: { query: string; rangeDays: number; plans: string[] }[];
};

export type Ids = { workspaceId: string; brandId: string; brandName: string; competitors: { id: string; name: string }[]; promptIds: string[]; providerIds: string[] };

export async function demoIds(): Promise<Ids> {
  await seedDemo();
  const workspace = await db().workspace.findUniqueOrThrow({ where: { slug: DEMO_WORKSPACE.slug } });
  const brand = await db().brand.findFirstOrThrow({
    where: { workspaceId: workspace.id },
    orderBy: { createdAt: "asc" },
    include: { competitors: { orderBy: { createdAt: "asc" }, select: { id: true, name: true } } },
  });
  const prompts = await db().prompt.findMany({ where: { workspaceId: workspace.id }, orderBy: [{ createdAt: "asc" }, { id: "asc" }], select: { id: true } });
  const providers = await db().providerConfig.findMany({ where: { workspaceId: workspace.id, enabled: true, connection: { adapter: "simulator" } }, orderBy: { name: "asc" }, select: { id: true, connectionId: true } });
  return {
    workspaceId: workspace.id,
    brandId: brand.id,
    brandName: brand.name,
    competitors: brand.competitors,
    promptIds: prompts.map((p) => p.id),
    providerIds: providers.map((p) => p.id),
  };
}

/**
 * How generate() lays out its captures: over how many checks (by default one per prompt ×
 * provider round, as a schedule makes them: a check the product could create, not one of a
 * hundred thousand captures, which the Checks page would sum), and how far back in time (spread
 * evenly by hash).
 */
export type GenerateShape = { checks?: number; spreadSeconds: number };
const HISTORY: GenerateShape = { spreadSeconds: HISTORY_DAYS * 86400 };

/**
 * Captures g = 0..count-1: prompt and provider cycle with g, then the check, then the sample, so
 * (check, prompt, provider, sample) stays unique. Everything else comes from hashes of g or of
 * the capture id, so a run generates the same shape every time. One statement per batch inserts
 * the captures, their mentions and their citations (data-modifying CTEs share `ins`).
 */
export async function generate(
  client: pg.Client,
  ids: Ids,
  count: number,
  log: (line: string) => void,
  shape: GenerateShape = HISTORY,
  /** More connections to insert batches on beside `client`, at once (PostgreSQL does the work: 2 cores, 2 connections). */
  helpers: pg.Client[] = [],
): Promise<string[]> {
  const { spreadSeconds } = shape;
  const combos = ids.promptIds.length * ids.providerIds.length;
  const checks = shape.checks ?? Math.ceil(count / combos);
  const { rows: created } = await client.query<{ id: string }>(
    `INSERT INTO checks (id, "workspaceId", "brandId", status, samples, "totalCaptures", "createdAt", "updatedAt", "finishedAt")
     SELECT gen_random_uuid(), $1, $2, 'completed', 1, 0, now() - make_interval(secs => ${spreadSeconds}), now(), now() FROM generate_series(1, $3::int)
     RETURNING id`,
    [ids.workspaceId, ids.brandId, checks],
  );
  const checkIds = created.map((r) => r.id);
  const entities = [
    { kind: "brand", brandId: ids.brandId, competitorId: null, name: ids.brandName, rate: 45 },
    ...ids.competitors.map((c, i) => ({ kind: "competitor", brandId: null, competitorId: c.id, name: c.name, rate: 70 - 10 * i })),
  ];
  let next = 0;
  const takeBatch = () => {
    const from = next;
    next += BATCH;
    return from < count ? from : null;
  };
  // The insert triggers add to shared metric rows in no fixed order: two batches at once may
  // deadlock, and the one PostgreSQL cancels is whole, so it runs again.
  const insertBatch = async (lane: pg.Client, from: number): Promise<void> => {
    try {
      await insertCaptures(lane, from);
    } catch (error) {
      if ((error as { code?: string }).code !== "40P01") throw error;
      log(`analytics-scale: captures from ${from.toLocaleString("en-US")}: deadlock, again`);
      await insertBatch(lane, from);
    }
  };
  await Promise.all(
    [client, ...helpers].map(async (lane) => {
      for (let from = takeBatch(); from !== null; from = takeBatch()) await insertBatch(lane, from);
    }),
  );
  const perCheck = Math.ceil(count / checks);
  await client.query(`UPDATE checks SET "totalCaptures" = $2 WHERE id = ANY($1::uuid[])`, [checkIds, perCheck]);
  return checkIds;

  async function insertCaptures(lane: pg.Client, from: number): Promise<void> {
    const to = Math.min(count, from + BATCH) - 1;
    const t0 = performance.now();
    await lane.query(
      `WITH g AS (
         SELECT g, abs(hashint8(g::bigint)::bigint) AS h FROM generate_series($1::int, $2::int) g
       ),
       ins AS (
         INSERT INTO captures (id, "workspaceId", "checkId", "brandId", "promptId", "providerConfigId", "connectionId", sample, status,
           "attemptCount", "maxAttempts", model, "searchMode", "answerText", "costMicros", "latencyMs",
           "startedAt", "finishedAt", "analyzedAt", "createdAt", "updatedAt")
         SELECT gen_random_uuid(), $3::uuid, ($4::uuid[])[1 + (g / $7) % $8], $5::uuid,
           ($6::uuid[])[1 + (g % $7) / $10], ($9::uuid[])[1 + g % $10],
           (SELECT pc."connectionId" FROM provider_configs pc WHERE pc.id = ($9::uuid[])[1 + g % $10]), (g / ($7 * $8))::int, 'succeeded',
           1, 3, 'simulator', 'auto', 'Benchmark answer', 1000, 800 + h % 1000,
           t - interval '1 second', t, t, t - interval '2 seconds', t
         FROM (SELECT g, h, date_trunc('second', now()) - make_interval(secs => (h % ${spreadSeconds})::float8) AS t FROM g) x
         RETURNING id
       ),
       ent AS (
         SELECT * FROM json_to_recordset($11::json) AS e(k int, kind "EntityKind", "brandId" uuid, "competitorId" uuid, name text, rate int)
       ),
       men AS (
         INSERT INTO mentions ("workspaceId", "captureId", kind, "brandId", "competitorId", name, mentioned, count, position, sentiment)
         SELECT $3::uuid, ins.id, ent.kind, ent."brandId", ent."competitorId", ent.name, mh % 100 < ent.rate,
           CASE WHEN mh % 100 < ent.rate THEN 1 + (mh / 100) % 3 ELSE 0 END,
           CASE WHEN mh % 100 < ent.rate THEN 1 + (mh / 300) % 4 END,
           CASE WHEN mh % 100 < ent.rate THEN (ARRAY['positive', 'neutral', 'negative']::"Sentiment"[])[1 + (mh / 1200) % 3] END
         FROM ins CROSS JOIN ent CROSS JOIN LATERAL (SELECT abs(hashtext(ins.id::text || ent.k)::bigint) AS mh) m
       )
       INSERT INTO citations ("workspaceId", "captureId", url, domain, "isOwnDomain", "citedInText", position)
       SELECT $3::uuid, ins.id, 'https://' || d.domain || '/page-' || (ch / 7) % 50, d.domain, d.domain = 'lumencrm.com', ch % 10 <> 0, n
       FROM ins
       CROSS JOIN LATERAL (SELECT abs(hashtext(ins.id::text)::bigint) AS ih) i
       CROSS JOIN LATERAL generate_series(1, 2 + (ih % 2)::int) n
       CROSS JOIN LATERAL (SELECT abs(hashtext(ins.id::text || n))::bigint AS ch) c
       -- Skewed: a few domains are cited far more than the rest.
       CROSS JOIN LATERAL (SELECT CASE WHEN floor(${DOMAINS} * power((ch % 10007) / 10007.0, 2))::int = 0 THEN 'lumencrm.com'
                                       ELSE 'source-' || floor(${DOMAINS} * power((ch % 10007) / 10007.0, 2))::int || '.example.com' END AS domain) d`,
      [
        from,
        to,
        ids.workspaceId,
        checkIds,
        ids.brandId,
        ids.promptIds,
        combos,
        checks,
        ids.providerIds,
        ids.providerIds.length,
        JSON.stringify(entities.map((e, k) => ({ k, ...e }))),
      ],
    );
    log(`analytics-scale: captures ${(to + 1).toLocaleString("en-US")} of ${count.toLocaleString("en-US")} (${round((performance.now() - t0) / 1000)} s for this batch)`);
  }
}

/** Whether this database's rollups were built to the end (the record is written after the last table). */
async function rollupsBuilt(client: pg.Client): Promise<boolean> {
  await ensureBenchState(client);
  const { rows } = await client.query(`SELECT 1 FROM ${BENCH_STATE} WHERE key = 'rollups built'`);
  return rows.length > 0;
}

type Measured = { query: string; rangeDays: number; run: () => Promise<unknown> };

/** Records the SQL that db().$queryRaw runs during `fn` (for EXPLAIN of the slow ones). */
async function captureSql(fn: () => Promise<unknown>): Promise<{ text: string; values: unknown[] }[]> {
  const client = db() as unknown as { $queryRaw: (...args: unknown[]) => Promise<unknown> };
  const original = client.$queryRaw;
  const seen: { text: string; values: unknown[] }[] = [];
  client.$queryRaw = function (this: unknown, ...args: unknown[]) {
    const first = args[0] as { text?: string; values?: unknown[] } | TemplateStringsArray;
    if (Array.isArray(first) && "raw" in first) {
      const strings = first as TemplateStringsArray;
      // The tagged-template form: rebuild it as a Prisma.Sql to read its text and values.
      seen.push({ text: "", values: [strings, ...args.slice(1)] });
    } else if (first && typeof first === "object" && "text" in first) {
      seen.push({ text: first.text ?? "", values: first.values ?? [] });
    }
    return original.apply(client, args);
  };
  try {
    await fn();
  } finally {
    client.$queryRaw = original;
  }
  const { Prisma } = await import("@/lib/generated/prisma/client");
  return seen.map((s) => {
    if (s.text) return s;
    const [strings, ...values] = s.values as [TemplateStringsArray, ...unknown[]];
    const sql = Prisma.sql(strings, ...values);
    return { text: sql.text, values: sql.values };
  });
}

async function explain(client: pg.Client, fn: () => Promise<unknown>): Promise<string[]> {
  const statements = await captureSql(fn);
  const plans: string[] = [];
  for (const s of statements) {
    const values = s.values.map((v) => (v instanceof Date ? v.toISOString().replace("Z", "") : v));
    const { rows } = await client.query<{ "QUERY PLAN": string }>(`EXPLAIN (ANALYZE, BUFFERS) ${s.text}`, values);
    plans.push(rows.map((r) => r["QUERY PLAN"]).join("\n"));
  }
  return plans;
}

export async function measureAnalyticsScale(
  url: string,
  /** only: chart names or alert kinds (own_page_dropped) to time, instead of all. */
  opts: { captures: number; runs: number; warmups?: number; only?: string[]; log: (line: string) => void },
): Promise<AnalyticsScaleResult> {
  const { log, runs } = opts;
  const warmups = opts.warmups ?? 2;
  const ids = await demoIds();
  if (ids.providerIds.length === 0 || ids.promptIds.length === 0 || ids.competitors.length === 0) throw new Error("the demo workspace has no simulator providers, prompts or competitors");
  const client = await connect(url);
  try {
    await client.query("SET timezone = 'UTC'");
    await client.query("SET maintenance_work_mem = '256MB'");
    await restoreDroppedIndexes([client], log);
    const { rows: existing } = await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM captures WHERE "workspaceId" = $1`, [ids.workspaceId]);
    const reused = existing[0]!.n > 0;
    let generateSeconds = 0;
    let rollupSeconds = 0;
    if (reused) {
      log(`analytics-scale: the database already holds ${existing[0]!.n.toLocaleString("en-US")} captures; measuring them as they are`);
      if (existing[0]!.n < opts.captures) log(`analytics-scale: fewer than the ${opts.captures.toLocaleString("en-US")} asked for (a generation that stopped?)`);
    } else {
      const t0 = performance.now();
      // A second connection: two batches at once (2 cores).
      const helper = await connect(url);
      await helper.query("SET timezone = 'UTC'");
      try {
        await withoutSecondaryIndexes([client, helper], ["captures", "mentions", "citations"], log, () => generate(client, ids, opts.captures, log, HISTORY, [helper]));
      } finally {
        await helper.end();
      }
      generateSeconds = round((performance.now() - t0) / 1000);
      log(`analytics-scale: generated in ${generateSeconds} s; rollups`);
    }
    // A kept database whose last run stopped before its rollups were all built goes on with the
    // tables not yet built (each table is one statement, recorded in the same transaction).
    if (!(await rollupsBuilt(client))) {
      if (reused) log("analytics-scale: its rollups were not all built (a run stopped); building the rest");
      else await client.query(`DELETE FROM ${BENCH_STATE} WHERE key LIKE 'rollup built: %'`);
      const tr = performance.now();
      await buildRollups(url, ids.workspaceId, log, "analytics-scale", { kept: true });
      rollupSeconds = round((performance.now() - tr) / 1000);
      await client.query(`INSERT INTO ${BENCH_STATE} (key, at) VALUES ('rollups built', now()) ON CONFLICT (key) DO UPDATE SET at = now()`);
    }
    log("analytics-scale: VACUUM ANALYZE");
    // Every rollup table, so one added later is measured without an edit here.
    const { rows: rollupTables } = await client.query<{ name: string }>(`SELECT relname AS name FROM pg_class WHERE relkind = 'r' AND relname LIKE 'rollup\\_%' ORDER BY relname`);
    const tables = ["captures", "mentions", "citations", ...rollupTables.map((t) => t.name)];
    const t1 = performance.now();
    await client.query(`VACUUM ANALYZE checks, ${tables.join(", ")}`);
    const analyzeSeconds = round((performance.now() - t1) / 1000);
    const { rows: counts } = await client.query<{ captures: string; mentions: string; citations: string }>(
      `SELECT (SELECT count(*) FROM captures WHERE "workspaceId" = $1) AS captures,
              (SELECT count(*) FROM mentions WHERE "workspaceId" = $1) AS mentions,
              (SELECT count(*) FROM citations WHERE "workspaceId" = $1) AS citations`,
      [ids.workspaceId],
    );
    const { rows: sizes } = await client.query<{ name: string; mb: string }>(
      `SELECT relname AS name, round(pg_total_relation_size(oid) / 1048576.0) AS mb FROM pg_class WHERE relkind = 'r' AND relname = ANY($1::text[]) ORDER BY relname`,
      [tables],
    );
    const { rows: rollupCounts } = await client.query<{ name: string; n: string }>(
      rollupTables.map((t) => `SELECT '${t.name}' AS name, count(*) AS n FROM ${t.name} WHERE "workspaceId" = $1`).join(" UNION ALL "),
      [ids.workspaceId],
    );

    const route =
      (days: number, name: ChartName, tags: string[]) =>
      async () => {
        const chart: Chart = CHARTS[name];
        const input = analyticsFilterInput.parse({ ...lastDays(days), tags });
        const r = await resolveFilter(ids.workspaceId, input);
        if (!r) throw new Error("the demo workspace has no brand");
        return chart.query(r, chart.params.parse({}));
      };
    const rule = { id: "bench", workspaceId: ids.workspaceId, name: "bench", brandId: ids.brandId, brandName: ids.brandName };
    const judge = (kind: (typeof ALERT_QUERIES)[number], days: number, tags: string[]) => () =>
      kind.kind.judge(rule, { ...kind.params, windowDays: days, tags }, new Date(), alertReads);
    const measured: Measured[] = [];
    for (const days of RANGES) {
      for (const filter of FILTERS) {
        const charts: Measured[] = CHART_LIST.map((chart) => ({ query: `${chart.name}${filter.label}`, rangeDays: days, run: route(days, chart.name, filter.tags) }));
        measured.push(...charts);
        for (const [page, names] of Object.entries(PAGES)) {
          const parts = names.map((name) => route(days, name, filter.tags));
          measured.push({ query: `${page} page${filter.label} (its ${names.length} chart requests at once, until the last)`, rangeDays: days, run: () => Promise.all(parts.map((run) => run())) });
        }
        // An alert rule's period is at most 90 days; it reads that period and the one before.
        if (days <= ALERT_MAX_DAYS) {
          for (const kind of ALERT_QUERIES) measured.push({ query: `alert ${kind.label}${filter.label}`, rangeDays: days, run: judge(kind, days, filter.tags) });
        }
      }
    }

    const rows: AnalyticsScaleRow[] = [];
    const timed = measured.filter((m) => !opts.only?.length || opts.only.some((name) => m.query.startsWith(`${name}`) || m.query.includes(`(${name}`)));
    for (const m of timed) {
      // A query far over the goal (a chart that reads raw rows: seconds each) warms up once and
      // stops after MIN_RUNS once it has taken RUN_BUDGET_MS, so such charts do not hold the run for hours.
      for (let i = 0, warm = performance.now(); i < warmups && performance.now() - warm < 1_000; i++) await m.run();
      const times: number[] = [];
      const began = performance.now();
      for (let i = 0; i < runs && (i < MIN_RUNS || performance.now() - began < RUN_BUDGET_MS); i++) {
        const start = performance.now();
        await m.run();
        times.push(performance.now() - start);
      }
      const ms = summarize(times);
      rows.push({ query: m.query, rangeDays: m.rangeDays, runs: times.length, ms });
      log(`analytics-scale: ${m.query}, ${m.rangeDays} days: median ${ms.median} ms, p95 ${ms.p95} ms${times.length < runs ? ` (${times.length} runs)` : ""}`);
    }

    const slowPlans: AnalyticsScaleResult["slowPlans"] = [];
    for (const [i, row] of rows.entries()) {
      if (row.ms.p95 <= goalMs(opts.captures) || row.query.includes(" page")) continue; // a page is made of the charts above
      try {
        slowPlans.push({ query: row.query, rangeDays: row.rangeDays, plans: await explain(client, timed[i]!.run) });
      } catch (error) {
        slowPlans.push({ query: row.query, rangeDays: row.rangeDays, plans: [`EXPLAIN failed: ${String(error)}`] });
      }
    }

    return {
      captures: Number(counts[0]!.captures),
      mentions: Number(counts[0]!.mentions),
      citations: Number(counts[0]!.citations),
      historyDays: HISTORY_DAYS,
      reused,
      generateSeconds,
      rollupSeconds,
      analyzeSeconds,
      rollupRows: Object.fromEntries(rollupCounts.map((r) => [r.name, Number(r.n)])),
      tableSizesMB: Object.fromEntries(sizes.map((s) => [s.name, Number(s.mb)])),
      runs,
      warmups,
      goalMs: goalMs(opts.captures),
      rows,
      slowPlans,
    };
  } finally {
    await client.end().catch(() => {});
  }
}

export function analyticsScaleMarkdown(r: AnalyticsScaleResult, header: string): string {
  const n = (v: number) => v.toLocaleString("en-US");
  const lines = [
    header,
    "",
    `${n(r.captures)} captures, ${n(r.mentions)} mentions, ${n(r.citations)} citations over ${r.historyDays} days in one workspace ` +
      `(${r.reused ? "a kept database" : `generated in ${r.generateSeconds} s`}${r.rollupSeconds ? `, rollups in ${r.rollupSeconds} s` : ""}, VACUUM ANALYZE ${r.analyzeSeconds} s; ${Object.entries(r.tableSizesMB).map(([t, mb]) => `${t} ${n(mb)} MB`).join(", ")}; ` +
      `${Object.entries(r.rollupRows).map(([t, rows]) => `${t} ${n(rows)} rows`).join(", ")}). ` +
      `Each query: ${r.warmups} warm-ups, then ${r.runs} runs one at a time.`,
    "",
    "| query | range | median | p95 |",
    "| --- | --- | --- | --- |",
    ...r.rows.map((row) => `| ${row.query} | ${row.rangeDays} days | ${n(row.ms.median)} ms | ${n(row.ms.p95)} ms${row.ms.p95 > r.goalMs ? " ⚠" : ""} |`),
  ];
  for (const s of r.slowPlans) {
    lines.push("", `EXPLAIN (ANALYZE, BUFFERS) of ${s.query}, ${s.rangeDays} days (first lines):`, "", "```");
    for (const plan of s.plans) lines.push(...plan.split("\n").slice(0, 12), "");
    lines.push("```");
  }
  return lines.join("\n");
}
