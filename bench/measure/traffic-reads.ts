// npm run bench -- --traffic --reads [--hits=N] [--pages=N] [--raw=N] [--runs=N]: the Traffic
// page's reads at scale (issue 21 item 5: each chart <= 150 ms p95 at 100M hits). Inserting
// 100M log lines would take hours here, so the rollups a 100M-hit history produces are generated
// directly in SQL: N hits (default 100,000,000) over the 365 days up to today, on `pages` paths
// (default 10,000) of three own domains with Zipf-like popularity (the k-th page gets 1/k of the
// first's crawls), 17 crawlers with their verification, each crawler a share of the hits. A
// (day, page, crawler) pair expected to get at least one hit a day gets a row every day
// (Poisson-ish counts around its mean), a rarer one a row on as many random days as it expects
// hits. traffic_daily is generated in day order (as daily imports write it), its rollups are
// built from it as the migrations' backfills do, and visits (a fiftieth of the hits, 9 assistants) go into traffic_visits_daily
// (and its rollups) the same way. Beside them `raw` raw hits (default 2,000,000) in traffic_hits: the reads must never touch
// them, which the table's scan counters show (read after the bench's connections have closed,
// when their statistics are flushed). Then every read of the page, through the chart registry as
// the route runs it (resolveFilter + the chart's query), over 30 and 90 days, with and without a
// tag filter, is timed `runs` times after a warm-up: median and p95.
// Import only after setDatabaseUrl() (lib/db/prisma.ts reads it).
import { CHARTS, type ChartName } from "@/lib/analytics/charts";
import { resolveFilter } from "@/lib/analytics/filter";
import { hasTrafficLogs } from "@/lib/analytics/traffic";
import { analyticsFilterInput, lastDays } from "@/lib/analytics/schemas";
import { db, disconnectDb } from "@/lib/db/prisma";
import { DEMO_WORKSPACE } from "@/lib/seed/demo-content";
import { seedDemo } from "@/lib/seed/demo";
import { connect } from "../lib/database";
import { round, summarize, type Summary, waitFor } from "../lib/stats";

/** Issue 21's goal for the Traffic page's charts, p95. */
export const TRAFFIC_READ_GOAL_MS = 150;

const OWN = ["acme-bench.com", "docs.acme-bench.com", "acme-bench.io"];
const DAYS = 365;
const RANGES = [30, 90];
const FILTERS = [
  { label: "", tags: [] as string[] },
  { label: ", tag buying", tags: ["buying"] },
];
// Each crawler's share of the hits and its verification split (GPTBot and OAI-SearchBot have published ranges).
const CRAWLERS: [crawler: string, verification: string, share: number][] = [
  ["GPTBot", "verified", 0.16],
  ["GPTBot", "unverified", 0.02],
  ["OAI-SearchBot", "verified", 0.07],
  ["OAI-SearchBot", "unverified", 0.01],
  ["ChatGPT-User", "unchecked", 0.1],
  ["ClaudeBot", "unchecked", 0.12],
  ["Claude-User", "unchecked", 0.03],
  ["Claude-SearchBot", "unchecked", 0.02],
  ["PerplexityBot", "unchecked", 0.06],
  ["Perplexity-User", "unchecked", 0.03],
  ["Googlebot", "unchecked", 0.14],
  ["bingbot", "unchecked", 0.07],
  ["Applebot", "unchecked", 0.03],
  ["Amazonbot", "unchecked", 0.04],
  ["Bytespider", "unchecked", 0.05],
  ["meta-externalagent", "unchecked", 0.03],
  ["CCBot", "unchecked", 0.01],
  ["DuckAssistBot", "unchecked", 0.01],
];
const ASSISTANTS: [assistant: string, share: number][] = [
  ["ChatGPT", 0.55],
  ["Perplexity", 0.15],
  ["Gemini", 0.1],
  ["Copilot", 0.07],
  ["Claude", 0.05],
  ["DeepSeek", 0.03],
  ["Grok", 0.02],
  ["Le Chat", 0.02],
  ["You.com", 0.01],
];

export type TrafficReadsResult = {
  hits: number;
  pages: number;
  generateSeconds: number;
  rows: Record<string, number>;
  tableMB: Record<string, number>;
  rawScans: { before: number; after: number; readsTouchedRaw: boolean };
  reads: { query: string; rangeDays: number; runs: number; ms: Summary }[];
};

