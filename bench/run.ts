// npm run bench: Beacon's pipeline measured on this machine, next to bare graphile-worker and
// the ideal, in one self-contained run. It starts its own PostgreSQL (embedded in a temporary
// folder, or a temporary database on BENCH_DATABASE_URL's server), migrates it, seeds the demo
// workspace plus benchmark prompts, starts real worker processes (worker/index.ts) per phase,
// and removes all of it at the end, also on failure or Ctrl-C. Every measurement is bounded in
// count and time. Progress goes to stderr; the markdown table to stdout; the numbers to
// bench/results/latest.json.
//
// Phases (so that nothing competes with what is being measured):
//   A. no Beacon workers: createCheck timings (4), createCheck with 1,000 prompt texts against
//      30,000 prompts (4b), bare graphile-worker latency and throughput
//   B. 2 workers x concurrency 10, simulator 0 ms, caps 100: start latency (1), throughput (2)
//      (one 2,000-capture check, at most 75 s)
//   C. 2 workers x concurrency 8, simulator 1,000 ms: 32-capture wall time at cap 4 (3), then
//      the progress poll (5) against a 40-capture check at cap 1, so that it runs for ~10 s
//   D. memory (6): 1 worker x concurrency 50, simulator 10,000 ms, caps 50: the worker's RSS with
//      50 captures streaming, and the web server's (`next start`, if built) under 50 pollers
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { setDatabaseUrl } from "@/lib/config/env";
import { keptDatabase, startDatabase, type BenchDatabase } from "./lib/database";
import { assertAlive, failureMarks, failuresSince, killAllChildren, startBeaconWorkers, stopAll, type BenchChild } from "./lib/processes";
import { markdown, writeResults, type Results } from "./lib/report";
import { round } from "./lib/stats";

const log = (line: string) => process.stderr.write(`[bench] ${line}\n`);

const BENCH_PROMPTS = 500; // 500 prompts x 4 providers = the 2,000-capture check
const started = performance.now();
let database: BenchDatabase | undefined;
let workers: BenchChild[] = [];
let prismaLoaded = false;
let interrupted = false;

let cleaning: Promise<void> | undefined;
function cleanup(): Promise<void> {
  cleaning ??= (async () => {
    await stopAll(workers).catch(() => {});
    if (prismaLoaded) await (await import("@/lib/db/prisma")).disconnectDb().catch(() => {});
    await database?.stop().catch((error: unknown) => log(`could not stop the database: ${String(error)}`));
  })();
  return cleaning;
}

process.on("exit", killAllChildren);
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    log(`${signal}: cleaning up`);
    interrupted = true;
    void cleanup().finally(() => process.exit(130));
  });
}

/**
 * The code measured: HEAD and whether the working tree had changes (read-only git commands),
 * leaving out bench/results: a run's own result file, left from the run before, is not a change
 * to the code it measures.
 */
function gitState(): { commit: string | null; dirty: boolean | null } {
  const git = (...args: string[]) => execFileSync("git", args, { stdio: ["ignore", "pipe", "ignore"] }).toString().trim();
  try {
    return { commit: git("rev-parse", "HEAD"), dirty: git("status", "--porcelain", "--untracked-files=no", "--", ".", ":(exclude)bench/results") !== "" };
  } catch {
    return { commit: null, dirty: null };
  }
}
const codeAtStart = gitState();

/** 1-minute load average at each step: other processes on the machine skew every number. */
const load: { at: string; loadAvg1m: number }[] = [];
const noteLoad = (at: string) => load.push({ at, loadAvg1m: round(os.loadavg()[0]!, 2) });

// --analytics-scale [--captures=N] [--runs=N]: only the analytics dashboards at scale
// (bench/measure/analytics-scale.ts), results in bench/results/analytics-scale.json (analytics-scale-N.json
// for another --captures). With BENCH_ANALYTICS_DATABASE_URL it measures that database, migrated
// and kept, generating the captures only if it has none: a rerun after a change (a new rollup
// and its migration's backfill) skips the quarter hour (at 10M, two hours) of generation. Its
// rollups are built again when no run recorded building them to the end (bench.state).
// --only=top-domains,own_page_dropped,… times only those charts (and pages, alert kinds).
const argValue = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split("=")[1];
const analyticsScale = process.argv.includes("--analytics-scale");

