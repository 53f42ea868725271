// 5. The check page's progress poll, getCheckProgress(workspaceId, checkId), while a 40-capture
// check runs: 50 pollers, each polling at the page's refetchInterval (1 s, from the end of one
// call to the start of the next, like TanStack Query), for ~10 s, through this process's one
// Prisma client (pool of 10 connections), as one web replica would serve them.
import { getCheckProgress } from "@/lib/checks/queries";
import { checkRow, startCheck, waitForCheck, type Fixtures } from "../lib/fixtures";
import { round, sleep, summarize, waitFor, type Summary } from "../lib/stats";

const POLLERS = 50;
const DURATION_MS = 10_000;
const INTERVAL_MS = 1_000;

export type ProgressPollResult = {
  pollers: number;
  durationMs: number;
  intervalMs: number;
  captures: number;
  polls: number;
  pollsPerSecond: number;
  ms: Summary;
  /** The same call from a single poller, one after another, just before the 50 start. */
  singlePollerMs: Summary;
  payloadBytes: { min: number; max: number };
  /** Share of polls that saw the check unfinished (the measurement ran against a live check). */
  pollsWhileRunningPct: number;
  errors: number;
};

export async function measureProgressPoll(fx: Fixtures, prompts: number): Promise<ProgressPollResult> {
  const { checkId } = await startCheck(fx, fx.promptIds.slice(0, prompts));
  await waitFor(async () => (await checkRow(checkId)).running > 0, 5_000);

  const single: number[] = [];
  for (let i = 0; i < 20; i++) {
    const t0 = performance.now();
    await getCheckProgress(fx.workspaceId, checkId);
    single.push(performance.now() - t0);
  }

  const times: number[] = [];
  const sizes: number[] = [];
  let unfinished = 0;
  let errors = 0;
  const started = performance.now();
  const end = started + DURATION_MS;
  const poller = async () => {
    await sleep(Math.random() * INTERVAL_MS); // tabs were not opened at the same instant
    while (performance.now() < end) {
      const t0 = performance.now();
      try {
        const progress = await getCheckProgress(fx.workspaceId, checkId);
        times.push(performance.now() - t0);
        sizes.push(Buffer.byteLength(JSON.stringify(progress)));
        if (!progress.check.finishedAt) unfinished++;
      } catch {
        errors++;
      }
      await sleep(INTERVAL_MS);
    }
  };
  await Promise.all(Array.from({ length: POLLERS }, poller));
  const elapsed = performance.now() - started;
  await waitForCheck(checkId, 30_000);
  return {
    pollers: POLLERS,
    durationMs: round(elapsed, 0),
    intervalMs: INTERVAL_MS,
    captures: prompts * fx.providerIds.length,
    polls: times.length,
    pollsPerSecond: round(times.length / (elapsed / 1000), 1),
    ms: summarize(times),
    singlePollerMs: summarize(single),
    payloadBytes: { min: Math.min(...sizes), max: Math.max(...sizes) },
    pollsWhileRunningPct: round((100 * unfinished) / Math.max(1, times.length), 0),
    errors,
  };
}

export type LargeProgressResult = { captures: number; polls: number; ms: Summary; payloadBytes: number };

/** The same poll, from one poller, against a finished 2,000-capture check: payload growth. */
export async function measureLargeCheckProgress(fx: Fixtures, checkId: string): Promise<LargeProgressResult> {
  const times: number[] = [];
  let payloadBytes = 0;
  for (let i = 0; i < 10; i++) {
    const t0 = performance.now();
    const progress = await getCheckProgress(fx.workspaceId, checkId);
    times.push(performance.now() - t0);
    payloadBytes = Buffer.byteLength(JSON.stringify(progress));
  }
  return { captures: (await checkRow(checkId)).totalCaptures, polls: times.length, ms: summarize(times), payloadBytes };
}
