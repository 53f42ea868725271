// 3. Wall time of a 32-capture check (8 prompts x 4 providers) with a fixed simulator latency
// and the default caps, from check.createdAt to check.finishedAt (database timestamps), next to
// the ideal: ceil(captures per provider / cap) x latency, which is
// captures / (cap x providers) x latency when the captures divide evenly. The first check after
// the workers start is slower (cold code paths, connections): it runs first, reported apart.
import { db } from "@/lib/db/prisma";
import { cancelLeftover, jobSequence, startCheck, waitForCheck, type Fixtures } from "../lib/fixtures";
import { round, summarize, type Summary } from "../lib/stats";

const RUNS = 3;
const TIME_LIMIT_MS = 30_000;

export type WallTimeResult = {
  captures: number;
  providers: number;
  capPerProvider: number;
  latencyMs: number;
  idealMs: number;
  idealFormula: string;
  /** The first check after the workers started (not in runsMs); null if it timed out. */
  coldRunMs: number | null;
  runsMs: number[];
  /** Per run: when each capture's first attempt started, ms after check.createdAt, sorted. */
  startOffsetsMs: number[][];
  /** Per run: jobs enqueued beyond one per capture (re-enqueued because the provider was busy). */
  requeuedJobs: number[];
  /** Attempt duration (endedAt - startedAt): the simulated call plus recording the result. */
  attemptMs: Summary;
  ms: Summary;
  overIdealMedianMs: number;
  timedOut: boolean;
};

export async function measureWallTime(fx: Fixtures, opts: { prompts: number; cap: number; latencyMs: number }): Promise<WallTimeResult> {
  const providers = fx.providerIds.length;
  const captures = opts.prompts * providers;
  const idealMs = Math.ceil(opts.prompts / opts.cap) * opts.latencyMs;
  const runs: number[] = [];
  const startOffsets: number[][] = [];
  const attemptMs: number[] = [];
  const requeued: number[] = [];
  let timedOut = false;
  let coldRunMs: number | null = null;
  for (let i = 0; i <= RUNS; i++) {
    const jobsBefore = await jobSequence();
    const { checkId } = await startCheck(fx, fx.promptIds.slice(i * opts.prompts, (i + 1) * opts.prompts));
    const check = await waitForCheck(checkId, TIME_LIMIT_MS);
    const jobsAdded = (await jobSequence()) - jobsBefore;
    if (!check?.finishedAt) {
      await cancelLeftover(fx, checkId);
      timedOut = true;
      break;
    }
    const wallMs = check.finishedAt.getTime() - check.createdAt.getTime();
    if (i === 0) {
      coldRunMs = wallMs;
      continue;
    }
    runs.push(wallMs);
    requeued.push(jobsAdded - captures);
    const attempts = await db().attempt.findMany({ where: { capture: { checkId }, number: 1 }, select: { startedAt: true, endedAt: true } });
    attempts.forEach((a) => a.endedAt && attemptMs.push(a.endedAt.getTime() - a.startedAt.getTime()));
    startOffsets.push(attempts.map((a) => a.startedAt.getTime() - check.createdAt.getTime()).sort((a, b) => a - b));
  }
  const ms = summarize(runs);
  return {
    captures,
    providers,
    capPerProvider: opts.cap,
    latencyMs: opts.latencyMs,
    idealMs,
    idealFormula: `ceil(${opts.prompts} captures per provider / cap ${opts.cap}) x ${opts.latencyMs} ms = ${captures} / (${opts.cap} x ${providers}) x ${opts.latencyMs} ms`,
    coldRunMs,
    runsMs: runs,
    startOffsetsMs: startOffsets,
    requeuedJobs: requeued,
    attemptMs: summarize(attemptMs),
    ms,
    overIdealMedianMs: round(ms.median - idealMs, 0),
    timedOut,
  };
}