// --discovery [--captures=N] [--runs=N]: only competitor discovery's daily pass at scale
// (bench/measure/discovery.ts), results in bench/results/discovery.json (discovery-N.json for another --captures).
// With BENCH_DISCOVERY_DATABASE_URL it measures that database, migrated and kept, generating the
// answers only if it has none (their period ends the day they were generated).
const discoveryScale = process.argv.includes("--discovery");

// --reanalysis [--captures=N] [--batches=N]: only a brand edit's re-analysis at scale, batches
// timed in the run's order and in the id order runs used before (bench/measure/reanalysis.ts),
// results in bench/results/reanalysis.json (reanalysis-N.json for another --captures). With
// BENCH_REANALYSIS_DATABASE_URL it measures that database, migrated and kept, generating the
// captures only if it has none; its batches are committed, so give each run a fresh copy.
const reanalysisScale = process.argv.includes("--reanalysis");

// --actions [--runs=N]: only the check page's and the Jobs page's server actions on a 2,000-capture
// check (bench/measure/actions.ts), results in bench/results/actions.json.
const actionsOnly = process.argv.includes("--actions");

// --pages [--captures=N] [--runs=N] [--cold=N]: only the navigation's pages in Chromium against
// the production build (bench/measure/pages.ts), results in bench/results/pages.json (pages-N.json
// for another --captures). With BENCH_PAGES_DATABASE_URL it measures that database, migrated and
// kept, generating the captures only if it has no check of the check page's size. --only=overview,
// sources visits only the pages whose names start so (a partial run: not a result to commit).
// --profile=<dir> adds three profiled warm visits per page (untimed; V8 CPU profiles written there,
// the browser's self time per script and function logged).
const pagesScale = process.argv.includes("--pages");

// --traffic [--lines=N]: only the access log import (bench/measure/traffic.ts), N lines (default
// 1,000,000; the issue's 10,000,000 with --lines=10000000) in the five formats, end to end and
// parse-only; results in bench/results/traffic.json (traffic-N.json for another --lines).
// --traffic --reads [--hits=N] [--pages=N] [--raw=N] [--runs=N]: the Traffic page's reads over
// the rollups of N hits (default 100,000,000; bench/measure/traffic-reads.ts), results in
// bench/results/traffic-reads.json (traffic-reads-N.json for another --hits). With
// BENCH_TRAFFIC_DATABASE_URL it measures that database, migrated and kept, generating the rows
// only if it has none (a new rollup's migration backfills it from them).
const trafficOnly = process.argv.includes("--traffic");

// --retention [--captures=N]: only the hourly retention pass deleting a month of attempts while
// captures are being written (bench/measure/retention.ts), results in bench/results/retention.json
// (retention-N.json for another --captures).
const retentionOnly = process.argv.includes("--retention");

// --write-path [--sizes=20000,1000000] [--seconds=N]: only the claim and success writes, timed
// apart, in workspaces of each size back to back, with pg_stat_statements' per-statement times
// when the server loads it (bench/measure/write-path.ts); results in bench/results/write-path.json.
// BENCH_WRITEPATH_SERVER_URL=<a server's admin URL> keeps a database per size there
// (beacon_writepath_<N>), generated on the first run and reused after.
const writePathOnly = process.argv.includes("--write-path");

// --chaos[=N]: the lifecycle chaos test (tests/integration/lifecycle-chaos.test.ts) with N random
// schedules instead of npm test's 2; BEACON_CHAOS_SEED=<seed> sets the first run's seed (run i
// has seed + i - 1), so BEACON_CHAOS_SEED=<seed> --chaos=1 replays one run. Its own database and
// workers; every run is made, and each invariant's verdict over the runs is printed after.
const chaosArg = process.argv.find((a) => a === "--chaos" || a.startsWith("--chaos="));

type ChaosRunReport = { run: number; seed: number; invariants: string[]; failures: Record<string, string[]>; outcomes: Record<string, number> };

