// npm run bench -- --pages [--captures=N] [--runs=N] [--cold=N]: the navigation's pages in
// Chromium against the production build (`next start`, bench/lib/web-server.ts). The demo
// workspace gets N captures over 180 days (default 1,000,000; analytics-scale's generator, with
// one succeeded attempt each for the Costs page), plus a finished 2,000-capture check (500 prompts
// × 4 providers) for the check page, then their rollups. Per page:
//  - cold: `cold` times, a fresh web server (the first visit after its start: no route loaded,
//    no connection pooled) and a fresh browser context (empty cache);
//  - warm: then `runs` more visits in the same context, one at a time (cache and server warm);
//  - cold cache: then `cold` visits on that running server, each in a fresh browser context: a
//    first visit with nothing cached, as a newcomer makes it (the goal's cold; the fresh server's
//    is its own row, a cost paid once per start).
// A visit is a full navigation (page.goto); "content" is the `beacon:content` mark, set when the
// page's last chart or table has its data (components/content-mark.tsx), in ms from navigation
// start; LCP (largest-contentful-paint) beside it. The JavaScript a route ships: the script files
// the cold visit loaded (Resource Timing), as transferred (gzip from `next start`: the goal is
// judged on these) and brotli'd from the build's files (what a proxy with brotli would send).
// Import only after setDatabaseUrl() (lib/db/prisma.ts reads it).
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import type pg from "pg";
import type { BrowserContext, Page } from "playwright-core";
import { db } from "@/lib/db/prisma";
import { CONTENT_MARK } from "@/lib/browser/content-mark";
import { DEMO_LOGIN } from "@/lib/seed/demo-content";
import { startChromium, type BenchBrowser } from "../lib/browser";
import { connect } from "../lib/database";
import { prepareFixtures } from "../lib/fixtures";
import { buildRollups } from "../lib/rollups";
import { round, summarize, type Summary } from "../lib/stats";
import { hasBuild, signIn, startWebServer, stopWebServer, type WebServer } from "../lib/web-server";
import { demoIds, generate } from "./analytics-scale";

export const PAGE_GOALS = { warmMs: 500, coldMs: 1500, jsKB: 250 };
const LARGE_CHECK_PROMPTS = 500; // × 4 simulated providers: 2,000 captures
const VISIT_TIMEOUT_MS = 60_000;

export type JsShipped = { files: number; transferredBytes: number; brotliBytes: number; rawBytes: number };
export type PageRow = {
  page: string;
  path: string;
  /** A fresh server's first visit, in a fresh browser context. */
  cold: { contentMs: Summary; lcpMs: Summary; phases: Phases };
  /** A fresh browser context (empty cache) on a running server. */
  coldCache: { contentMs: Summary; lcpMs: Summary; phases: Phases };
  warm: { contentMs: Summary; lcpMs: Summary; phases: Phases };
  js: JsShipped;
  /** The script files of the cold visit, largest (brotli) first. */
  scripts: { file: string; brotliBytes: number }[];
};
export type PagesResult = { captures: number; largeCheckCaptures: number; generateSeconds: number; runs: number; coldRuns: number; rows: PageRow[] };

/**
 * Where a visit's time went, ms from navigation start: the HTML's first and last byte (a page whose
 * server prefetches its queries streams their answers in it), the last script and the last data
 * request done (a fetch: a chart's GET or a server action, not the router's prefetch of a link,
 * `?_rsc=`; or a chart's GET the page preloaded), and how many data requests the page made before
 * its content.
 */
type Phases = { firstByteMs: number; documentMs: number; scriptsMs: number; dataMs: number; requests: number };
type Visit = { contentMs: number; lcpMs: number | null; phases: Phases; scripts: { url: string; transferred: number }[] };