const READS: { label: string; chart: ChartName; params: Record<string, string> }[] = [
  { label: "traffic-crawls", chart: "traffic-crawls", params: {} },
  { label: "traffic-pages", chart: "traffic-pages", params: {} },
  { label: "traffic-pages page 5", chart: "traffic-pages", params: { page: "5" } },
  { label: "traffic-visits", chart: "traffic-visits", params: {} },
  { label: "traffic-funnel", chart: "traffic-funnel", params: {} },
  { label: "traffic-funnel crawled-not-cited", chart: "traffic-funnel", params: { list: "crawled-not-cited" } },
  { label: "traffic-funnel cited-not-crawled", chart: "traffic-funnel", params: { list: "cited-not-crawled" } },
  { label: "traffic-funnel blocked-cited", chart: "traffic-funnel", params: { list: "blocked-cited" } },
];

/** Sum of scans (sequential and index) of traffic_hits, from a fresh connection. */
async function rawScans(url: string): Promise<number> {
  const client = await connect(url);
  try {
    const { rows } = await client.query<{ n: string }>(`SELECT coalesce(seq_scan, 0) + coalesce(idx_scan, 0) AS n FROM pg_stat_user_tables WHERE relname = 'traffic_hits'`);
    return Number(rows[0]?.n ?? 0);
  } finally {
    await client.end();
  }
}

/** Waits until no other session is connected to the database: a closed session has flushed its statistics. */
async function othersGone(url: string): Promise<void> {
  const client = await connect(url);
  try {
    const gone = await waitFor(async () => {
      const { rows } = await client.query<{ n: string }>(`SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`);
      return Number(rows[0]!.n) === 0;
    }, 30_000);
    if (!gone) throw new Error("the bench's connections did not close");
  } finally {
    await client.end();
  }
}