/** Per invariant: in how many runs it held, and the seeds of the runs where it did not. */
function chaosSummary(reports: ChaosRunReport[], runs: number): string {
  const invariants = reports[0]?.invariants ?? [];
  const lines = [`chaos: ${reports.length} of ${runs} runs reported`];
  for (const invariant of invariants) {
    const failed = reports.filter((r) => r.failures[invariant]?.length);
    lines.push(`  ${failed.length ? "✗" : "✓"} ${invariant}: held in ${reports.length - failed.length}/${reports.length}${failed.length ? `; failed with seeds ${failed.map((r) => r.seed).join(", ")}` : ""}`);
    for (const r of failed.slice(0, 3)) lines.push(`      seed ${r.seed}: ${r.failures[invariant]![0]!.split("\n")[0]!.slice(0, 300)}`);
  }
  const outcomes = new Map<string, number>();
  for (const r of reports) for (const [what, n] of Object.entries(r.outcomes)) outcomes.set(what, (outcomes.get(what) ?? 0) + n);
  lines.push("  operations over all runs:", ...[...outcomes].sort(([a], [b]) => a.localeCompare(b)).map(([what, n]) => `    ${n} × ${what}`));
  return lines.join("\n");
}

function runChaos(): number {
  const runs = Number(argValue("chaos") ?? 20);
  if (!Number.isInteger(runs) || runs < 1) throw new Error("--chaos takes a positive integer");
  log(`chaos: ${runs} random schedules`);
  const vitest = path.join(process.cwd(), "node_modules", "vitest", "vitest.mjs");
  const report = path.join(os.tmpdir(), `beacon-chaos-${process.pid}-${Date.now()}.jsonl`);
  let code = 0;
  try {
    execFileSync(process.execPath, [vitest, "run", "--project", "integration", "tests/integration/lifecycle-chaos.test.ts"], {
      stdio: "inherit",
      env: { ...process.env, BEACON_CHAOS_RUNS: String(runs), BEACON_CHAOS_REPORT: report },
    });
  } catch {
    code = 1;
  }
  const reports: ChaosRunReport[] = fs.existsSync(report)
    ? fs.readFileSync(report, "utf8").split("\n").filter(Boolean).map((line) => JSON.parse(line) as ChaosRunReport)
    : [];
  fs.rmSync(report, { force: true });
  console.log(chaosSummary(reports, runs));
  const seconds = round((performance.now() - started) / 1000, 0);
  if (code === 0 && reports.length === runs) log(`chaos: ${runs} runs, every invariant held (${seconds} s)`);
  else log(`chaos: ${code ? "an invariant failed (or the test did)" : "runs missing from the report"}; replay a run with BEACON_CHAOS_SEED=<its seed> npm run bench -- --chaos=1 (${seconds} s)`);
  return code || (reports.length === runs ? 0 : 1);
}
if (chaosArg) process.exit(runChaos());

// --pipeline: only the pipeline rows (start latency, throughput, wall time) next to bare
// graphile-worker, printed and not written to bench/results: the quick loop while tuning.
const pipelineOnly = process.argv.includes("--pipeline");

async function runPipelineOnly(): Promise<string> {
  noteLoad("start");
  database = await startDatabase(log);
  setDatabaseUrl(database.url);
  const url = database.url;
  prismaLoaded = true;
  const fixtures = await import("./lib/fixtures");
  const { measureBareStartLatency, measureBeaconStartLatency } = await import("./measure/start-latency");
  const { measureBareThroughput, measureBeaconThroughput } = await import("./measure/throughput");
  const { measureWallTime } = await import("./measure/wall-time");
  const fx = await fixtures.prepareFixtures(BENCH_PROMPTS);
  const bareLatency = await measureBareStartLatency(url, 10);
  const bareThroughput = await measureBareThroughput(url, 2000, 2, 10);
  await fixtures.setProviderCaps(fx, 100);
  workers = await startBeaconWorkers(url, randomBytes(24).toString("hex"), 2, { concurrency: 10, latencyMs: 0 });
  noteLoad("start latency");
  const beaconLatency = await measureBeaconStartLatency(fx);
  noteLoad("throughput");
  const throughput = await measureBeaconThroughput(url, fx, BENCH_PROMPTS);
  await stopAll(workers);
  await fixtures.setProviderCaps(fx, 4);
  workers = await startBeaconWorkers(url, randomBytes(24).toString("hex"), 2, { concurrency: 8, latencyMs: 1000 });
  noteLoad("wall time");
  const wallTime = await measureWallTime(fx, { prompts: 8, cap: 4, latencyMs: 1000 });
  await stopAll(workers);
  noteLoad("end");
  const waits = throughput.waits.byType.slice(0, 4).map((w) => JSON.stringify(w)).join(", ");
  const round = wallTime.capPerProvider * wallTime.providers; // captures in the first round
  return [
    `start latency: beacon ${beaconLatency.committedToStartMs.median} / ${beaconLatency.committedToStartMs.p95} ms from commit (median / p95); bare ${bareLatency.addJobToStartMs.median} / ${bareLatency.addJobToStartMs.p95} ms`,
    `throughput: beacon ${throughput.perSecond}/s (${throughput.seconds} s, ${throughput.writeTransactionsPerCapture} write transactions per capture); bare ${bareThroughput.perSecond}/s (${bareThroughput.writeTransactionsPerJob} per job)`,
    `throughput waits: ${waits}`,
    ...throughput.waits.top.slice(0, 5).map((w) => `  ${w.sharePct}% ${w.what.slice(0, 160)}`),
    `wall time: ${wallTime.ms.median} ms median (runs ${wallTime.runsMs.join(", ")}; ideal ${wallTime.idealMs} ms); ` +
      `attempts ${wallTime.attemptMs.median} / ${wallTime.attemptMs.p95} ms (median / p95); ` +
      `starts after creation: first round ${wallTime.startOffsetsMs.map((s) => `${s[0]}–${s[round - 1]}`).join(", ")} ms, then ${wallTime.startOffsetsMs.map((s) => `${s[round]}–${s.at(-1)}`).join(", ")} ms`,
    `load: ${load.map((l) => `${l.at} ${l.loadAvg1m}`).join(", ")}`,
  ].join("\n");
}