/** The data: N history captures, their attempts, the 2,000-capture check; the rollups of all. */
async function prepare(url: string, captures: number, log: (line: string) => void): Promise<{ largeCheckId: string; largeCheckCaptures: number }> {
  const ids = await demoIds();
  const client = await connect(url);
  try {
    await client.query("SET timezone = 'UTC'");
    await client.query("SET maintenance_work_mem = '256MB'");
    const kept = await keptLargeCheck(client, ids.workspaceId, LARGE_CHECK_PROMPTS * ids.providerIds.length);
    if (kept) {
      log(`pages: the database already holds its captures; measuring them as they are`);
      await client.query("ANALYZE");
      return kept;
    }
    await generate(client, ids, captures, log);
    // The check page's prompts: the demo's 12 and benchmark prompts (bench/lib/fixtures.ts).
    const fx = await prepareFixtures(LARGE_CHECK_PROMPTS);
    const large = { ...ids, promptIds: fx.promptIds.slice(0, LARGE_CHECK_PROMPTS) };
    const count = large.promptIds.length * large.providerIds.length;
    const [largeCheckId] = await generate(client, large, count, log, { checks: 1, spreadSeconds: 3600 });
    // The Costs page reads attempts: one succeeded attempt per capture, as the success path leaves
    // it. Without triggers: the metric counters' per-row trigger (one counter row updated per
    // attempt) takes minutes per 100,000 rows, and no page reads those counters.
    log("pages: attempts");
    await client.query("SET session_replication_role = replica");
    await client.query(
      `INSERT INTO attempts ("workspaceId", "captureId", number, "runToken", "workerId", "startedAt", "endedAt", outcome, "costMicros", "latencyMs", "inputTokens", "outputTokens")
       SELECT "workspaceId", id, 1, gen_random_uuid(), 'bench', "startedAt", "finishedAt", 'succeeded', "costMicros", "latencyMs", 40, 400
       FROM captures WHERE "workspaceId" = $1`,
      [ids.workspaceId],
    );
    await client.query("RESET session_replication_role");
    // Their cost rollup, which the triggers off did not write (as migration 20261212150000 builds it).
    await client.query(
      `INSERT INTO rollup_attempts ("workspaceId", "brandId", day, "providerConfigId", "promptId", attempts, "costMicros", "wastedMicros",
         "wastedAttempts", "chargedWastedAttempts", "unknownAttempts", "unknownCostMicros", "estimatedCostMicros")
       SELECT a."workspaceId", c."brandId", a."startedAt"::date, c."providerConfigId", c."promptId", count(*), sum(a."costMicros"),
         coalesce(sum(a."costMicros") FILTER (WHERE a.outcome <> 'succeeded'), 0), count(*) FILTER (WHERE a.outcome <> 'succeeded'),
         count(*) FILTER (WHERE a.outcome <> 'succeeded' AND a."costMicros" > 0), count(*) FILTER (WHERE a.outcome = 'unknown'),
         coalesce(sum(a."costMicros") FILTER (WHERE a.outcome = 'unknown'), 0), coalesce(sum(a."costMicros") FILTER (WHERE a."costIsEstimate"), 0)
       FROM attempts a JOIN captures c ON c.id = a."captureId"
       WHERE a."workspaceId" = $1 AND a.outcome IS NOT NULL
       GROUP BY 1, 2, 3, 4, 5`,
      [ids.workspaceId],
    );
    await buildRollups(url, ids.workspaceId, log, "pages");
    log("pages: VACUUM ANALYZE");
    await client.query("VACUUM ANALYZE");
    return { largeCheckId: largeCheckId!, largeCheckCaptures: count };
  } finally {
    await client.end().catch(() => {});
  }
}

/**
 * A kept database (BENCH_PAGES_DATABASE_URL) that an earlier run generated: its newest check is the
 * check page's. Null when the workspace has no captures yet; an error when a generation was cut short.
 */
async function keptLargeCheck(client: pg.Client, workspaceId: string, largeCheckCaptures: number): Promise<{ largeCheckId: string; largeCheckCaptures: number } | null> {
  const { rows } = await client.query<{ checkId: string; n: number }>(
    `SELECT c.id AS "checkId", (SELECT count(*)::int FROM captures WHERE "checkId" = c.id) AS n
     FROM checks c WHERE c."workspaceId" = $1 AND EXISTS (SELECT 1 FROM captures WHERE "checkId" = c.id)
     ORDER BY c."createdAt" DESC LIMIT 1`,
    [workspaceId],
  );
  if (!rows[0]) return null;
  if (rows[0].n !== largeCheckCaptures) throw new Error(`the kept database's newest check has ${rows[0].n} captures, not ${largeCheckCaptures}: an earlier generation was cut short; drop the database`);
  return { largeCheckId: rows[0].checkId, largeCheckCaptures };
}