export async function measureTrafficReads(url: string, opts: { hits: number; pages: number; raw: number; runs: number; log: (line: string) => void }): Promise<TrafficReadsResult> {
  const { log } = opts;
  await seedDemo();
  const workspace = await db().workspace.findUniqueOrThrow({ where: { slug: DEMO_WORKSPACE.slug } });
  const brand = await db().brand.findFirstOrThrow({ where: { workspaceId: workspace.id }, orderBy: { createdAt: "asc" } });
  await db().brand.update({ where: { id: brand.id }, data: { domains: OWN } });

  const client = await connect(url);
  const t0 = performance.now();
  // A kept database (BENCH_TRAFFIC_DATABASE_URL) that already holds the rows is measured as it is:
  // reads before and after a change alternate on the same data without the generation.
  const { rows: existing } = await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM (SELECT 1 FROM traffic_daily WHERE "workspaceId" = $1 LIMIT 1) x`, [workspace.id]);
  if (existing[0]!.n > 0) log("traffic reads: the database already holds the rollups; measuring them as they are");
  try {
    if (existing[0]!.n === 0) await generate();
    else await client.query("ANALYZE"); // a new rollup's backfill, just migrated
  } finally {
    await client.end();
  }
  async function generate() {
    await client.query("SELECT setseed(0.21)"); // the same rows on every run
    // Page k (0-based) gets weight 1/(k+1), normalized; domains take pages in turn.
    const pageSql = `SELECT k, (1.0 / (k + 1)) / (SELECT sum(1.0 / (j + 1)) FROM generate_series(0, $1::int - 1) j) AS w,
                            ($2::text[])[1 + k % 3] AS domain,
                            '/' || (CASE WHEN k % 7 = 0 THEN 'blog' WHEN k % 3 = 0 THEN 'docs' ELSE 'product' END) || '/page-' || k AS path
                     FROM generate_series(0, $1::int - 1) k`;
    // Rows of (page, key) pairs with `mean` expected hits a day over the DAYS days up to today.
    const rowsOf = (keys: string, valueColumns: string) => `
      WITH pages AS (${pageSql}), keys AS (${keys}),
        pairs AS (SELECT p.domain, p.path, k.*, $3::float8 / ${DAYS} * p.w * k.share AS mean FROM pages p CROSS JOIN keys k)
      SELECT ${valueColumns}, d.day, d.n
      FROM pairs CROSS JOIN LATERAL (
        SELECT day::date, greatest(1, round(mean * (0.5 + random())))::int AS n
        FROM generate_series(current_date - ${DAYS - 1}, current_date, interval '1 day') day WHERE mean >= 1
        UNION ALL
        SELECT DISTINCT current_date - floor(random() * ${DAYS})::int, 1
        FROM generate_series(1, floor(mean * ${DAYS} + random())::int) WHERE mean < 1
      ) d`;
    // Bulk load: traffic_daily's key is built after its rows (a third of the time), as they would be by a restore.
    await client.query("SET maintenance_work_mem = '512MB'");
    await client.query(`ALTER TABLE traffic_daily DROP CONSTRAINT traffic_daily_pkey`);
    log(`traffic reads: generating ${opts.hits.toLocaleString("en-US")} hits' rollups on ${opts.pages.toLocaleString("en-US")} pages over ${DAYS} days`);
    await client.query(
      `INSERT INTO traffic_daily ("workspaceId", day, domain, path, crawler, verification, hits, errors)
       SELECT $4::uuid, day, domain, path, crawler, verification, n, floor(n * 0.05 + random())::int
       FROM (${rowsOf(`SELECT * FROM unnest($5::text[], $6::text[], $7::float8[]) AS c(crawler, verification, share)`, "domain, path, crawler, verification")}) r ORDER BY day`,
      [opts.pages, OWN, opts.hits, workspace.id, CRAWLERS.map((c) => c[0]), CRAWLERS.map((c) => c[1]), CRAWLERS.map((c) => c[2])],
    );
    await client.query(`ALTER TABLE traffic_daily ADD CONSTRAINT traffic_daily_pkey PRIMARY KEY ("workspaceId", domain, path, day, crawler, verification)`);
    log(`traffic reads: traffic_daily in ${round((performance.now() - t0) / 1000, 0)} s; its rollups as the migration builds them`);
    await client.query(
      `INSERT INTO traffic_crawls_daily ("workspaceId", day, domain, crawler, verification, hits, errors)
       SELECT "workspaceId", day, domain, crawler, verification, sum(hits), sum(errors) FROM traffic_daily GROUP BY 1, 2, 3, 4, 5 ORDER BY 2`,
    );
    await client.query(
      `INSERT INTO traffic_pages_daily ("workspaceId", day, domain, path, hits, errors)
       SELECT "workspaceId", day, domain, path, sum(hits), sum(errors) FROM traffic_daily GROUP BY 1, 2, 3, 4 ORDER BY 2`,
    );
    await client.query(
      `INSERT INTO traffic_pages_weekly ("workspaceId", week, domain, path, hits, errors)
       SELECT "workspaceId", date_trunc('week', day)::date, domain, path, sum(hits), sum(errors) FROM traffic_daily GROUP BY 1, 2, 3, 4 ORDER BY 2`,
    );
    await client.query(
      `INSERT INTO traffic_pages_monthly ("workspaceId", month, domain, path, hits, errors)
       SELECT "workspaceId", date_trunc('month', day)::date, domain, path, sum(hits), sum(errors) FROM traffic_pages_daily GROUP BY 1, 2, 3, 4 ORDER BY 2`,
    );
    await client.query(
      `INSERT INTO traffic_visits_daily ("workspaceId", day, domain, path, assistant, visits)
       SELECT $4::uuid, day, domain, path, assistant, n
       FROM (${rowsOf(`SELECT * FROM unnest($5::text[], $6::float8[]) AS a(assistant, share)`, "domain, path, assistant")}) r ORDER BY day`,
      [opts.pages, OWN, Math.round(opts.hits / 50), workspace.id, ASSISTANTS.map((a) => a[0]), ASSISTANTS.map((a) => a[1])],
    );
    // The visits' rollups as their migration builds them.
    await client.query(
      `INSERT INTO traffic_visits_assistants_daily ("workspaceId", day, domain, assistant, visits)
       SELECT "workspaceId", day, domain, assistant, sum(visits) FROM traffic_visits_daily GROUP BY 1, 2, 3, 4 ORDER BY 2`,
    );
    for (const period of ["week", "month"]) {
      await client.query(
        `INSERT INTO traffic_visits_pages_${period}ly ("workspaceId", ${period}, domain, path, visits)
         SELECT "workspaceId", date_trunc('${period}', day)::date, domain, path, sum(visits) FROM traffic_visits_daily GROUP BY 1, 2, 3, 4 ORDER BY 2`,
      );
    }
    // Raw hits of the last 90 days (the retention's default) on the same pages: never read by the page.
    await client.query(
      `INSERT INTO traffic_hits ("workspaceId", day, at, domain, path, crawler, verification, status)
       SELECT $1::uuid, at::date, at, ($2::text[])[1 + i % 3], '/product/page-' || (i % 1000), 'GPTBot', 'verified', 200
       FROM (SELECT i, now() - random() * interval '90 days' AS at FROM generate_series(1, $3::int) i) h`,
      [workspace.id, OWN, opts.raw],
    );
    // Vacuumed as autovacuum does soon after the writes of an import: the reads' index-only scans
    // need the visibility map a table just written lacks, and autovacuum working through 5 GB
    // during the first reads would be timed with them (measured right after the generation, the
    // funnel took 140-200 ms median; after a vacuum, 90-125 on the same rows and code).
    // Autovacuum summarizing traffic_hits' BRIN ranges counts a scan per range: done here too, and
    // kept off the table while the reads are counted, so its scan counters move only if a read scans it.
    await client.query("VACUUM (ANALYZE)");
    await client.query("ALTER TABLE traffic_hits SET (autovacuum_enabled = false)");
  }
  const generateSeconds = round((performance.now() - t0) / 1000, 0);
  const tables = [
    "traffic_hits",
    "traffic_daily",
    "traffic_crawls_daily",
    "traffic_pages_daily",
    "traffic_pages_weekly",
    "traffic_pages_monthly",
    "traffic_visits_daily",
    "traffic_visits_assistants_daily",
    "traffic_visits_pages_weekly",
    "traffic_visits_pages_monthly",
  ];
  const counted = await db().$queryRawUnsafe<{ name: string; n: number; mb: number; hits: number }[]>(
    tables.map((t) => `SELECT '${t}' AS name, count(*)::int AS n, round(pg_total_relation_size('${t}') / 1048576.0)::int AS mb, ${t === "traffic_daily" ? "sum(hits)::float8" : "0::float8"} AS hits FROM ${t}`).join(" UNION ALL "),
  );
  const hits = counted.find((c) => c.name === "traffic_daily")!.hits;
  log(`traffic reads: generated in ${generateSeconds} s: ${counted.map((c) => `${c.name} ${c.n.toLocaleString("en-US")} rows (${c.mb} MB)`).join(", ")}; ${hits.toLocaleString("en-US")} hits`);

  // Counted above on the bench's connections: closed (their statistics flushed) before the count is taken.
  await disconnectDb();
  await othersGone(url);
  const before = await rawScans(url);
  const reads: TrafficReadsResult["reads"] = [];
  for (const days of RANGES) {
    for (const filter of FILTERS) {
      const chart = async (read: (typeof READS)[number]) => {
        const r = await resolveFilter(workspace.id, analyticsFilterInput.parse({ ...lastDays(days), tags: filter.tags }));
        if (!r) throw new Error("the demo workspace has no brand");
        const c = CHARTS[read.chart];
        return c.query(r, c.params.parse(read.params) as never);
      };
      const firstScreen = READS.filter((read) => !read.params.page && !read.params.list);
      const measured = [
        ...READS.map((read) => ({ query: `${read.label}${filter.label}`, run: () => chart(read) })),
        { query: `whole page${filter.label} (hasTrafficLogs and its ${firstScreen.length} chart requests at once, until the last)`, run: () => Promise.all([hasTrafficLogs(workspace.id), ...firstScreen.map(chart)]) },
      ];
      for (const m of measured) {
        await m.run();
        const times: number[] = [];
        for (let i = 0; i < opts.runs; i++) {
          const start = performance.now();
          await m.run();
          times.push(performance.now() - start);
        }
        const ms = summarize(times);
        reads.push({ query: m.query, rangeDays: days, runs: times.length, ms });
        log(`traffic reads: ${m.query}, ${days} days: median ${ms.median} ms, p95 ${ms.p95} ms`);
      }
    }
  }
  await disconnectDb();
  await othersGone(url);
  const after = await rawScans(url);
  return {
    hits,
    pages: opts.pages,
    generateSeconds,
    rows: Object.fromEntries(counted.map((c) => [c.name, c.n])),
    tableMB: Object.fromEntries(counted.map((c) => [c.name, c.mb])),
    rawScans: { before, after, readsTouchedRaw: after !== before },
    reads,
  };
}

export function trafficReadsMarkdown(r: TrafficReadsResult, header: string): string {
  const n = (v: number) => v.toLocaleString("en-US");
  return [
    header,
    "",
    `${n(r.hits)} hits on ${n(r.pages)} pages over ${DAYS} days (generated in ${r.generateSeconds} s): ${Object.entries(r.rows).map(([t, c]) => `${t} ${n(c)} rows (${r.tableMB[t]} MB)`).join(", ")}.`,
    `Raw hits read by the page: ${r.rawScans.readsTouchedRaw ? `**yes** (${r.rawScans.after - r.rawScans.before} scans)` : "none (traffic_hits' scan counters unchanged)"}.`,
    "",
    "| read | range | median | p95 |",
    "| --- | --- | --- | --- |",
    ...r.reads.map((row) => `| ${row.query} | ${row.rangeDays} days | ${n(row.ms.median)} ms | ${n(row.ms.p95)} ms${row.ms.p95 > TRAFFIC_READ_GOAL_MS ? " ⚠" : ""} |`),
  ].join("\n");
}
