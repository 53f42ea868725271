// Is a change between two periods bigger than sampling noise explains, and how many samples
// would it take to see one. Pure functions over the counts and sums the dashboards already read
// (lib/analytics/kpis.ts); the alerts (lib/alerts) and the Overview's change labels both use
// them, so an alert and the tile it points at agree on every number. No server code: the
// browser may import it.
//
// Why a test on the difference and not "the two 95 % intervals do not overlap": two intervals
// that just touch correspond to p ≈ 0.006, not 0.05, so overlap misses real changes; and the
// question an alert asks is about the difference itself. Each test says which one it ran.
import { ratioVariance, sampleVariance, wilson, type RatioSums } from "@/lib/analytics/stats";

/** Standard normal CDF. erfc by Numerical Recipes' Chebyshev fit (relative error < 1.2e-7). */
export function normalCdf(z: number): number {
  const x = Math.abs(z) / Math.SQRT2;
  const t = 1 / (1 + 0.5 * x);
  const erfc =
    t *
    Math.exp(
      -x * x - 1.26551223 +
        t * (1.00002368 + t * (0.37409196 + t * (0.09678418 + t * (-0.18628806 + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))),
    );
  return z >= 0 ? 1 - erfc / 2 : erfc / 2;
}

/** Inverse of the standard normal CDF, by Acklam's rational approximation (relative error < 1.2e-9). */
export function normalQuantile(p: number): number {
  if (!(p > 0 && p < 1)) throw new RangeError(`normalQuantile needs 0 < p < 1, got ${p}`);
  const a = [-39.69683028665376, 220.9460984245205, -275.9285104469687, 138.357751867269, -30.66479806614716, 2.506628277459239];
  const b = [-54.47609879822406, 161.5858368580409, -155.6989798598866, 66.80131188771972, -13.28068155288572];
  const c = [-0.007784894002430293, -0.3223964580411365, -2.400758277161838, -2.549732539343734, 4.374664141464968, 2.938163982698783];
  const d = [0.007784695709041462, 0.3224671290700398, 2.445134137142996, 3.754408661907416];
  const low = 0.02425;
  if (p < low || p > 1 - low) {
    const q = Math.sqrt(-2 * Math.log(p < low ? p : 1 - p));
    const x = (((((c[0]! * q + c[1]!) * q + c[2]!) * q + c[3]!) * q + c[4]!) * q + c[5]!) / ((((d[0]! * q + d[1]!) * q + d[2]!) * q + d[3]!) * q + 1);
    return p < low ? x : -x;
  }
  const q = p - 0.5;
  const r = q * q;
  return ((((((a[0]! * r + a[1]!) * r + a[2]!) * r + a[3]!) * r + a[4]!) * r + a[5]!) * q) / (((((b[0]! * r + b[1]!) * r + b[2]!) * r + b[3]!) * r + b[4]!) * r + 1);
}

/** z for a two-sided interval at this confidence (0.95 -> 1.96). */
export const zFor = (confidence: number) => normalQuantile(1 - (1 - confidence) / 2);

const twoSidedP = (z: number) => Math.min(1, 2 * (1 - normalCdf(Math.abs(z))));

/** One period's number: its value, sample size and interval at the test's confidence. */
export type PeriodValue = { value: number; n: number; low: number | null; high: number | null };

export type DifferenceTest = {
  method: "two-proportion z-test (pooled)" | "z-test on the difference (delta method)" | "Welch z-test on the difference of means";
  previous: PeriodValue;
  current: PeriodValue;
  /** current - previous. */
  change: number;
  /** Interval of the change at `confidence`. */
  low: number;
  high: number;
  /** Two-sided p-value of "no change". */
  p: number;
  confidence: number;
};

/** The test's verdict: "no change" is rejected at its confidence (p < 1 - confidence). */
export const beyondNoise = (test: Pick<DifferenceTest, "p" | "confidence">) => test.p < 1 - test.confidence;

/**
 * Visibility: x1 of n1 answers named the brand before, x2 of n2 now. Pooled two-proportion
 * z-test; the change's interval is Newcombe's hybrid score interval (built from the two Wilson
 * intervals the dashboards show, so it behaves near 0 % and 100 % as they do).
 */
export function testProportions(previous: { x: number; n: number }, current: { x: number; n: number }, confidence: number): DifferenceTest | null {
  if (previous.n <= 0 || current.n <= 0) return null;
  const z = zFor(confidence);
  const p1 = previous.x / previous.n;
  const p2 = current.x / current.n;
  const pooled = (previous.x + current.x) / (previous.n + current.n);
  const se = Math.sqrt(pooled * (1 - pooled) * (1 / previous.n + 1 / current.n));
  const w1 = wilson(previous.x, previous.n, z);
  const w2 = wilson(current.x, current.n, z);
  const d = p2 - p1;
  return {
    method: "two-proportion z-test (pooled)",
    previous: { value: p1, n: previous.n, low: w1.low, high: w1.high },
    current: { value: p2, n: current.n, low: w2.low, high: w2.high },
    change: d,
    low: d - Math.sqrt((p2 - w2.low!) ** 2 + (w1.high! - p1) ** 2),
    high: d + Math.sqrt((w2.high! - p2) ** 2 + (p1 - w1.low!) ** 2),
    p: se === 0 ? (d === 0 ? 1 : 0) : twoSidedP(d / se),
    confidence,
  };
}

/** A value and the variance of its estimate, for the Wald tests below. */
type Estimated = { value: number; n: number; variance: number };

function waldTest(method: DifferenceTest["method"], previous: Estimated, current: Estimated, confidence: number, clamp: (x: number) => number): DifferenceTest {
  const z = zFor(confidence);
  const period = (e: Estimated): PeriodValue => {
    const half = z * Math.sqrt(e.variance);
    return { value: e.value, n: e.n, low: clamp(e.value - half), high: clamp(e.value + half) };
  };
  const d = current.value - previous.value;
  const se = Math.sqrt(previous.variance + current.variance);
  return {
    method,
    previous: period(previous),
    current: period(current),
    change: d,
    low: d - z * se,
    high: d + z * se,
    p: se === 0 ? (d === 0 ? 1 : 0) : twoSidedP(d / se),
    confidence,
  };
}

const clamp01 = (x: number) => Math.min(1, Math.max(0, x));

/**
 * Share of voice (Σ brand mentions / Σ tracked mentions over captures): the difference of two
 * ratios, each with its delta-method variance over captures (as the dashboards' interval).
 */
export function testRatios(previous: RatioSums, current: RatioSums, confidence: number): DifferenceTest | null {
  if (previous.n < 2 || current.n < 2 || previous.sumX <= 0 || current.sumX <= 0) return null;
  const estimate = (s: RatioSums): Estimated => ({ value: s.sumY / s.sumX, n: s.n, variance: ratioVariance(s) });
  return waldTest("z-test on the difference (delta method)", estimate(previous), estimate(current), confidence, clamp01);
}

export type MeanSums = { n: number; sum: number; sumSq: number };

/** Average position: the difference of two means with unequal variances (Welch; normal for n >= 2). */
export function testMeans(previous: MeanSums, current: MeanSums, confidence: number): DifferenceTest | null {
  if (previous.n < 2 || current.n < 2) return null;
  const estimate = (s: MeanSums): Estimated => ({ value: s.sum / s.n, n: s.n, variance: sampleVariance(s.sum, s.sumSq, s.n) / s.n });
  return waldTest("Welch z-test on the difference of means", estimate(previous), estimate(current), confidence, (x) => Math.max(1, x));
}

/** ln Γ(x) for x > 0 (Lanczos, g = 7). */
function logGamma(x: number): number {
  const g = [0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059, 12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7];
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - logGamma(1 - x);
  const xx = x - 1;
  let a = g[0]!;
  const t = xx + 7.5;
  for (let i = 1; i < 9; i++) a += g[i]! / (xx + i);
  return 0.5 * Math.log(2 * Math.PI) + (xx + 0.5) * Math.log(t) - t + Math.log(a);
}

/** P(X >= k) for X ~ Binomial(n, 1/2), exactly (summed in log space). */
export function binomialUpperTail(k: number, n: number): number {
  if (k <= 0) return 1;
  if (k > n) return 0;
  const lnHalfN = n * Math.log(0.5);
  let total = 0;
  for (let i = k; i <= n; i++) total += Math.exp(logGamma(n + 1) - logGamma(i + 1) - logGamma(n - i + 1) + lnHalfN);
  return Math.min(1, total);
}

/**
 * "Who comes first" in the same answers: `brandFirst` answers named the brand and not the
 * competitor or the brand before it, `rivalFirst` the other way round (answers naming neither
 * carry no information). Under "neither leads" each informative answer is a fair coin, so the
 * one-sided exact sign test (McNemar's, exact) gives P(the competitor leads this often by chance).
 */
export function testLead(brandFirst: number, rivalFirst: number): { informative: number; p: number } {
  const informative = brandFirst + rivalFirst;
  return { informative, p: binomialUpperTail(rivalFirst, informative) };
}

/**
 * A page the answers cited in `cited` of `before` answers, and in none of `now` answers since:
 * the chance of that if its citation rate had not changed, (1 - rate)^now.
 */
export function chanceOfNoCitations(cited: number, before: number, now: number): number {
  if (before <= 0 || cited <= 0) return 1;
  return Math.pow(1 - Math.min(1, cited / before), now);
}

/**
 * Answers per period needed to detect a change of `delta` in a proportion now at `rate`, with a
 * two-sided test at `confidence` and the given power (the textbook two-proportion formula with
 * equal groups). Null when the change is impossible (rate + delta outside [0, 1]) or zero.
 */
export function answersToDetectProportion(rate: number, delta: number, confidence: number, power = 0.8): number | null {
  const p2 = rate + delta;
  if (delta === 0 || p2 < 0 || p2 > 1) return null;
  const za = zFor(confidence);
  const zb = normalQuantile(power);
  const mean = (rate + p2) / 2;
  const n = (za * Math.sqrt(2 * mean * (1 - mean)) + zb * Math.sqrt(rate * (1 - rate) + p2 * (1 - p2))) ** 2 / (delta * delta);
  return Math.ceil(n);
}

/**
 * Answers per period needed to detect a change of `delta` in a number whose per-answer variance
 * is `unitVariance` (share of voice: its delta-method variance times n; position: the sample
 * variance), two-sided at `confidence` with the given power.
 */
export function answersToDetectMean(unitVariance: number, delta: number, confidence: number, power = 0.8): number | null {
  if (delta === 0 || !(unitVariance > 0)) return null;
  const z = zFor(confidence) + normalQuantile(power);
  return Math.ceil((2 * unitVariance * z * z) / (delta * delta));
}