/** Records LCP candidates from the document's start (the observer must exist before they happen). */
function recordLcp() {
  const w = window as unknown as { __beaconLcp?: number };
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) w.__beaconLcp = entry.startTime;
  }).observe({ type: "largest-contentful-paint", buffered: true });
}

async function visit(page: Page, url: string): Promise<Visit> {
  await page.goto(url, { waitUntil: "commit", timeout: VISIT_TIMEOUT_MS });
  await page.waitForFunction((mark) => performance.getEntriesByName(mark).length > 0, CONTENT_MARK, { timeout: VISIT_TIMEOUT_MS, polling: 50 });
  return page.evaluate(async (mark) => {
    // Two frames after the mark: a paint that belongs to the content has reported its LCP candidate.
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    const contentMs = performance.getEntriesByName(mark)[0]!.startTime;
    const resources = (performance.getEntriesByType("resource") as PerformanceResourceTiming[]).filter((r) => r.responseEnd <= contentMs);
    const js = resources.filter((r) => new URL(r.name).pathname.endsWith(".js"));
    const [navigation] = performance.getEntriesByType("navigation") as PerformanceNavigationTiming[];
    // A chart's GET the page preloaded (initiator "link") is the data its fetch was answered from.
    const data = resources.filter((r) => (r.initiatorType === "fetch" && !new URL(r.name).searchParams.has("_rsc")) || (r.initiatorType === "link" && new URL(r.name).pathname.startsWith("/api/")));
    // No named functions in here: tsx would wrap them in a helper the page does not have.
    return {
      contentMs,
      lcpMs: (window as unknown as { __beaconLcp?: number }).__beaconLcp ?? null,
      phases: { firstByteMs: navigation!.responseStart, documentMs: navigation!.responseEnd, scriptsMs: Math.max(0, ...js.map((r) => r.responseEnd)),
        dataMs: Math.max(0, ...data.map((r) => r.responseEnd)),
        requests: data.length,
      },
      scripts: js.map((r) => ({ url: r.name, transferred: r.encodedBodySize })),
    };
  }, CONTENT_MARK);
}

type CpuProfile = { nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number } }[]; samples: number[]; timeDeltas: number[] };

/**
 * --profile=<dir>: after a page's warm visits (not timed), PROFILED_VISITS more with V8's sampling
 * profiler on the page (Chrome DevTools Protocol), each written as <dir>/<page>-<n>.cpuprofile
 * (open it in DevTools' Performance panel), and the browser's self time summed over them logged by
 * script file and by function: where a warm visit's main-thread time goes. "(program)" is the
 * browser's own work (style, layout, paint, parsing), "(idle)" waiting (for the network).
 */
