// npm run bench -- --retention [--captures=N]: the hourly retention pass (lib/jobs/retention.ts)
// deleting a month of attempts while captures keep being written (issue 20 item 6). The demo
// workspace (without its simulated history) gets N succeeded captures spread evenly over the last
// 13 months, inserted oldest first (as a live database does), each with its attempt and three in ten with a failed one before it (~1.3 per
// capture), generated in SQL with triggers off (session_replication_role = replica: the metric
// counters are not what is measured). The pass then runs with a retention of 365 days, so the
// oldest month goes (and, for comparison, the next month in one statement, as before batching), while WRITERS loops in this process claim and succeed captures of real checks
// through the lifecycle's own functions (claimCapture, succeedCapture: beacon_claim opens an
// attempt, beacon_succeed closes it), timed one by one: for BASELINE_MS before the pass, and
// during it. A separate session samples pg_stat_activity every 50 ms for sessions waiting on a
// lock. The WAL the pass wrote (the writers' included) and the attempts' dead tuples after it are
// reported beside.
// Import only after setDatabaseUrl() (lib/db/prisma.ts reads it).
import { randomUUID } from "node:crypto";
import { worstCaseCost } from "@/lib/billing/money";
import { db } from "@/lib/db/prisma";
import { beat } from "@/lib/jobs/heartbeats";
import { runRetention } from "@/lib/jobs/retention";
import { claimCapture, connectionVersion } from "@/lib/lifecycle/claim";
import { succeedCapture } from "@/lib/lifecycle/results";
import { connect } from "../lib/database";
import { setProviderCaps, startCheck, type Fixtures } from "../lib/fixtures";
import { round, summarize, type Summary } from "../lib/stats";

const HISTORY_DAYS = 395; // 13 months
const RETENTION_DAYS = 365; // so the pass deletes the oldest month
const BATCH = 100_000;
export const WRITERS = 4;
const BASELINE_MS = 10_000;
/** The brief's bound: no concurrent write may wait longer than this for the pass. */
export const RETENTION_WRITE_WAIT_GOAL_MS = 1_000;

type Writes = { writes: number; ms: Summary; p99: number };
export type RetentionDeletion = {
  what: string;
  seconds: number;
  attemptsDeleted: number;
  /** Null: one statement. */
  batches: number | null;
  longestBatchMs: number | null;
  done: boolean | null;
  /** Claims and successes that overlapped the deletion, each timed on its own, in ms. */
  writesDuring: Writes;
  /** The longest any session was seen waiting for a lock during it (50 ms samples), in ms. */
  longestLockWaitMs: number;
  /** WAL written meanwhile, the writers' included. */
  walMB: number;
  deadTuplesAfter: number;
};
export type RetentionResult = {
  captures: number;
  attempts: number;
  historyDays: number;
  retentionDays: number;
  generateSeconds: number;
  attemptsTableMB: number;
  writers: number;
  before: Writes & { longestLockWaitMs: number };
  /** The pass (batched), then the next month in one statement (the pass before batching) for comparison. */
  deletions: RetentionDeletion[];
};

const p99 = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? round(sorted[Math.max(0, Math.ceil(0.99 * sorted.length) - 1)]!) : NaN;
};

