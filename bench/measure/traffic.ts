// npm run bench -- --traffic [--lines=N]: access log import (issue 21, docs/traffic.md) end to
// end. N log lines (default 1,000,000) are generated into files in the five real formats, a fifth
// each (nginx combined, Cloudflare Logpush NDJSON, Vercel drain NDJSON, Netlify drain NDJSON,
// CSV), ~60 % of them AI crawler requests (a share of GPTBot ones from its published addresses,
// so verified, the rest unverified), the rest browsers and other bots, over three own domains
// (plus a share of other hosts), 2,000 paths and 30 days. Each file goes through the real import
// path (linesOf over a file stream, importTrafficLog: parse, classify, verify, store raw hits and
// the daily rollup); the parse-only rate reads the same files through linesOf, the format's
// parser and the classifier without the database. The rollup is checked against the raw rows.
// Beside wall time, the CPU seconds of this process and of the PostgreSQL server (when it runs on
// this machine): on a shared, loaded machine they say what the import costs better than wall time.
// Import only after setDatabaseUrl() (lib/db/prisma.ts reads it).
import { createReadStream } from "node:fs";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { db } from "@/lib/db/prisma";
import { DEMO_WORKSPACE } from "@/lib/seed/demo-content";
import { seedDemo } from "@/lib/seed/demo";
import { classifyUserAgent } from "@/lib/traffic/classify";
import { parseCloudflare, parseCombined, parseCsv, parseNetlify, parseVercel, readCsvHeader, type LineResult, type LogFormat } from "@/lib/traffic/formats";
import { importTrafficLog, linesOf, type ImportReport } from "@/lib/traffic/import";
import { parentPid, treeCpuSeconds } from "../lib/cpu";
import { round } from "../lib/stats";

/** Issue 21's goal: log lines per second parsed, classified and rolled up on this machine. */
export const TRAFFIC_GOAL_LINES_PER_SECOND = 50_000;

const OWN = ["acme-bench.com", "docs.acme-bench.com", "acme-bench.io"];
const OTHER = ["cdn.example.net", "unrelated.org"];
const DAYS = 30;
const PATHS = 2_000;

const CRAWLER_AGENTS = [
  "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)",
  "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; OAI-SearchBot/1.0; +https://openai.com/searchbot)",
  "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; +https://openai.com/bot",
  "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)",
  "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Claude-User/1.0; +Claude-User@anthropic.com)",
  "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Claude-SearchBot/1.0; +https://www.anthropic.com)",
  "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; PerplexityBot/1.0; +https://perplexity.ai/perplexitybot)",
  "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Perplexity-User/1.0; +https://perplexity.ai/perplexity-user)",
  "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Googlebot/2.1; +http://www.google.com/bot.html) Chrome/131.0.6778.69 Safari/537.36",
  "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)",
  "Mozilla/5.0 (compatible; YandexBot/3.0; +http://yandex.com/bots)",
  "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15 (Applebot/0.1; +http://www.apple.com/go/applebot)",
  "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Amazonbot/0.1; +https://developer.amazon.com/support/amazonbot) Chrome/119.0.6045.214 Safari/537.36",
  "Mozilla/5.0 (Linux; Android 5.0) AppleWebKit/537.36 (KHTML, like Gecko) Mobile Safari/537.36 (compatible; Bytespider; spider-feedback@bytedance.com)",
  "meta-externalagent/1.1 (+https://developers.facebook.com/docs/sharing/webmasters/crawler)",
  "CCBot/2.0 (https://commoncrawl.org/faq/)",
  "DuckAssistBot/1.2; (+http://duckduckgo.com/duckassistbot.html)",
];
const OTHER_AGENTS = [
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
  "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15",
  "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1",
  "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0",
  "Mozilla/5.0 (compatible; AhrefsBot/7.0; +http://ahrefs.com/robot/)",
  "Mozilla/5.0 (compatible; SemrushBot/7~bl; +http://www.semrush.com/bot.html)",
  "curl/8.5.0",
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0, "quoted"',
];
// Addresses inside GPTBot's shipped ranges (verified) and others (a claim from elsewhere: unverified).
const GPTBOT_IPS = ["20.171.206.14", "20.171.207.99", "52.230.152.7"];
const OTHER_IPS = ["203.0.113.7", "198.51.100.23", "2001:db8::1f", "192.0.2.200", "100.64.3.4"];