// --memory: only the worker half of the memory phase (6), printed and not written to
// bench/results: the quick loop while cutting the worker's RSS.
const memoryOnly = process.argv.includes("--memory");

async function runMemoryOnly(): Promise<string> {
  noteLoad("start");
  database = await startDatabase(log);
  setDatabaseUrl(database.url);
  prismaLoaded = true;
  const fixtures = await import("./lib/fixtures");
  const { measureMemory, WORKER_RSS_GOAL_MB } = await import("./measure/memory");
  const fx = await fixtures.prepareFixtures(BENCH_PROMPTS);
  noteLoad("memory");
  const { worker } = await measureMemory(database.url, randomBytes(24).toString("hex"), fx, log, { webServer: false });
  noteLoad("end");
  const { rss } = worker;
  return [
    `worker RSS, 1 process × concurrency ${worker.concurrency}, ${worker.streamingAtOnce} captures streaming at once (simulator ${worker.latencyMs} ms):`,
    `  peak ${rss.peakMiB} MiB, median ${rss.medianMiB}, idle ${rss.idleMiB}, VmHWM ${rss.hwmMiB} (goal ≤ ${WORKER_RSS_GOAL_MB} MB = ${round((WORKER_RSS_GOAL_MB * 1e6) / 2 ** 20, 0)} MiB)`,
    `load: ${load.map((l) => `${l.at} ${l.loadAvg1m}`).join(", ")}`,
  ].join("\n");
}

/** A single-measure mode's database: a new one (or a kept one, for analytics-scale), Prisma pointed at it. */
async function openModeDatabase(kept?: string): Promise<BenchDatabase> {
  noteLoad("start");
  database = kept ? await keptDatabase(kept) : await startDatabase(log);
  setDatabaseUrl(database.url);
  prismaLoaded = true;
  return database;
}

/**
 * A single-measure mode's end: its result, with the machine, the load and the commit, written to
 * bench/results/<file>; returns the line its markdown table starts with.
 */
function writeModeResult(mode: string, file: string, result: object): string {
  noteLoad("end");
  const cpus = os.cpus();
  const machine = {
    cpus: cpus.length,
    cpuModel: cpus[0]?.model.trim() ?? "unknown",
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    platform: `${os.platform()} ${os.release()} ${os.arch()}`,
    node: process.versions.node,
    postgres: database!.serverVersion,
    database: database!.source,
  };
  const totalSeconds = round((performance.now() - started) / 1000, 0);
  const uptime = execFileSync("uptime", { encoding: "utf8" }).trim();
  const full = { timestamp: new Date().toISOString(), ...codeAtStart, machine, load, uptime, totalSeconds, ...result };
  const target = path.join(process.cwd(), "bench", "results", file);
  fs.mkdirSync(path.dirname(target), { recursive: true });
  fs.writeFileSync(target, `${JSON.stringify(full, null, 2)}\n`);
  log(`results written to ${target}`);
  const loads = load.map((l) => l.loadAvg1m);
  return (
    `Measured by \`npm run bench -- --${mode}\` on ${full.timestamp.slice(0, 10)}: ${machine.cpus} × ${machine.cpuModel}, ${machine.memoryGiB} GiB, Node ${machine.node}, ` +
    `PostgreSQL ${machine.postgres} (${machine.database === "embedded" ? "embedded, fsync off" : machine.database}); load average ${Math.min(...loads)}–${Math.max(...loads)} ` +
    `(\`uptime\` at the end: ${uptime.replace(/^.*load average/, "load average")}); the run took ${totalSeconds} s; ` +
    `code ${codeAtStart.commit?.slice(0, 7) ?? "?"}${codeAtStart.dirty ? " with uncommitted changes" : ""}.`
  );
}

