// 1. Enqueue -> capture start with idle workers: single-capture checks created one after
// another (each waits for the previous one to finish, then a short idle gap), measured from the
// database: attempt.startedAt - check.createdAt. createCheck's own duration is part of it (the
// job becomes visible at commit), so commit -> start is reported too.
// Baseline: a bare graphile-worker runner in this process, add_job -> task start.
import { EventEmitter } from "node:events";
import { Logger, run } from "graphile-worker";
import { db } from "@/lib/db/prisma";
import { connect } from "../lib/database";
import { checkRow, startCheck, waitForCheck, type Fixtures } from "../lib/fixtures";
import { sleep, summarize, waitFor, type Summary } from "../lib/stats";

const COUNT = 50;
const IDLE_GAP_MS = 100;
const TIME_LIMIT_MS = 60_000;

export type BeaconStartLatency = { count: number; createdToStartMs: Summary; committedToStartMs: Summary; createCheckMs: Summary; timedOut: boolean };
export type BareStartLatency = { count: number; addJobToStartMs: Summary; concurrency: number; timedOut: boolean };

export async function measureBeaconStartLatency(fx: Fixtures): Promise<BeaconStartLatency> {
  const createdToStart: number[] = [];
  const committedToStart: number[] = [];
  const createMs: number[] = [];
  const deadline = Date.now() + TIME_LIMIT_MS;
  let timedOut = false;
  for (let i = 0; i < COUNT; i++) {
    if (Date.now() > deadline) {
      timedOut = true;
      break;
    }
    const before = Date.now();
    const { checkId } = await startCheck(fx, [fx.promptIds[i % fx.promptIds.length]!], [fx.providerIds[i % fx.providerIds.length]!]);
    const committed = Date.now();
    if (!(await waitForCheck(checkId, 10_000, 10))) {
      timedOut = true;
      break;
    }
    const check = await checkRow(checkId);
    const attempt = await db().attempt.findFirstOrThrow({ where: { capture: { checkId } }, orderBy: { number: "asc" } });
    createdToStart.push(attempt.startedAt.getTime() - check.createdAt.getTime());
    committedToStart.push(attempt.startedAt.getTime() - committed);
    createMs.push(committed - before);
    await sleep(IDLE_GAP_MS);
  }
  return {
    count: createdToStart.length,
    createdToStartMs: summarize(createdToStart),
    committedToStartMs: summarize(committedToStart),
    createCheckMs: summarize(createMs),
    timedOut,
  };
}

export async function measureBareStartLatency(databaseUrl: string, concurrency: number): Promise<BareStartLatency> {
  const startedAt = new Map<number, number>();
  const runner = await run({
    connectionString: databaseUrl,
    concurrency,
    taskList: { bench_noop: async (payload) => void startedAt.set((payload as { i: number }).i, performance.now()) },
    logger: new Logger(() => () => {}),
    noHandleSignals: true,
    events: new EventEmitter(),
    preset: { worker: { completeJobBatchDelay: 0, failJobBatchDelay: 0 } },
  });
  const client = await connect(databaseUrl);
  const deltas: number[] = [];
  let timedOut = false;
  try {
    await sleep(500); // let the runner settle (LISTEN, first poll)
    const deadline = Date.now() + TIME_LIMIT_MS;
    for (let i = 0; i < COUNT; i++) {
      const added = performance.now();
      await client.query("SELECT graphile_worker.add_job('bench_noop', json_build_object('i', $1::int))", [i]);
      const started = await waitFor(async () => startedAt.get(i), Math.max(0, deadline - Date.now()), 1);
      if (started === null) {
        timedOut = true;
        break;
      }
      deltas.push(started - added);
      await sleep(IDLE_GAP_MS);
    }
  } finally {
    await client.end();
    await runner.stop();
  }
  return { count: deltas.length, addJobToStartMs: summarize(deltas), concurrency, timedOut };
}
