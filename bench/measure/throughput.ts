// 2. Throughput with a zero-latency simulator: captures per second from the moment a check's
// jobs are committed (createCheck returned) until the check is finished (check.finishedAt),
// with provider caps raised so that they are not the bottleneck. Bounded in time: if the check
// is not done by then, the rate is what finished within the limit. The database sessions are
// sampled meanwhile (what they wait for).
// Baseline: the same number of bare graphile-worker no-op jobs, added in one add_jobs call,
// run by the same number of processes with the same concurrency; done = the job table is empty.
import { db } from "@/lib/db/prisma";
import { connect } from "../lib/database";
import { checkRow, startCheck, waitForCheck, type Fixtures } from "../lib/fixtures";
import { startNoopWorkers, stopAll } from "../lib/processes";
import { round, waitFor } from "../lib/stats";
import { sampleWaitEvents, type WaitEvents } from "../lib/wait-events";

const TIME_LIMIT_MS = 75_000;
// The next transaction id: only transactions that write get one, so the difference between two
// readings counts write transactions, by every session, exactly (reads are not counted).
const NEXT_XID_SQL = "SELECT pg_snapshot_xmax(pg_current_snapshot())::text AS n";

export type BeaconThroughput = {
  checkId: string;
  captures: number;
  finished: number;
  seconds: number;
  perSecond: number;
  createCheckMs: number;
  attempts: number;
  timedOut: boolean;
  /** What busy database sessions were doing (sampled), by wait type and by wait + statement. */
  waits: Omit<WaitEvents, "samples">;
  /** Write transactions per finished capture: workers, graphile-worker, heartbeats (not reads). */
  writeTransactionsPerCapture: number;
};
export type BareThroughput = {
  jobs: number;
  processes: number;
  concurrency: number;
  seconds: number;
  perSecond: number;
  timedOut: boolean;
  writeTransactionsPerJob: number;
};

async function runCheck(fx: Fixtures, prompts: number) {
  const before = performance.now();
  const { checkId } = await startCheck(fx, fx.promptIds.slice(0, prompts));
  const committedAt = Date.now();
  const createCheckMs = round(performance.now() - before, 0);
  const done = await waitForCheck(checkId, TIME_LIMIT_MS, 50);
  return { checkId, committedAt, createCheckMs, done };
}

async function nextXid(): Promise<number> {
  const [row] = await db().$queryRawUnsafe<{ n: string }[]>(NEXT_XID_SQL);
  return Number(row?.n ?? 0);
}

export async function measureBeaconThroughput(databaseUrl: string, fx: Fixtures, prompts: number): Promise<BeaconThroughput> {
  const xidBefore = await nextXid();
  const sampler = sampleWaitEvents(databaseUrl);
  let waits: Omit<WaitEvents, "samples"> = { byType: [], top: [] };
  let run: Awaited<ReturnType<typeof runCheck>>;
  try {
    run = await runCheck(fx, prompts);
  } finally {
    const { byType, top } = await sampler.stop();
    waits = { byType, top };
  }
  const check = run.done ?? (await checkRow(run.checkId));
  const finished = check.succeeded + check.failed + check.cancelled;
  const seconds = ((check.finishedAt?.getTime() ?? Date.now()) - run.committedAt) / 1000;
  const attempts = await db().attempt.count({ where: { capture: { checkId: run.checkId } } });
  const writes = (await nextXid()) - xidBefore - 1; // minus createCheck's own transaction
  return {
    checkId: run.checkId,
    captures: check.totalCaptures,
    finished,
    seconds: round(seconds, 1),
    perSecond: round(finished / seconds, 0),
    createCheckMs: run.createCheckMs,
    attempts,
    timedOut: !run.done,
    waits,
    writeTransactionsPerCapture: round(writes / Math.max(1, finished), 1),
  };
}

export async function measureBareThroughput(databaseUrl: string, jobs: number, processes: number, concurrency: number): Promise<BareThroughput> {
  const workers = await startNoopWorkers(databaseUrl, processes, concurrency);
  const client = await connect(databaseUrl);
  try {
    const waiting = async () =>
      Number(
        (
          await client.query<{ n: string }>(
            `SELECT count(*) AS n FROM graphile_worker._private_jobs j JOIN graphile_worker._private_tasks t ON t.id = j.task_id WHERE t.identifier = 'bench_noop'`,
          )
        ).rows[0]!.n,
      );
    const nextXid = async () => Number((await client.query<{ n: string }>(NEXT_XID_SQL)).rows[0]!.n);
    const xidBefore = await nextXid();
    await client.query(
      `SELECT count(*) FROM graphile_worker.add_jobs(ARRAY(
         SELECT ROW('bench_noop', json_build_object('i', i), NULL, NULL, 1, NULL, NULL, NULL)::graphile_worker.job_spec FROM generate_series(1, $1::int) i))`,
      [jobs],
    );
    const added = performance.now();
    const done = await waitFor(async () => (await waiting()) === 0, TIME_LIMIT_MS, 10);
    const seconds = (performance.now() - added) / 1000;
    const completed = jobs - (done ? 0 : await waiting());
    const writes = (await nextXid()) - xidBefore - 1; // minus add_jobs
    return {
      jobs,
      processes,
      concurrency,
      seconds: round(seconds, 2),
      perSecond: round(completed / seconds, 0),
      timedOut: !done,
      writeTransactionsPerJob: round(writes / Math.max(1, completed), 1),
    };
  } finally {
    await client.end();
    await stopAll(workers);
  }
}