/** The default scale's results are the table in docs/benchmarks.md; other scales are kept beside them. */
const resultFile = (name: string, n: number, defaultN: number) => (n === defaultN ? `${name}.json` : `${name}-${n}.json`);

async function runAnalyticsScale(): Promise<string> {
  process.env.BEACON_DEMO_HISTORY_DAYS = "0"; // the generated captures are the only history
  const db = await openModeDatabase(process.env.BENCH_ANALYTICS_DATABASE_URL);
  const { measureAnalyticsScale, analyticsScaleMarkdown } = await import("./measure/analytics-scale");
  const captures = Number(argValue("captures") ?? 1_000_000);
  const runs = Number(argValue("runs") ?? 10);
  if (!Number.isInteger(captures) || captures < 1 || !Number.isInteger(runs) || runs < 1) throw new Error("--captures and --runs take positive integers");
  const only = argValue("only")?.split(",").filter(Boolean);
  const result = await measureAnalyticsScale(db.url, { captures, runs, only, log });
  return analyticsScaleMarkdown(result, writeModeResult("analytics-scale", resultFile("analytics-scale", captures, 1_000_000), result));
}

async function runDiscoveryScale(): Promise<string> {
  process.env.BEACON_DEMO_HISTORY_DAYS = "0"; // the generated answers are the only history
  const db = await openModeDatabase(process.env.BENCH_DISCOVERY_DATABASE_URL);
  const { measureDiscovery, discoveryMarkdown } = await import("./measure/discovery");
  const captures = Number(argValue("captures") ?? 1_000_000);
  const runs = Number(argValue("runs") ?? 20);
  if (!Number.isInteger(captures) || captures < 1 || !Number.isInteger(runs) || runs < 1) throw new Error("--captures and --runs take positive integers");
  const result = await measureDiscovery(db.url, { captures, runs, log: (line) => { if (line.includes("median")) noteLoad(line.split(":")[1]!.trim()); log(line); } });
  return discoveryMarkdown(result, writeModeResult("discovery", resultFile("discovery", captures, 1_000_000), result));
}

async function runReanalysisScale(): Promise<string> {
  process.env.BEACON_DEMO_HISTORY_DAYS = "0"; // the generated captures are the only history
  const db = await openModeDatabase(process.env.BENCH_REANALYSIS_DATABASE_URL);
  const { measureReanalysis, reanalysisMarkdown } = await import("./measure/reanalysis");
  const captures = Number(argValue("captures") ?? 1_000_000);
  const batches = Number(argValue("batches") ?? 20);
  if (!Number.isInteger(captures) || captures < 1 || !Number.isInteger(batches) || batches < 1) throw new Error("--captures and --batches take positive integers");
  const result = await measureReanalysis(db.url, { captures, batches, log: (line) => { if (line.includes("median")) noteLoad(line.split(":")[1]!.trim()); log(line); } });
  return reanalysisMarkdown(result, writeModeResult("reanalysis", resultFile("reanalysis", captures, 1_000_000), result));
}

async function runActions(): Promise<string> {
  await openModeDatabase();
  const fixtures = await import("./lib/fixtures");
  const { measureActions, actionsMarkdown } = await import("./measure/actions");
  const runs = Number(argValue("runs") ?? 20);
  if (!Number.isInteger(runs) || runs < 1) throw new Error("--runs takes a positive integer");
  const fx = await fixtures.prepareFixtures(BENCH_PROMPTS);
  noteLoad("actions");
  const result = await measureActions(fx, { runs, log });
  return actionsMarkdown(result, writeModeResult("actions", "actions.json", result));
}