const FORMATS: LogFormat[] = ["combined", "cloudflare", "vercel", "netlify", "csv"];
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** A small deterministic generator (mulberry32): the same files on every run. */
function random(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Request = { at: Date; host: string; path: string; status: number; agent: string; ip: string };

function request(next: () => number, start: number): Request {
  const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)]!;
  const crawler = next() < 0.6;
  const agent = crawler ? pick(CRAWLER_AGENTS) : pick(OTHER_AGENTS);
  const ip = agent.includes("GPTBot") && next() < 0.8 ? pick(GPTBOT_IPS) : pick(OTHER_IPS);
  // Skewed pages: a few are read often, most rarely.
  const page = Math.floor(PATHS * next() ** 3);
  const roll = next();
  return {
    at: new Date(start + Math.floor(next() * DAYS * 86_400_000)),
    host: next() < 0.05 ? pick(OTHER) : pick(OWN),
    path: `/${page % 7 === 0 ? "blog" : page % 3 === 0 ? "docs" : "product"}/page-${page}`,
    status: roll < 0.9 ? 200 : roll < 0.95 ? 301 : roll < 0.99 ? 404 : 503,
    agent,
    ip,
  };
}

const pad = (n: number) => String(n).padStart(2, "0");
const clf = (d: Date) => `${pad(d.getUTCDate())}/${MONTHS[d.getUTCMonth()]}/${d.getUTCFullYear()}:${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())} +0000`;
const csvField = (s: string) => (/[",]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s);

/** One line of a format. Combined and Netlify lines name no host: those files are of one site (the import's host). */
function line(format: LogFormat, r: Request, i: number): string {
  const query = i % 5 === 0 ? "?utm_source=newsletter" : "";
  switch (format) {
    case "combined":
      return `${r.ip} - - [${clf(r.at)}] "GET ${r.path}${query} HTTP/1.1" ${r.status} ${1000 + (i % 50_000)} "-" "${r.agent.replaceAll('"', "\\x22")}"`;
    case "cloudflare":
      return JSON.stringify({ ClientIP: r.ip, ClientRequestHost: r.host, ClientRequestMethod: "GET", ClientRequestURI: r.path + query, EdgeEndTimestamp: r.at.getTime() * 1e6 + 5e6, EdgeResponseBytes: 2048, EdgeResponseStatus: r.status, EdgeStartTimestamp: r.at.getTime() * 1e6, RayID: (i * 2654435761).toString(16).padStart(16, "0"), ClientRequestUserAgent: r.agent });
    case "vercel":
      return JSON.stringify({ id: `log_${i}`, deploymentId: "dpl_bench", source: "edge", host: r.host, timestamp: r.at.getTime(), projectId: "prj_bench", level: "info", proxy: { timestamp: r.at.getTime(), method: "GET", host: r.host, path: r.path + query, userAgent: [r.agent], referer: "", statusCode: r.status, clientIp: r.ip, region: "fra1", cacheId: "", vercelCache: "HIT" } });
    case "netlify":
      return JSON.stringify({ log_type: "traffic", timestamp: r.at.toISOString(), request_id: `01J${i}`, client_ip: r.ip, method: "GET", url: r.path + query, status_code: r.status, user_agent: r.agent, referrer: "", duration: 12, content_type: "text/html" });
    case "csv":
      return [r.at.toISOString(), r.host, r.path, String(r.status), csvField(r.agent), r.ip].join(",");
  }
}

/** Writes `lines` lines of one format to a file (the CSV's header line not counted). */
async function writeLog(file: string, format: LogFormat, lines: number, seed: number): Promise<void> {
  const next = random(seed);
  const start = Date.UTC(2026, 10, 1);
  const out = fs.createWriteStream(file);
  let chunk = format === "csv" ? "timestamp,host,path,status,user_agent,ip\n" : "";
  for (let i = 0; i < lines; i++) {
    chunk += `${line(format, request(next, start), i)}\n`;
    if (chunk.length > 1 << 20) {
      if (!out.write(chunk)) await new Promise<void>((resolve) => out.once("drain", () => resolve()));
      chunk = "";
    }
  }
  out.end(chunk);
  await new Promise<void>((resolve, reject) => out.on("finish", () => resolve()).on("error", reject));
}

const readerOf = (format: LogFormat, header: string): ((line: string) => LineResult) => {
  if (format === "combined") return parseCombined;
  if (format === "cloudflare") return parseCloudflare;
  if (format === "vercel") return parseVercel;
  if (format === "netlify") return parseNetlify;
  const columns = readCsvHeader(header);
  if ("error" in columns) throw new Error(columns.error);
  return (l) => parseCsv(l, columns);
};

/** Reads a file through linesOf, the format's parser and the classifier: no database. */
async function parseOnly(file: string, format: LogFormat): Promise<{ lines: number; crawlerHits: number }> {
  let read: ((line: string) => LineResult) | null = format === "csv" ? null : readerOf(format, "");
  let lines = 0;
  let crawlerHits = 0;
  for await (const l of linesOf(createReadStream(file), { maxBytes: Number.MAX_SAFE_INTEGER })) {
    lines += 1;
    if (!read) {
      read = readerOf(format, l);
      continue;
    }
    const result = read(l);
    if ("error" in result) throw new Error(`${format} line ${lines}: ${result.error}`);
    for (const hit of result.hits) if (classifyUserAgent(hit.userAgent)) crawlerHits += 1;
  }
  return { lines, crawlerHits };
}

export type TrafficResult = {
  lines: number;
  fileMB: number;
  generateSeconds: number;
  parseOnly: { seconds: number; linesPerSecond: number };
  endToEnd: { seconds: number; linesPerSecond: number; stored: number; errors: number };
  /** CPU seconds the import took (parse only excluded): Node (this process) and the PostgreSQL server, null when it is not local. */
  cpu: { nodeSeconds: number; postgresSeconds: number | null; microsPerLine: { node: number; postgres: number | null } };
  perFormat: { format: LogFormat; lines: number; stored: number; parseOnlyLinesPerSecond: number; importLinesPerSecond: number }[];
  rawRows: number;
  rollupRows: number;
  rollupEqualsRaw: boolean;
};

export async function measureTraffic(options: { lines: number; log: (line: string) => void }): Promise<TrafficResult> {
  const { lines, log } = options;
  await seedDemo();
  const workspace = await db().workspace.findUniqueOrThrow({ where: { slug: DEMO_WORKSPACE.slug } });
  const brand = await db().brand.findFirstOrThrow({ where: { workspaceId: workspace.id }, orderBy: { createdAt: "asc" } });
  await db().brand.update({ where: { id: brand.id }, data: { domains: OWN } });

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "beacon-bench-traffic-"));
  try {
    const t0 = performance.now();
    const files = FORMATS.map((format, i) => ({ format, file: path.join(dir, `access-${format}.log`), lines: Math.floor(lines / FORMATS.length) + (i < lines % FORMATS.length ? 1 : 0) }));
    for (const [i, f] of files.entries()) await writeLog(f.file, f.format, f.lines, 1000 + i);
    const generateSeconds = round((performance.now() - t0) / 1000, 1);
    const fileMB = round(files.reduce((sum, f) => sum + fs.statSync(f.file).size, 0) / 1e6, 0);
    log(`traffic: generated ${lines.toLocaleString("en-US")} lines (${fileMB} MB in 5 formats) in ${generateSeconds} s`);

    const [{ pid }] = (await db().$queryRaw<{ pid: number }[]>`SELECT pg_backend_pid() AS pid`) as [{ pid: number }];
    const server = parentPid(pid);
    let nodeCpu = 0;
    let serverCpu = 0;
    const perFormat: TrafficResult["perFormat"] = [];
    let parseSeconds = 0;
    let importSeconds = 0;
    let stored = 0;
    let errors = 0;
    for (const f of files) {
      const p0 = performance.now();
      await parseOnly(f.file, f.format);
      const parsed = (performance.now() - p0) / 1000;
      const node0 = process.cpuUsage();
      const server0 = server === null ? 0 : treeCpuSeconds(server);
      const i0 = performance.now();
      const report: ImportReport = await importTrafficLog(workspace.id, linesOf(createReadStream(f.file), { maxBytes: Number.MAX_SAFE_INTEGER }), { format: f.format, host: OWN[0] });
      const imported = (performance.now() - i0) / 1000;
      const node1 = process.cpuUsage(node0);
      nodeCpu += (node1.user + node1.system) / 1e6;
      if (server !== null) serverCpu += treeCpuSeconds(server) - server0;
      parseSeconds += parsed;
      importSeconds += imported;
      stored += report.stored;
      errors += report.errorCount;
      if (report.errorCount) log(`traffic: ${f.format}: ${report.errorCount} errors, first ${JSON.stringify(report.errors[0])}`);
      perFormat.push({ format: f.format, lines: f.lines, stored: report.stored, parseOnlyLinesPerSecond: Math.round(f.lines / parsed), importLinesPerSecond: Math.round(f.lines / imported) });
      log(`traffic: ${f.format}: ${f.lines.toLocaleString("en-US")} lines, parse only ${Math.round(f.lines / parsed).toLocaleString("en-US")}/s, import ${Math.round(f.lines / imported).toLocaleString("en-US")}/s (${report.stored.toLocaleString("en-US")} hits stored)`);
    }

    const [counts] = await db().$queryRaw<{ raw: number; rollup_rows: number; rollup_hits: number; mismatched: number }[]>`
      SELECT (SELECT count(*)::int FROM traffic_hits WHERE "workspaceId" = ${workspace.id}::uuid) AS raw,
             (SELECT count(*)::int FROM traffic_daily WHERE "workspaceId" = ${workspace.id}::uuid) AS rollup_rows,
             (SELECT coalesce(sum(hits), 0)::int FROM traffic_daily WHERE "workspaceId" = ${workspace.id}::uuid) AS rollup_hits,
             (SELECT count(*)::int FROM (
                SELECT day, domain, path, crawler, verification, count(*) AS hits, count(*) FILTER (WHERE status >= 400) AS errors
                FROM traffic_hits WHERE "workspaceId" = ${workspace.id}::uuid GROUP BY 1, 2, 3, 4, 5
                EXCEPT SELECT day, domain, path, crawler, verification, hits, errors FROM traffic_daily WHERE "workspaceId" = ${workspace.id}::uuid) d) AS mismatched`;
    return {
      lines,
      fileMB,
      generateSeconds,
      parseOnly: { seconds: round(parseSeconds, 1), linesPerSecond: Math.round(lines / parseSeconds) },
      endToEnd: { seconds: round(importSeconds, 1), linesPerSecond: Math.round(lines / importSeconds), stored, errors },
      cpu: {
        nodeSeconds: round(nodeCpu, 1),
        postgresSeconds: server === null ? null : round(serverCpu, 1),
        microsPerLine: { node: round((nodeCpu * 1e6) / lines, 1), postgres: server === null ? null : round((serverCpu * 1e6) / lines, 1) },
      },
      perFormat,
      rawRows: counts!.raw,
      rollupRows: counts!.rollup_rows,
      rollupEqualsRaw: counts!.mismatched === 0 && counts!.rollup_hits === counts!.raw && counts!.raw === stored,
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export function trafficMarkdown(r: TrafficResult, header: string): string {
  const n = (v: number) => v.toLocaleString("en-US");
  return [
    header,
    "",
    "| measurement | lines/s | goal |",
    "| --- | --- | --- |",
    `| import end to end (read, parse, classify, verify, raw hits + daily rollup written), ${n(r.lines)} lines, ${r.fileMB} MB | ${n(r.endToEnd.linesPerSecond)} (${r.endToEnd.seconds} s, ${n(r.endToEnd.stored)} hits stored) | ≥ ${n(TRAFFIC_GOAL_LINES_PER_SECOND)}: ${r.endToEnd.linesPerSecond >= TRAFFIC_GOAL_LINES_PER_SECOND ? "met" : "**not met**"} |`,
    `| parse only (read, parse, classify; no database) | ${n(r.parseOnly.linesPerSecond)} (${r.parseOnly.seconds} s) | |`,
    ...r.perFormat.map((f) => `| — ${f.format}: import / parse only | ${n(f.importLinesPerSecond)} / ${n(f.parseOnlyLinesPerSecond)} | |`),
    "",
    `- CPU of the import: Node ${r.cpu.nodeSeconds} s (${r.cpu.microsPerLine.node} µs per line), PostgreSQL ${r.cpu.postgresSeconds === null ? "not measured (not on this machine)" : `${r.cpu.postgresSeconds} s (${r.cpu.microsPerLine.postgres} µs per line)`}; ` +
      (r.cpu.microsPerLine.postgres === null
        ? "the wall time is longer when other processes share the CPUs."
        : `the writes overlap the parsing, so on two otherwise idle cores the larger of the two bounds the rate at about ${n(Math.round(1e6 / Math.max(r.cpu.microsPerLine.node, r.cpu.microsPerLine.postgres)))} lines/s (an estimate, not measured); the wall time is longer when other processes share the CPUs.`),
    `- Rollup: ${n(r.rollupRows)} daily rows for ${n(r.rawRows)} raw hits; equal to the raw rows' aggregation: ${r.rollupEqualsRaw ? "yes" : "**NO**"}. Import errors: ${r.endToEnd.errors}.`,
  ].join("\n");
}