/** Captures g = 0..count-1 with their attempts, evenly over HISTORY_DAYS, oldest first, one statement per batch (also the write-path bench's history). */
export async function generate(url: string, fx: Fixtures, brandId: string, count: number, log: (line: string) => void): Promise<void> {
  const client = await connect(url);
  try {
    await client.query("SET session_replication_role = replica");
    const checks = 10;
    const { rows } = await client.query<{ id: string }>(
      `INSERT INTO checks (id, "workspaceId", "brandId", status, samples, "totalCaptures", "createdAt", "updatedAt", "finishedAt")
       SELECT gen_random_uuid(), $1, $2, 'completed', 1, 0, now() - interval '${HISTORY_DAYS} days', now(), now() FROM generate_series(1, ${checks}) RETURNING id`,
      [fx.workspaceId, brandId],
    );
    const checkIds = rows.map((r) => r.id);
    const prompts = fx.promptIds.slice(0, 12);
    const combos = prompts.length * fx.providerIds.length;
    for (let from = 0; from < count; from += BATCH) {
      const to = Math.min(count, from + BATCH) - 1;
      await client.query(
        `WITH g AS (SELECT g, abs(hashint8(g::bigint)::bigint) AS h FROM generate_series($1::int, $2::int) g),
         ins AS (
           INSERT INTO captures (id, "workspaceId", "checkId", "brandId", "promptId", "providerConfigId", "connectionId", sample, status,
             "attemptCount", "maxAttempts", model, "searchMode", "answerText", "costMicros", "latencyMs", "startedAt", "finishedAt", "analyzedAt", "createdAt", "updatedAt")
           SELECT gen_random_uuid(), $3::uuid, ($4::uuid[])[1 + (g / $7) % ${checks}], $5::uuid, ($6::uuid[])[1 + (g % $7) / $9], ($8::uuid[])[1 + g % $9],
             (SELECT pc."connectionId" FROM provider_configs pc WHERE pc.id = ($8::uuid[])[1 + g % $9]), (g / ($7 * ${checks}))::int, 'succeeded',
             CASE WHEN h % 10 < 3 THEN 2 ELSE 1 END, 3, 'simulator', 'auto', 'Benchmark answer', 1000, 800, t - interval '1 second', t, t, t - interval '2 seconds', t
           -- Oldest first, as a live database inserts them: a month's rows lie together in the table.
           FROM (SELECT g, h, date_trunc('second', now() AT TIME ZONE 'UTC') - make_interval(secs => ((${HISTORY_DAYS} * 86400)::float8 * ($10::int - g) / $10::int)) AS t FROM g) x
           RETURNING id, "workspaceId", "attemptCount", "startedAt"
         )
         INSERT INTO attempts (id, "workspaceId", "captureId", number, "runToken", "workerId", "startedAt", "endedAt", outcome, reason, "errorClass",
           "httpStatus", "costMicros", "latencyMs", "budgetPeriod")
         SELECT gen_random_uuid(), ins."workspaceId", ins.id, n, gen_random_uuid(), 'bench-history', ins."startedAt" - make_interval(secs => (ins."attemptCount" - n) * 30),
           ins."startedAt" - make_interval(secs => (ins."attemptCount" - n) * 30 - 1),
           CASE WHEN n = ins."attemptCount" THEN 'succeeded' ELSE 'failed' END::"AttemptOutcome",
           CASE WHEN n = ins."attemptCount" THEN NULL ELSE 'server_error' END, CASE WHEN n = ins."attemptCount" THEN NULL ELSE 'transient' END::"ErrorClass",
           CASE WHEN n = ins."attemptCount" THEN 200 ELSE 503 END, 1000, 800, date_trunc('month', ins."startedAt")::date
         FROM ins CROSS JOIN LATERAL generate_series(1, ins."attemptCount") n`,
        [from, to, fx.workspaceId, checkIds, brandId, prompts, combos, fx.providerIds, fx.providerIds.length, count],
      );
      log(`retention: captures ${(to + 1).toLocaleString("en-US")} of ${count.toLocaleString("en-US")}`);
    }
    log("retention: VACUUM ANALYZE captures, attempts");
    await client.query("VACUUM ANALYZE captures, attempts");
  } finally {
    await client.end().catch(() => {});
  }
}

/**
 * Claims and succeeds captures of real checks, one capture at a time per loop, until stopped;
 * each write's kind, start time and duration are recorded. A check is started whenever the captures
 * run out (not timed).
 */
export function startWriters(fx: Fixtures, workerId: string) {
  const samples: { kind: "claim" | "succeed"; at: number; ms: number }[] = [];
  const queue: string[] = [];
  let refilling: Promise<void> | null = null;
  let stopped = false;
  const refill = () =>
    (refilling ??= (async () => {
      const { checkId } = await startCheck(fx, fx.promptIds);
      const captures = await db().capture.findMany({ where: { checkId }, select: { id: true } });
      queue.push(...captures.map((c) => c.id));
    })().finally(() => (refilling = null)));
  const timed = async <T>(kind: "claim" | "succeed", write: () => Promise<T>): Promise<T> => {
    const at = performance.now();
    const result = await write();
    samples.push({ kind, at, ms: performance.now() - at });
    return result;
  };
  const loop = async () => {
    while (!stopped) {
      const captureId = queue.shift();
      if (!captureId) {
        await refill();
        continue;
      }
      const capture = await db().capture.findUniqueOrThrow({ where: { id: captureId }, include: { connection: true, prompt: true, brand: { select: { analysisVersion: true } } } });
      const config = capture.connection;
      const runToken = randomUUID();
      const claimed = await timed("claim", () =>
        claimCapture({
          captureId,
          connection: { ...config, connectionId: config.id, model: capture.model, version: connectionVersion(config) },
          workerId,
          runToken,
          probeToken: null,
          worstCaseMicros: worstCaseCost(capture.prompt.text, capture.searchMode, { maxOutputTokens: config.maxOutputTokens, maxSearchCalls: config.maxSearchCalls }, config),
        }),
      );
      if (claimed.kind !== "claimed") throw new Error(`retention: a writer's claim was ${claimed.kind}`);
      const usage = { inputTokens: 100, outputTokens: 50, reasoningTokens: 0, cachedTokens: 0, searchCalls: 0 };
      const text = "Lumen CRM is a fine choice.";
      // Analysed with the brand's current inputs (no names found), as a worker's answer is: an
      // answer stored unanalysed would queue a re-analysis, and every writer would then wait on
      // the one analysis run's row that each such answer counts itself in.
      const result = { text, usage, costMicros: 1_000, latencyMs: 10, citations: [], mentions: [], candidates: [], searchQueries: [], analysisTruncated: false, analysisVersion: capture.brand.analysisVersion };
      const written = await timed("succeed", () => succeedCapture(captureId, runToken, result));
      if (written.kind !== "written") throw new Error("retention: a writer's success was lost");
    }
  };
  const ready = refill();
  const loops = Array.from({ length: WRITERS }, async () => {
    await ready;
    await loop();
  });
  return {
    ready,
    samples,
    stop: async () => {
      stopped = true;
      await Promise.all(loops);
    },
  };
}