async function runPages(): Promise<string> {
  process.env.BEACON_DEMO_HISTORY_DAYS = "0"; // the generated captures are the only history
  const db = await openModeDatabase(process.env.BENCH_PAGES_DATABASE_URL);
  const { measurePages, pagesMarkdown } = await import("./measure/pages");
  const captures = Number(argValue("captures") ?? 1_000_000);
  const runs = Number(argValue("runs") ?? 5);
  const coldRuns = Number(argValue("cold") ?? 3);
  if (![captures, runs, coldRuns].every((v) => Number.isInteger(v) && v >= 1)) throw new Error("--captures, --runs and --cold take positive integers");
  const only = argValue("only")?.split(",").filter(Boolean);
  const result = await measurePages(db.url, randomBytes(24).toString("hex"), {
    captures,
    runs,
    coldRuns,
    only,
    profileDir: argValue("profile"),
    log: (line) => {
      if (line.includes(" ms (LCP")) noteLoad(line.split(":")[1]!.trim());
      log(line);
    },
  });
  return pagesMarkdown(result, writeModeResult("pages", resultFile("pages", captures, 1_000_000), result));
}

async function runTraffic(): Promise<string> {
  const database = await openModeDatabase(process.argv.includes("--reads") ? process.env.BENCH_TRAFFIC_DATABASE_URL : undefined);
  if (process.argv.includes("--reads")) {
    const { measureTrafficReads, trafficReadsMarkdown } = await import("./measure/traffic-reads");
    const hits = Number(argValue("hits") ?? 100_000_000);
    const pages = Number(argValue("pages") ?? 10_000);
    const raw = Number(argValue("raw") ?? 2_000_000);
    const runs = Number(argValue("runs") ?? 20);
    if (![hits, pages, raw, runs].every((v) => Number.isInteger(v) && v >= 1)) throw new Error("--hits, --pages, --raw and --runs take positive integers");
    const result = await measureTrafficReads(database.url, { hits, pages, raw, runs, log });
    return trafficReadsMarkdown(result, writeModeResult("traffic --reads", resultFile("traffic-reads", hits, 100_000_000), result));
  }
  const { measureTraffic, trafficMarkdown } = await import("./measure/traffic");
  const lines = Number(argValue("lines") ?? 1_000_000);
  if (!Number.isInteger(lines) || lines < 5) throw new Error("--lines takes an integer of at least 5");
  const result = await measureTraffic({ lines, log: (line) => { noteLoad(/^traffic: (\w+)/.exec(line)?.[1] ?? "traffic"); log(line); } });
  return trafficMarkdown(result, writeModeResult("traffic", resultFile("traffic", lines, 1_000_000), result));
}

async function runRetentionMode(): Promise<string> {
  process.env.BEACON_DEMO_HISTORY_DAYS = "0"; // the generated captures are the only history
  // The writers and the pass share this process's Prisma pool: large enough that neither waits
  // for a connection there (the default 4 made the pass's batches queue behind the writers').
  process.env.BEACON_DB_POOL_SIZE = "16";
  const db = await openModeDatabase();
  const fixtures = await import("./lib/fixtures");
  const { measureRetention, retentionMarkdown } = await import("./measure/retention");
  const captures = Number(argValue("captures") ?? 1_000_000);
  if (!Number.isInteger(captures) || captures < 1) throw new Error("--captures takes a positive integer");
  const fx = await fixtures.prepareFixtures(BENCH_PROMPTS);
  const result = await measureRetention(db.url, fx, { captures, log: (line) => { if (line.endsWith(" starts")) noteLoad(line.replace(/^retention: /, "")); log(line); } });
  return retentionMarkdown(result, writeModeResult("retention", resultFile("retention", captures, 1_000_000), result));
}

