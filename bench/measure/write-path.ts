// npm run bench -- --write-path [--sizes=20000,1000000] [--seconds=N]: does a capture's write
// grow with the workspace's history? For each size, a database whose demo workspace holds that
// many succeeded captures (the retention bench's generator: 13 months, ~1.3 attempts each) gets
// the retention bench's WRITERS loops claiming and succeeding captures of real checks through
// claimCapture and succeedCapture for N seconds, the claims and the successes timed apart; the
// sizes run back to back in one process, on the same machine. When the server has
// pg_stat_statements loaded (shared_preload_libraries), its per-statement times are reset before
// each window and read after it, nested statements included when `pg_stat_statements.track =
// all` (the statements inside beacon_claim and beacon_succeed); with `track_functions = all`,
// the functions' own times beside them.
// Import only after setDatabaseUrl() (lib/db/prisma.ts reads it).
import { randomUUID } from "node:crypto";
import os from "node:os";
import { db } from "@/lib/db/prisma";
import { beat } from "@/lib/jobs/heartbeats";
import { connect } from "../lib/database";
import { setProviderCaps, type Fixtures } from "../lib/fixtures";
import { round, summarize, type Summary } from "../lib/stats";
import { generate, startWriters, WRITERS } from "./retention";

type Timed = { writes: number; ms: Summary; p99: number };
export type WritePathStatement = { query: string; calls: number; meanMs: number; /** With pg_stat_statements.track_planning (else 0). */ meanPlanMs: number; maxMs: number; totalMs: number; sharedBlksRead: number; sharedBlksHit: number };
export type WritePathSize = {
  captures: number;
  attempts: number;
  generateSeconds: number | null;
  seconds: number;
  loadAvg1m: { before: number; after: number };
  claim: Timed;
  succeed: Timed;
  /** Null: pg_stat_statements is not loaded on the server. The slowest by mean first. */
  statements: WritePathStatement[] | null;
  /** pg_stat_user_functions over the window (self and total ms per call), with track_functions. */
  functions: { name: string; calls: number; meanTotalMs: number; meanSelfMs: number }[];
};
export type WritePathResult = { writers: number; sizes: WritePathSize[] };

const p99 = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? round(sorted[Math.max(0, Math.ceil(0.99 * sorted.length) - 1)]!) : NaN;
};
const timed = (ms: number[]): Timed => ({ writes: ms.length, ms: summarize(ms), p99: p99(ms) });