const PROFILED_VISITS = 3;
async function profileWarmVisits(page: Page, p: { page: string; path: string }, dir: string, log: (line: string) => void) {
  fs.mkdirSync(dir, { recursive: true });
  const cdp = await page.context().newCDPSession(page);
  const byFile = new Map<string, number>();
  const byFunction = new Map<string, number>();
  let totalMs = 0;
  try {
    await cdp.send("Profiler.enable");
    await cdp.send("Profiler.setSamplingInterval", { interval: 200 });
    for (let n = 1; n <= PROFILED_VISITS; n++) {
      await cdp.send("Profiler.start");
      const { contentMs } = await visit(page, p.path);
      const { profile } = (await cdp.send("Profiler.stop")) as unknown as { profile: CpuProfile };
      fs.writeFileSync(path.join(dir, `${p.page.replace(/\W+/g, "-").toLowerCase()}-${n}.cpuprofile`), JSON.stringify(profile));
      const frames = new Map(profile.nodes.map((node) => [node.id, node.callFrame]));
      for (const [k, id] of profile.samples.entries()) {
        const frame = frames.get(id)!;
        const ms = (profile.timeDeltas[k] ?? 0) / 1000;
        const file = frame.url ? new URL(frame.url).pathname.split("/").pop()! : frame.functionName;
        byFile.set(file, (byFile.get(file) ?? 0) + ms);
        const fn = `${frame.functionName || "(anonymous)"} ${file}${frame.url ? `:${frame.lineNumber + 1}:${frame.columnNumber + 1}` : ""}`;
        byFunction.set(fn, (byFunction.get(fn) ?? 0) + ms);
        totalMs += ms;
      }
      log(`pages: ${p.page}: profiled visit ${n}: content ${round(contentMs, 0)} ms`);
    }
    // One more visit traced (Chromium's timeline): the renderer main thread's self time by event,
    // which splits "(program)" into style, layout, paint, parsing and compiling.
    const browser = page.context().browser()!;
    await browser.startTracing(page, { categories: ["devtools.timeline", "disabled-by-default-devtools.timeline", "v8", "blink"] });
    await visit(page, p.path);
    const trace = JSON.parse((await browser.stopTracing()).toString()) as { traceEvents: TraceEvent[] };
    log(`pages: ${p.page}: traced visit, renderer main thread self time: ${mainThreadSelfTime(trace.traceEvents)}`);
  } finally {
    await cdp.detach().catch(() => {});
  }
  const top = (m: Map<string, number>, count: number) =>
    [...m].sort((a, b) => b[1] - a[1]).slice(0, count).map(([k, v]) => `${round(v / PROFILED_VISITS, 0)} ms ${k}`).join("; ");
  log(`pages: ${p.page}: per profiled visit (${round(totalMs / PROFILED_VISITS, 0)} ms sampled), by file: ${top(byFile, 10)}`);
  log(`pages: ${p.page}: by function: ${top(byFunction, 15)}`);
}

type TraceEvent = { name: string; ph: string; ts: number; dur?: number; pid: number; tid: number; args?: { name?: string } };

/** The traced visit's renderer main thread: self time (an event's duration less its children's) by event name, the largest first. */
function mainThreadSelfTime(events: TraceEvent[]): string {
  const main = events.find((e) => e.ph === "M" && e.name === "thread_name" && e.args?.name === "CrRendererMain");
  if (!main) return "no renderer main thread in the trace";
  const spans = events.filter((e) => e.pid === main.pid && e.tid === main.tid && e.ph === "X" && (e.dur ?? 0) > 0).sort((a, b) => a.ts - b.ts || b.dur! - a.dur!);
  const self = new Map<string, number>();
  const open: { end: number; name: string }[] = [];
  for (const e of spans) {
    while (open.length && open.at(-1)!.end <= e.ts) open.pop();
    const parent = open.at(-1);
    if (parent) self.set(parent.name, (self.get(parent.name) ?? 0) - e.dur!);
    self.set(e.name, (self.get(e.name) ?? 0) + e.dur!);
    open.push({ end: e.ts + e.dur!, name: e.name });
  }
  return [...self].sort((a, b) => b[1] - a[1]).slice(0, 14).map(([name, us]) => `${round(us / 1000, 0)} ms ${name}`).join("; ");
}

