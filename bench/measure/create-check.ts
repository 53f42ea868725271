// 4. How long createCheck takes (one transaction: idempotency key, budget, check, captures,
// their graphile-worker jobs), for 40 and for 1,000 captures. No worker runs, so the queue does
// not compete; each timed check is discarded (with its jobs) before the next one.
import { discardChecks, startCheck, type Fixtures } from "../lib/fixtures";
import { summarize, type Summary } from "../lib/stats";

export type CreateCheckResult = { captures: number; prompts: number; providers: number; runs: number; warmup: number; ms: Summary };

const RUNS = 20;
const WARMUP = 2;
const TIME_LIMIT_MS = 60_000;

async function timeCreation(fx: Fixtures, promptCount: number): Promise<CreateCheckResult> {
  const promptIds = fx.promptIds.slice(0, promptCount);
  const times: number[] = [];
  const deadline = Date.now() + TIME_LIMIT_MS;
  for (let i = 0; i < WARMUP + RUNS && Date.now() < deadline; i++) {
    const started = performance.now();
    const { checkId } = await startCheck(fx, promptIds);
    const ms = performance.now() - started;
    if (i >= WARMUP) times.push(ms);
    await discardChecks([checkId]);
  }
  return { captures: promptCount * fx.providerIds.length, prompts: promptCount, providers: fx.providerIds.length, runs: times.length, warmup: WARMUP, ms: summarize(times) };
}

export async function measureCreateCheck(fx: Fixtures): Promise<CreateCheckResult[]> {
  return [await timeCreation(fx, 10), await timeCreation(fx, 250)];
}
