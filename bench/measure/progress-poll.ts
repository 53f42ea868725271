// 5. The check page's progress poll, checkProgress(workspaceId, checkId, { page, version }),
// while a 40-capture check runs: 50 pollers, each a browser tab that first polls without a
// version (the full page) and then sends the version of its last answer (the deltas), at the
// page's refetchInterval (1 s, from the end of one call to the start of the next, like TanStack
// Query), for ~10 s, through this process's one Prisma client (pool of 10 connections), as one
// web replica would serve them. Bytes are the answer's JSON; the server action's encoding of the
// same value is about as long (tests/e2e/large-check.test.ts weighs what reaches the browser).
import { checkProgress } from "@/lib/checks/progress";
import type { ProgressAnswer } from "@/lib/checks/progress-state";
import { checkRow, startCheck, waitForCheck, type Fixtures } from "../lib/fixtures";
import { round, sleep, summarize, waitFor, type Summary } from "../lib/stats";

const POLLERS = 50;
const DURATION_MS = 10_000;
const INTERVAL_MS = 1_000;
/** What a poll may weigh at most, at any check size (issue 10). */
export const POLL_BYTES_GOAL = 20 * 1024;

const bytes = (answer: ProgressAnswer) => Buffer.byteLength(JSON.stringify(answer));

export type PollBytes = { first: { max: number }; steady: { median: number; max: number } };

function pollBytes(first: number[], steady: number[]): PollBytes {
  const sorted = [...steady].sort((a, b) => a - b);
  return { first: { max: Math.max(...first) }, steady: { median: sorted[Math.floor(sorted.length / 2)] ?? 0, max: sorted.at(-1) ?? 0 } };
}

export type ProgressPollResult = {
  pollers: number;
  durationMs: number;
  intervalMs: number;
  captures: number;
  polls: number;
  pollsPerSecond: number;
  ms: Summary;
  /** The same poll (with a version) from a single poller, one after another, just before the 50 start. */
  singlePollerMs: Summary;
  bytes: PollBytes;
  /** Share of polls that saw the check unfinished (the measurement ran against a live check). */
  pollsWhileRunningPct: number;
  errors: number;
};

export async function measureProgressPoll(fx: Fixtures, prompts: number): Promise<ProgressPollResult> {
  const { checkId } = await startCheck(fx, fx.promptIds.slice(0, prompts));
  await waitFor(async () => (await checkRow(checkId)).running > 0, 5_000);

  const single: number[] = [];
  let version = (await checkProgress(fx.workspaceId, checkId, { page: 1 })).version;
  for (let i = 0; i < 20; i++) {
    const t0 = performance.now();
    version = (await checkProgress(fx.workspaceId, checkId, { page: 1, version })).version;
    single.push(performance.now() - t0);
  }

  const times: number[] = [];
  const first: number[] = [];
  const steady: number[] = [];
  let unfinished = 0;
  let errors = 0;
  const started = performance.now();
  const end = started + DURATION_MS;
  const poller = async () => {
    await sleep(Math.random() * INTERVAL_MS); // tabs were not opened at the same instant
    let held: string | undefined;
    while (performance.now() < end) {
      const t0 = performance.now();
      try {
        const answer = await checkProgress(fx.workspaceId, checkId, { page: 1, version: held });
        times.push(performance.now() - t0);
        (held ? steady : first).push(bytes(answer));
        held = answer.version;
        if (!answer.check.finishedAt) unfinished++;
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
    bytes: pollBytes(first, steady),
    pollsWhileRunningPct: round((100 * unfinished) / Math.max(1, times.length), 0),
    errors,
  };
}

export type LargeProgressResult = { captures: number; polls: number; firstMs: Summary; steadyMs: Summary; bytes: PollBytes };

/** The same poll, from one poller, against a finished 2,000-capture check: the first page, then deltas. */
export async function measureLargeCheckProgress(fx: Fixtures, checkId: string): Promise<LargeProgressResult> {
  const firstMs: number[] = [];
  const steadyMs: number[] = [];
  const first: number[] = [];
  const steady: number[] = [];
  for (let i = 0; i < 10; i++) {
    let t0 = performance.now();
    const answer = await checkProgress(fx.workspaceId, checkId, { page: 1 });
    firstMs.push(performance.now() - t0);
    first.push(bytes(answer));
    t0 = performance.now();
    const next = await checkProgress(fx.workspaceId, checkId, { page: 1, version: answer.version });
    steadyMs.push(performance.now() - t0);
    steady.push(bytes(next));
  }
  return { captures: (await checkRow(checkId)).totalCaptures, polls: 20, firstMs: summarize(firstMs), steadyMs: summarize(steadyMs), bytes: pollBytes(first, steady) };
}