async function runWritePath(): Promise<string> {
  process.env.BEACON_DEMO_HISTORY_DAYS = "0"; // the generated captures are the only history
  process.env.BEACON_DB_POOL_SIZE = "16"; // as --retention: the writers never wait for a connection here
  const sizes = (argValue("sizes") ?? "20000,1000000").split(",").map(Number);
  const seconds = Number(argValue("seconds") ?? 30);
  if (!sizes.every((n) => Number.isInteger(n) && n > 0) || !Number.isInteger(seconds) || seconds < 1) throw new Error("--sizes and --seconds take positive integers");
  const kept = process.env.BENCH_WRITEPATH_SERVER_URL;
  if (!kept) await openModeDatabase();
  // Without a kept server, the temporary one holds a database per size.
  const adminUrl = kept ?? (() => {
    const url = new URL(database!.url);
    url.pathname = "/postgres";
    return url.toString();
  })();
  const { ensureDatabase } = await import("@/lib/db/embedded-postgres");
  const { disconnectDb } = await import("@/lib/db/prisma");
  const fixtures = await import("./lib/fixtures");
  const { measureWritePath, writePathMarkdown } = await import("./measure/write-path");
  const result: import("./measure/write-path").WritePathResult = { writers: 0, sizes: [] };
  for (const captures of sizes) {
    const url = await ensureDatabase(adminUrl, `beacon_writepath_${captures}`);
    await disconnectDb();
    const sized = await keptDatabase(url);
    database ??= sized;
    setDatabaseUrl(url);
    prismaLoaded = true;
    const fx = await fixtures.prepareFixtures(BENCH_PROMPTS);
    noteLoad(`write path at ${captures}`);
    result.sizes.push(await measureWritePath(url, fx, { captures, seconds, log }));
    result.writers = (await import("./measure/retention")).WRITERS;
  }
  return writePathMarkdown(result, writeModeResult("write-path", "write-path.json", result));
}

async function main(): Promise<Results> {
  noteLoad("start");
  database = await startDatabase(log);
  setDatabaseUrl(database.url);
  const url = database.url;
  const authSecret = randomBytes(24).toString("hex");

  // Everything below reaches lib/db/prisma.ts, which must see the URL set above.
  prismaLoaded = true;
  const fixtures = await import("./lib/fixtures");
  const { measureCreateCheck } = await import("./measure/create-check");
  const { measurePromptLookup } = await import("./measure/prompt-lookup");
  const { measureBareStartLatency, measureBeaconStartLatency } = await import("./measure/start-latency");
  const { measureBareThroughput, measureBeaconThroughput } = await import("./measure/throughput");
  const { measureWallTime } = await import("./measure/wall-time");
  const { measureLargeCheckProgress, measureProgressPoll } = await import("./measure/progress-poll");
  const { measureMemory } = await import("./measure/memory");

  const fx = await fixtures.prepareFixtures(BENCH_PROMPTS);
  const idle = async (what: string) => {
    noteLoad(what);
    const state = await fixtures.queueState();
    if (state.jobs || state.running) log(`warning: before ${what}: ${state.jobs} capture jobs waiting, ${state.running} captures running`);
  };

  log("A: createCheck (40 and 1,000 captures), no workers");
  noteLoad("createCheck");
  const createCheck = await measureCreateCheck(fx);
  log("A: createCheck with 1,000 prompt texts against 30,000 prompts, no workers");
  noteLoad("prompt lookup");
  const promptLookup = await measurePromptLookup(fx);
  log("A: bare graphile-worker: add_job -> start, idle runner");
  noteLoad("bare latency");
  const bareLatency = await measureBareStartLatency(url, 10);
  log("A: bare graphile-worker: 2,000 no-op jobs, 2 processes x 10");
  noteLoad("bare throughput");
  const bareThroughput = await measureBareThroughput(url, 2000, 2, 10);

  const phaseB = "2 workers × concurrency 10";
  log(`B: starting ${phaseB}, simulator 0 ms, caps 100`);
  await fixtures.setProviderCaps(fx, 100);
  workers = await startBeaconWorkers(url, authSecret, 2, { concurrency: 10, latencyMs: 0 });
  let marks = failureMarks(workers);
  await idle("start latency");
  log("B: enqueue -> capture start, 50 single-capture checks");
  const beaconLatency = await measureBeaconStartLatency(fx);
  const latencyFailures = failuresSince(workers, marks);
  assertAlive(workers);
  marks = failureMarks(workers);
  await idle("throughput");
  log("B: throughput, one 2,000-capture check (at most 75 s)");
  const throughput = await measureBeaconThroughput(url, fx, BENCH_PROMPTS);
  const throughputFailures = failuresSince(workers, marks);
  assertAlive(workers);
  log("B: progress poll of that check, one poller");
  const largeProgress = await measureLargeCheckProgress(fx, throughput.checkId);
  await stopAll(workers);
  // A check that did not finish within its time limit must not run on in the next phase.
  if (throughput.timedOut) await fixtures.discardChecks([throughput.checkId]);

  const phaseC = "2 workers × concurrency 8";
  log(`C: starting ${phaseC}, simulator 1,000 ms`);
  await fixtures.setProviderCaps(fx, 4);
  workers = await startBeaconWorkers(url, authSecret, 2, { concurrency: 8, latencyMs: 1000 });
  marks = failureMarks(workers);
  await idle("wall time");
  log("C: wall time of a 32-capture check, cap 4, 3 runs");
  const wallTime = await measureWallTime(fx, { prompts: 8, cap: 4, latencyMs: 1000 });
  const wallTimeFailures = failuresSince(workers, marks);
  assertAlive(workers);
  await fixtures.setProviderCaps(fx, 1);
  await idle("progress poll");
  log("C: progress poll, 50 pollers for 10 s, 40-capture check at cap 1");
  const progressPoll = await measureProgressPoll(fx, 10);
  assertAlive(workers);
  await stopAll(workers);

  await idle("memory");
  log("D: memory: 1 worker × concurrency 50 with 50 streaming captures; the web server under 50 pollers");
  const memory = await measureMemory(url, authSecret, fx, log);
  noteLoad("end");

  const cpus = os.cpus();
  return {
    timestamp: new Date().toISOString(),
    ...codeAtStart,
    codeChangedDuringRun: gitState().commit !== codeAtStart.commit,
    machine: {
      cpus: cpus.length,
      cpuModel: cpus[0]?.model.trim() ?? "unknown",
      memoryGiB: Math.round(os.totalmem() / 2 ** 30),
      platform: `${os.platform()} ${os.release()} ${os.arch()}`,
      node: process.versions.node,
      postgres: database.serverVersion,
      database: database.source,
    },
    load,
    totalSeconds: round((performance.now() - started) / 1000, 0),
    startLatency: { beacon: beaconLatency, bare: bareLatency, workers: phaseB, failedJobs: latencyFailures },
    throughput: { beacon: throughput, bare: bareThroughput, workers: phaseB, failedJobs: throughputFailures },
    wallTime: { ...wallTime, workers: phaseC, failedJobs: wallTimeFailures },
    createCheck,
    promptLookup,
    progressPoll: { ...progressPoll, workers: phaseC, largeCheck: largeProgress },
    memory,
  };
}