/** One size on the database at `url` (already migrated, the demo seeded, Prisma pointed at it). */
export async function measureWritePath(url: string, fx: Fixtures, options: { captures: number; seconds: number; log: (line: string) => void }): Promise<WritePathSize> {
  const { captures, seconds, log } = options;
  const stats = await connect(url);
  try {
    // The generated history is what the generator's attempts carry: generated once, kept.
    const count = async () => Number((await stats.query<{ n: string }>(`SELECT count(*) AS n FROM attempts WHERE "workerId" = 'bench-history' AND outcome = 'succeeded'`)).rows[0]!.n);
    let generateSeconds: number | null = null;
    const have = await count();
    if (have === 0) {
      const brand = await db().brand.findFirstOrThrow({ where: { workspaceId: fx.workspaceId }, orderBy: { createdAt: "asc" } });
      const t0 = performance.now();
      await generate(url, fx, brand.id, captures, log);
      generateSeconds = round((performance.now() - t0) / 1000);
    } else if (have !== captures) {
      throw new Error(`write-path: the database holds ${have} generated captures, not ${captures}: give each size its own database`);
    }
    const attempts = Number((await stats.query<{ n: string }>(`SELECT count(*) AS n FROM attempts`)).rows[0]!.n);
    let statements = true;
    try {
      await stats.query("CREATE EXTENSION IF NOT EXISTS pg_stat_statements");
      await stats.query("SELECT pg_stat_statements_reset()");
    } catch {
      statements = false;
      log("write-path: pg_stat_statements is not loaded on this server: no per-statement times");
    }
    const functionStats = async () =>
      new Map(
        (await stats.query<{ name: string; calls: string; total: number; self: number }>(`SELECT funcname AS name, calls, total_time AS total, self_time AS self FROM pg_stat_user_functions`)).rows.map((r) => [r.name, r]),
      );

    await setProviderCaps(fx, 100);
    const workerId = `bench-write-path-${randomUUID().slice(0, 8)}`;
    await beat({ workerId, slotIds: [], hostname: "bench", pid: process.pid, concurrency: WRITERS }, "running", 3600);
    const writers = startWriters(fx, workerId);
    await writers.ready; // the first check to write is created before anything is timed
    if (statements) await stats.query("SELECT pg_stat_statements_reset()");
    const functionsBefore = await functionStats();
    const loadBefore = round(os.loadavg()[0]!, 2);
    const from = performance.now();
    log(`write-path: ${captures.toLocaleString("en-US")} captures, ${WRITERS} writers for ${seconds} s (load ${loadBefore})`);
    await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
    const to = performance.now();
    await writers.stop();
    const loadAfter = round(os.loadavg()[0]!, 2);
    const inWindow = writers.samples.filter((s) => s.at >= from && s.at + s.ms <= to);
    const rows = statements
      ? (
          await stats.query<{ query: string; calls: string; mean: number; plan: number; max: number; total: number; read: string; hit: string }>(
            `SELECT regexp_replace(query, '\\s+', ' ', 'g') AS query, calls, mean_exec_time AS mean, mean_plan_time AS plan, max_exec_time AS max, total_exec_time AS total,
                    shared_blks_read AS read, shared_blks_hit AS hit
             FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
             ORDER BY total_exec_time DESC LIMIT 40`,
          )
        ).rows
      : null;
    const functionsAfter = await functionStats();
    const functions = [...functionsAfter.values()]
      .map((f) => {
        const b = functionsBefore.get(f.name);
        const calls = Number(f.calls) - Number(b?.calls ?? 0);
        return { name: f.name, calls, meanTotalMs: calls ? round((f.total - (b?.total ?? 0)) / calls, 3) : 0, meanSelfMs: calls ? round((f.self - (b?.self ?? 0)) / calls, 3) : 0 };
      })
      .filter((f) => f.calls > 0)
      .sort((a, b) => b.meanTotalMs * b.calls - a.meanTotalMs * a.calls);
    return {
      captures,
      attempts,
      generateSeconds,
      seconds,
      loadAvg1m: { before: loadBefore, after: loadAfter },
      claim: timed(inWindow.filter((s) => s.kind === "claim").map((s) => s.ms)),
      succeed: timed(inWindow.filter((s) => s.kind === "succeed").map((s) => s.ms)),
      statements:
        rows?.map((r) => ({
          query: r.query.slice(0, 400),
          calls: Number(r.calls),
          meanMs: round(r.mean, 3),
          meanPlanMs: round(r.plan, 3),
          maxMs: round(r.max, 3),
          totalMs: round(r.total),
          sharedBlksRead: Number(r.read),
          sharedBlksHit: Number(r.hit),
        })) ?? null,
      functions,
    };
  } finally {
    await stats.end().catch(() => {});
  }
}

export function writePathMarkdown(r: WritePathResult, header: string): string {
  const n = (v: number) => v.toLocaleString("en-US");
  const row = (s: WritePathSize, what: string, t: Timed) => `| ${n(s.captures)} | ${what} | ${n(t.writes)} | ${t.ms.median} ms | ${t.ms.p95} ms | ${t.p99} ms | ${t.ms.max} ms | ${s.loadAvg1m.before}–${s.loadAvg1m.after} |`;
  const lines = [
    header,
    "",
    `${r.writers} writers claiming and succeeding captures, each write timed on its own:`,
    "",
    "| captures in the workspace | write | writes | median | p95 | p99 | max | load (1 min) |",
    "| --- | --- | --- | --- | --- | --- | --- | --- |",
    ...r.sizes.flatMap((s) => [row(s, "claim", s.claim), row(s, "succeed", s.succeed)]),
  ];
  for (const s of r.sizes) {
    if (!s.statements) continue;
    lines.push("", `Slowest statements by mean at ${n(s.captures)} captures (pg_stat_statements, nested included):`, "");
    for (const st of [...s.statements].sort((a, b) => b.meanMs - a.meanMs).slice(0, 12)) lines.push(`- ${st.meanMs} ms mean${st.meanPlanMs ? ` (+ ${st.meanPlanMs} ms planning)` : ""} (max ${st.maxMs}, ${n(st.calls)} calls, ${n(st.sharedBlksHit + st.sharedBlksRead)} blocks): ${st.query.slice(0, 160)}`);
  }
  return lines.join("\n");
}