export async function measureRetention(url: string, fx: Fixtures, options: { captures: number; log: (line: string) => void }): Promise<RetentionResult> {
  const { captures, log } = options;
  const brand = await db().brand.findFirstOrThrow({ where: { workspaceId: fx.workspaceId }, orderBy: { createdAt: "asc" } });
  const t0 = performance.now();
  await generate(url, fx, brand.id, captures, log);
  const generateSeconds = round((performance.now() - t0) / 1000);
  const stats = await connect(url);
  try {
    const { rows: sizes } = await stats.query<{ attempts: string; mb: string }>(`SELECT (SELECT count(*) FROM attempts) AS attempts, round(pg_total_relation_size('attempts') / 1048576.0) AS mb`);
    const cutoff = `now() AT TIME ZONE 'UTC' - interval '${RETENTION_DAYS} days'`;
    const { rows: doomed } = await stats.query<{ n: string }>(`SELECT count(*) AS n FROM attempts WHERE "startedAt" < ${cutoff} AND outcome IS NOT NULL`);
    log(`retention: ${Number(sizes[0]!.attempts).toLocaleString("en-US")} attempts (${sizes[0]!.mb} MB), ${Number(doomed[0]!.n).toLocaleString("en-US")} of them past ${RETENTION_DAYS} days`);

    await setProviderCaps(fx, 100);
    const workerId = `bench-retention-${randomUUID().slice(0, 8)}`;
    await beat({ workerId, slotIds: [], hostname: "bench", pid: process.pid, concurrency: WRITERS }, "running", 3600);
    const writers = startWriters(fx, workerId);
    await writers.ready; // the first check to write is created before anything is timed
    // The writers also wait for each other's locks (slots, ledgers): the longest wait is taken before the passes too.
    let phase = "before";
    const lockWaitMs: Record<string, number> = { before: 0 };
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        const { rows } = await stats.query<{ ms: number | null }>(
          `SELECT max(extract(epoch FROM clock_timestamp() - query_start) * 1000)::float8 AS ms FROM pg_stat_activity
           WHERE datname = current_database() AND wait_event_type = 'Lock'`,
        );
        lockWaitMs[phase] = Math.max(lockWaitMs[phase] ?? 0, rows[0]!.ms ?? 0);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    })();
    const writes = (from: number, to: number) => {
      const ms = writers.samples.filter((s) => s.at + s.ms > from && s.at < to).map((s) => s.ms);
      return { writes: ms.length, ms: summarize(ms), p99: p99(ms) };
    };
    /** One deletion, timed with the writes that overlapped it, its WAL and the dead tuples it left. */
    const measure = async (label: string, deletion: () => Promise<{ deleted: number; batches: number | null; longestBatchMs: number | null; done: boolean | null }>) => {
      const { rows: walStart } = await stats.query<{ lsn: string; dead: string }>(
        `SELECT pg_current_wal_lsn()::text AS lsn, (SELECT n_dead_tup FROM pg_stat_user_tables WHERE relname = 'attempts') AS dead`,
      );
      phase = label;
      log(`retention: ${label} starts`);
      const from = performance.now();
      const outcome = await deletion();
      const to = performance.now();
      phase = "between";
      const { rows: wal } = await stats.query<{ mb: number }>(`SELECT (pg_current_wal_lsn() - $1::pg_lsn) / 1048576.0 AS mb`, [walStart[0]!.lsn]);
      log(`retention: ${label} took ${round((to - from) / 1000)} s for ${outcome.deleted.toLocaleString("en-US")} attempts`);
      // The counts reach pg_stat_user_tables when the deleting session reports them (within a second or so).
      let dead = 0;
      for (let i = 0; i < 50 && dead < outcome.deleted; i++) {
        const { rows } = await stats.query<{ n: string }>(`SELECT n_dead_tup AS n FROM pg_stat_user_tables WHERE relname = 'attempts'`);
        dead = Number(rows[0]!.n) - Number(walStart[0]!.dead);
        if (dead < outcome.deleted) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      return {
        what: label,
        seconds: round((to - from) / 1000, 2),
        attemptsDeleted: outcome.deleted,
        batches: outcome.batches,
        longestBatchMs: outcome.longestBatchMs === null ? null : round(outcome.longestBatchMs),
        done: outcome.done,
        writesDuring: writes(from, to),
        longestLockWaitMs: 0,
        walMB: round(Number(wal[0]!.mb), 1),
        deadTuplesAfter: dead,
      };
    };
    const baselineFrom = performance.now();
    await new Promise((resolve) => setTimeout(resolve, BASELINE_MS));
    const before = writes(baselineFrom, performance.now());
    const batched = await measure("the pass (batched)", async () => {
      const r = await runRetention({ attemptRetentionDays: RETENTION_DAYS });
      return { deleted: r.attemptsDeleted, batches: r.attemptBatches, longestBatchMs: r.longestAttemptBatchMs, done: !r.attemptsLeft };
    });
    // For comparison, on the same data and load: the next month in one statement, as the pass did before batching.
    const single = await measure("the next month in one statement (the pass before batching)", async () => {
      const { rowCount } = await stats.query(`DELETE FROM attempts WHERE "startedAt" < now() AT TIME ZONE 'UTC' - interval '${RETENTION_DAYS - 30} days' AND outcome IS NOT NULL`);
      return { deleted: rowCount ?? 0, batches: null, longestBatchMs: null, done: null };
    });
    sampling = false;
    await sampler;
    await writers.stop();
    return {
      captures,
      attempts: Number(sizes[0]!.attempts),
      historyDays: HISTORY_DAYS,
      retentionDays: RETENTION_DAYS,
      generateSeconds,
      attemptsTableMB: Number(sizes[0]!.mb),
      writers: WRITERS,
      before: { ...before, longestLockWaitMs: round(lockWaitMs.before ?? 0) },
      deletions: [batched, single].map((d) => ({ ...d, longestLockWaitMs: round(lockWaitMs[d.what] ?? 0) })),
    };
  } finally {
    await stats.end().catch(() => {});
  }
}

