// 95 % intervals for the numbers the dashboards show. Pure functions: the SQL returns counts and
// sums, these turn them into estimates. Every estimate carries its sample size so the UI can say
// how much to trust it.

/** z for a two-sided 95 % interval. */
export const Z95 = 1.959963984540054;

export type Estimate = {
  /** Null when there is nothing to estimate from (n = 0). */
  value: number | null;
  n: number;
  /** 95 % interval; null when n is too small to have one. */
  low: number | null;
  high: number | null;
};

const clamp01 = (x: number) => Math.min(1, Math.max(0, x));

/**
 * Wilson score interval for a proportion (successes out of n). Unlike the normal approximation
 * it stays inside [0, 1] and behaves at 0 % and 100 %, which small samples hit all the time.
 */
export function wilson(successes: number, n: number, z = Z95): Estimate {
  if (n <= 0) return { value: null, n: 0, low: null, high: null };
  const p = successes / n;
  const z2 = z * z;
  const denominator = 1 + z2 / n;
  const center = (p + z2 / (2 * n)) / denominator;
  const half = (z / denominator) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  // At 0 (or all) successes the bound is exactly 0 (or 1); computed, it can miss by a rounding error
  // and end up on the wrong side of the value.
  return { value: p, n, low: successes === 0 ? 0 : clamp01(center - half), high: successes === n ? 1 : clamp01(center + half) };
}

/**
 * Normal-approximation interval for a mean from the sum and the sum of squares of n values
 * (what SQL hands back), using the sample standard deviation.
 */
export function meanInterval(sum: number, sumOfSquares: number, n: number, z = Z95): Estimate {
  if (n <= 0) return { value: null, n: 0, low: null, high: null };
  const mean = sum / n;
  if (n < 2) return { value: mean, n, low: null, high: null };
  const half = z * Math.sqrt(sampleVariance(sum, sumOfSquares, n) / n);
  return { value: mean, n, low: mean - half, high: mean + half };
}

/** The sample variance of n values (n >= 2) from their sum and sum of squares. */
export function sampleVariance(sum: number, sumOfSquares: number, n: number): number {
  const mean = sum / n;
  // Guard against tiny negative values from floating-point cancellation.
  return Math.max(0, (sumOfSquares - n * mean * mean) / (n - 1));
}

/** Sums over n sampling units (captures) of a numerator y and a denominator x. */
export type RatioSums = { n: number; sumY: number; sumX: number; sumYY: number; sumXX: number; sumXY: number };

/**
 * Interval for a ratio of sums, Σy / Σx, such as share of voice (brand mentions / all tracked
 * mentions). Mentions of one answer are not independent, so the unit of sampling is the capture:
 * the variance comes from the delta method over captures, not from counting mentions as trials.
 */
export function ratioInterval({ n, sumY, sumX, sumYY, sumXX, sumXY }: RatioSums, z = Z95): Estimate {
  if (n <= 0 || sumX <= 0) return { value: null, n, low: null, high: null };
  const r = sumY / sumX;
  if (n < 2) return { value: r, n, low: null, high: null };
  const half = z * Math.sqrt(ratioVariance({ n, sumY, sumX, sumYY, sumXX, sumXY }));
  return { value: r, n, low: clamp01(r - half), high: clamp01(r + half) };
}

/** The delta-method variance of Σy / Σx over n >= 2 captures with Σx > 0 (see ratioInterval). */
export function ratioVariance({ n, sumY, sumX, sumYY, sumXX, sumXY }: RatioSums): number {
  const r = sumY / sumX;
  const meanX = sumX / n;
  // Σ (y_i - r x_i)², expanded so SQL only has to return plain sums.
  const residuals = Math.max(0, sumYY - 2 * r * sumXY + r * r * sumXX);
  return residuals / ((n - 1) * n * meanX * meanX);
}

/** current - previous, or null when either side has no value. */
export function change(current: Estimate, previous: Estimate): number | null {
  return current.value === null || previous.value === null ? null : current.value - previous.value;
}
