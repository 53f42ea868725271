// Small numeric helpers for the benchmarks: summaries, rounding, bounded waiting.

export type Summary = { n: number; median: number; p95: number; min: number; max: number; mean: number };

/** Median (interpolated) and p95 (nearest rank) of a sample, in the sample's unit. */
export function summarize(values: number[]): Summary {
  if (!values.length) return { n: 0, median: NaN, p95: NaN, min: NaN, max: NaN, mean: NaN };
  const sorted = [...values].sort((a, b) => a - b);
  const n = sorted.length;
  const mid = Math.floor(n / 2);
  const median = n % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  const p95 = sorted[Math.max(0, Math.ceil(0.95 * n) - 1)]!;
  const mean = sorted.reduce((sum, v) => sum + v, 0) / n;
  return { n, median: round(median), p95: round(p95), min: round(sorted[0]!), max: round(sorted[n - 1]!), mean: round(mean) };
}

export const round = (value: number, digits = 1) => Math.round(value * 10 ** digits) / 10 ** digits;

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Runs `probe` every `intervalMs` until it returns something truthy (returned) or `timeoutMs`
 * passes (null is returned; the caller records the timeout instead of hanging).
 */
export async function waitFor<T>(probe: () => Promise<T | null | undefined | false>, timeoutMs: number, intervalMs = 20): Promise<T | null> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) return null;
    await sleep(intervalMs);
  }
}