let exitCode = 0;
try {
  // A mode flag runs that mode alone and prints its table (the first of this list if several are given).
  const modes: [boolean, () => Promise<string>][] = [
    [pipelineOnly, runPipelineOnly],
    [memoryOnly, runMemoryOnly],
    [trafficOnly, runTraffic],
    [writePathOnly, runWritePath],
    [retentionOnly, runRetentionMode],
    [actionsOnly, runActions],
    [pagesScale, runPages],
    [discoveryScale, runDiscoveryScale],
    [reanalysisScale, runReanalysisScale],
    [analyticsScale, runAnalyticsScale],
  ];
  const mode = modes.find(([chosen]) => chosen)?.[1];
  if (mode) {
    const table = await mode();
    await cleanup();
    console.log(table);
  } else {
    const results = await main();
    await cleanup();
    // Analysis needs no database: answers per second on one core, after the pipeline phases.
    const { measureAnalysisThroughput, measureHostileAnalysis } = await import("./measure/analysis-throughput");
    const analysis = measureAnalysisThroughput();
    const hostileAnalysis = measureHostileAnalysis();
    results.totalSeconds = round((performance.now() - started) / 1000, 0);
    log(`results written to ${writeResults(Object.assign(results, { analysis, hostileAnalysis }))}`);
    console.log(markdown(results));
    console.log(`\nAnalysis throughput: ${analysis.answersPerSecondPerCore} answers/s on one core (${analysis.answers} simulated answers of ${analysis.meanAnswerChars} characters on average).`);
    const slowest = hostileAnalysis.reduce((a, b) => (b.ms > a.ms ? b : a));
    console.log(`Hostile answers (${hostileAnalysis.length / 2} kinds, at the analysis cap and at 1 MB): at most ${slowest.ms} ms each (${slowest.pattern}, ${slowest.chars.toLocaleString("en-US")} characters).`);
  }
} catch (error) {
  exitCode = 1;
  if (!interrupted) {
    log(`failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    for (const worker of workers) log(`output of ${worker.name}:\n${worker.output()}`);
  }
} finally {
  await cleanup();
}
process.exit(exitCode);