export function retentionMarkdown(r: RetentionResult, header: string): string {
  const n = (v: number) => v.toLocaleString("en-US");
  const row = (what: string, w: Writes, lockMs: number) => `| ${what} | ${n(w.writes)} | ${w.ms.median} ms | ${w.ms.p95} ms | ${w.p99} ms | ${w.ms.max} ms | ${lockMs} ms |`;
  const how = (d: RetentionDeletion) =>
    d.batches === null ? "in one statement" : `in ${n(d.batches)} batches (longest ${d.longestBatchMs} ms)${d.done ? "" : ", its time budget used up before the end"}`;
  return [
    header,
    "",
    `${n(r.captures)} captures with ${n(r.attempts)} attempts (${n(r.attemptsTableMB)} MB) over ${r.historyDays} days, generated in ${r.generateSeconds} s. ` +
      r.deletions.map((d) => `${d.what[0]!.toUpperCase()}${d.what.slice(1)} deleted ${n(d.attemptsDeleted)} attempts in ${d.seconds} s ${how(d)}, ${n(d.walMB)} MB of WAL (the writers' included), ${n(d.deadTuplesAfter)} dead tuples left for autovacuum`).join("; ") +
      `. Goal: no write waits more than ${n(RETENTION_WRITE_WAIT_GOAL_MS)} ms for it.`,
    "",
    `${r.writers} writers claiming and succeeding captures (each write timed on its own; the longest lock wait of any session, sampled every 50 ms):`,
    "",
    "| when | writes | median | p95 | p99 | max | longest lock wait |",
    "| --- | --- | --- | --- | --- | --- | --- |",
    row(`${BASELINE_MS / 1000} s before`, r.before, r.before.longestLockWaitMs),
    ...r.deletions.map((d) => row(`during ${d.what}`, d.writesDuring, d.longestLockWaitMs)),
  ].join("\n");
}