/** The build's file behind a script URL, compressed as a server would send it. */
function jsShipped(scripts: Visit["scripts"]): { js: JsShipped; scripts: PageRow["scripts"] } {
  const seen = new Map<string, number>();
  for (const s of scripts) seen.set(new URL(s.url).pathname, s.transferred);
  const js: JsShipped = { files: 0, transferredBytes: 0, brotliBytes: 0, rawBytes: 0 };
  const files: PageRow["scripts"] = [];
  for (const [pathname, transferred] of seen) {
    const file = path.join(process.cwd(), ".next", decodeURIComponent(pathname.replace(/^\/_next\//, "")));
    if (!pathname.startsWith("/_next/") || !fs.existsSync(file)) throw new Error(`script ${pathname} is not a file of the build`);
    const raw = fs.readFileSync(file);
    const brotli = zlib.brotliCompressSync(raw).length;
    js.files++;
    js.transferredBytes += transferred;
    js.brotliBytes += brotli;
    js.rawBytes += raw.length;
    files.push({ file: pathname.replace(/^\/_next\/static\//, ""), brotliBytes: brotli });
  }
  return { js, scripts: files.sort((a, b) => b.brotliBytes - a.brotliBytes) };
}

async function signedInContext(bench: BenchBrowser, server: WebServer): Promise<BrowserContext> {
  const cookie = await signIn(server, DEMO_LOGIN.email, DEMO_LOGIN.password);
  const context = await bench.browser.newContext({ baseURL: server.url, viewport: { width: 1280, height: 900 } });
  const { hostname } = new URL(server.url);
  await context.addCookies(
    cookie.split("; ").map((pair) => {
      const at = pair.indexOf("=");
      return { name: pair.slice(0, at), value: pair.slice(at + 1), domain: hostname, path: "/" };
    }),
  );
  await context.addInitScript(recordLcp);
  return context;
}

const medianPhases = (visits: Visit[]): Phases => {
  const median = (pick: (p: Phases) => number) => ms(visits.map((v) => pick(v.phases))).median;
  return {
    firstByteMs: median((p) => p.firstByteMs),
    documentMs: median((p) => p.documentMs),
    scriptsMs: median((p) => p.scriptsMs),
    dataMs: median((p) => p.dataMs),
    requests: median((p) => p.requests),
  };
};
const phasesText = (p: Phases) => `first byte ${p.firstByteMs}, HTML ${p.documentMs}, scripts ${p.scriptsMs}, data ${p.dataMs} ms (${p.requests} requests)`;

const ms = (values: (number | null)[]) => summarize(values.filter((v): v is number => v !== null).map((v) => round(v, 0)));

export async function measurePages(
  url: string,
  authSecret: string,
  opts: { captures: number; runs: number; coldRuns: number; only?: string[]; profileDir?: string; log: (line: string) => void },
): Promise<PagesResult> {
  const { log } = opts;
  if (!hasBuild()) throw new Error("--pages measures the production build: run npm run build first");
  const t0 = performance.now();
  const { largeCheckId, largeCheckCaptures } = await prepare(url, opts.captures, log);
  const generateSeconds = round((performance.now() - t0) / 1000, 0);
  const captures = await db().capture.count();
  log(`pages: ${captures.toLocaleString("en-US")} captures ready in ${generateSeconds} s`);

  const navigation = [
    { page: "Overview", path: "/" },
    { page: "Sources", path: "/analytics/sources" },
    { page: "Costs", path: "/analytics/costs" },
    { page: "Traffic", path: "/traffic" },
    { page: "Checks", path: "/checks" },
    { page: `Check (${largeCheckCaptures.toLocaleString("en-US")} captures)`, path: `/checks/${largeCheckId}` },
    { page: "Alerts", path: "/alerts" },
    { page: "Prompts", path: "/prompts" },
    { page: "Jobs", path: "/admin/jobs" },
  ];
  // --only=overview,check: the pages whose names start with one of these (a rerun of a few while working).
  const pages = navigation.filter((p) => !opts.only || opts.only.some((o) => p.page.toLowerCase().startsWith(o.toLowerCase())));
  if (!pages.length) throw new Error(`--only matches no page of: ${navigation.map((p) => p.page).join(", ")}`);
  const bench = await startChromium();
  try {
    const rows: PageRow[] = [];
    for (const p of pages) {
      const cold: Visit[] = [];
      const coldCache: Visit[] = [];
      const warm: Visit[] = [];
      for (let i = 0; i < opts.coldRuns; i++) {
        const server = await startWebServer(url, authSecret);
        try {
          const context = await signedInContext(bench, server);
          try {
            const page = await context.newPage();
            cold.push(await visit(page, p.path));
            // The warm visits follow the first cold run, in its context.
            for (let r = 0; i === 0 && r < opts.runs; r++) warm.push(await visit(page, p.path));
            if (i === 0 && opts.profileDir) await profileWarmVisits(page, p, opts.profileDir, log);
          } finally {
            await context.close();
          }
          // Then first visits with an empty cache on this running server, each in a new context.
          for (let r = 0; i === 0 && r < opts.coldRuns; r++) {
            const fresh = await signedInContext(bench, server);
            try {
              coldCache.push(await visit(await fresh.newPage(), p.path));
            } finally {
              await fresh.close();
            }
          }
        } finally {
          await stopWebServer(server);
        }
      }
      const shipped = jsShipped(cold[0]!.scripts);
      const row: PageRow = {
        ...p,
        cold: { contentMs: ms(cold.map((v) => v.contentMs)), lcpMs: ms(cold.map((v) => v.lcpMs)), phases: medianPhases(cold) },
        coldCache: { contentMs: ms(coldCache.map((v) => v.contentMs)), lcpMs: ms(coldCache.map((v) => v.lcpMs)), phases: medianPhases(coldCache) },
        warm: { contentMs: ms(warm.map((v) => v.contentMs)), lcpMs: ms(warm.map((v) => v.lcpMs)), phases: medianPhases(warm) },
        ...shipped,
      };
      rows.push(row);
      log(
        `pages: ${p.page}: cold cache ${row.coldCache.contentMs.median} ms (LCP ${row.coldCache.lcpMs.median}), fresh server ${row.cold.contentMs.median} ms (LCP ${row.cold.lcpMs.median}), warm ${row.warm.contentMs.median} / ${row.warm.contentMs.p95} ms ` +
          `(LCP ${row.warm.lcpMs.median}), JS ${kb(row.js.transferredBytes)} gzip, ${kb(row.js.brotliBytes)} brotli in ${row.js.files} files; ` +
          `cold ${phasesText(row.cold.phases)}; warm ${phasesText(row.warm.phases)}`,
      );
    }
    return { captures, largeCheckCaptures, generateSeconds, runs: opts.runs, coldRuns: opts.coldRuns, rows };
  } finally {
    await bench.stop();
  }
}

const kb = (bytes: number) => `${round(bytes / 1024, 0)} KB`;
const mark = (ok: boolean) => (ok ? "" : " ⚠");

export function pagesMarkdown(r: PagesResult, header: string): string {
  const n = (v: number) => v.toLocaleString("en-US");
  return [
    header,
    "",
    `${n(r.captures)} captures (${n(r.largeCheckCaptures)} of them in the check page's check); cold cache: median of ${r.coldRuns} first visits on a running server, each in a fresh browser context (empty cache); ` +
      `fresh server: median of ${r.coldRuns} first visits, each after a fresh \`next start\`, in a fresh browser context; ` +
      `warm: ${r.runs} repeat visits (median / p95); content = the \`beacon:content\` mark, from navigation start. JavaScript: the cold visit's script files as \`next start\` sent them (gzip; ⚠ against that), and brotli'd. ` +
      `Goals: warm ≤ ${PAGE_GOALS.warmMs} ms, cold ≤ ${n(PAGE_GOALS.coldMs)} ms, JavaScript ≤ ${PAGE_GOALS.jsKB} KB compressed.`,
    "",
    "| page | cold cache: content (LCP) | fresh server: content (LCP) | warm: content median / p95 (LCP) | warm: HTML done, last data answer (data requests) | JavaScript gzip / brotli (files) |",
    "| --- | --- | --- | --- | --- | --- |",
    ...r.rows.map(
      (row) =>
        `| ${row.page} | ${n(row.coldCache.contentMs.median)} ms (${n(row.coldCache.lcpMs.median)})${mark(row.coldCache.contentMs.median <= PAGE_GOALS.coldMs)} ` +
        `| ${n(row.cold.contentMs.median)} ms (${n(row.cold.lcpMs.median)})${mark(row.cold.contentMs.median <= PAGE_GOALS.coldMs)} ` +
        `| ${n(row.warm.contentMs.median)} / ${n(row.warm.contentMs.p95)} ms (${n(row.warm.lcpMs.median)})${mark(row.warm.contentMs.median <= PAGE_GOALS.warmMs)} ` +
        `| ${n(row.warm.phases.documentMs)}, ${n(row.warm.phases.dataMs)} ms (${row.warm.phases.requests}) ` +
        `| ${kb(row.js.transferredBytes)} / ${kb(row.js.brotliBytes)} (${row.js.files})${mark(row.js.transferredBytes <= PAGE_GOALS.jsKB * 1024)} |`,
    ),
  ].join("\n");
}
