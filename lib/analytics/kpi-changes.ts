// Is a headline number's change between two periods beyond sampling noise? One answer for the
// alerts (lib/alerts/evaluate.ts) and the Overview's tiles (lib/analytics/kpis.ts), from the same
// rollup sums, so a tile coloured "beyond noise" and an alert that fires agree.
import { beyondNoise, testMeans, testProportions, testRatios, type DifferenceTest } from "@/lib/analytics/significance";
import { num } from "@/lib/analytics/filter";
import type { RatioSums } from "@/lib/analytics/stats";

/** The sums a test needs: one period's row as comparedSums returns it (lib/analytics/kpis.ts calls it KpiRow). */
export type ChangeSums = {
  n: number;
  mentioned: number;
  pos_n: number;
  pos_sum: number;
  pos_sumsq: number;
  positive: number;
  neutral: number;
  negative: number;
  sy: number;
  sx: number;
  syy: number;
  sxx: number;
  sxy: number;
};

export type KpiMetric = "visibility" | "share_of_voice" | "position" | "positive" | "neutral" | "negative";

/**
 * The metric's test between two periods: a pooled two-proportion z-test for visibility and the
 * sentiment shares (among answers naming the brand), the delta-method z-test for share of voice
 * and Welch's test on the difference of means for average position. `n` is each period's sample
 * size; the test is null when a period has too few answers to have one.
 */
export function testKpiChange(metric: KpiMetric, before: ChangeSums, now: ChangeSums, confidence: number): { test: DifferenceTest | null; n: [number, number] } {
  if (metric === "visibility") {
    return { test: testProportions({ x: num(before.mentioned), n: num(before.n) }, { x: num(now.mentioned), n: num(now.n) }, confidence), n: [num(before.n), num(now.n)] };
  }
  if (metric === "share_of_voice") {
    const sums = (r: ChangeSums) => ({ n: num(r.n), sumY: num(r.sy), sumX: num(r.sx), sumYY: num(r.syy), sumXX: num(r.sxx), sumXY: num(r.sxy) });
    return { test: testRatios(sums(before), sums(now), confidence), n: [num(before.n), num(now.n)] };
  }
  if (metric === "position") {
    const sums = (r: ChangeSums) => ({ n: num(r.pos_n), sum: num(r.pos_sum), sumSq: num(r.pos_sumsq) });
    return { test: testMeans(sums(before), sums(now), confidence), n: [num(before.pos_n), num(now.pos_n)] };
  }
  return {
    test: testProportions({ x: num(before[metric]), n: num(before.mentioned) }, { x: num(now[metric]), n: num(now.mentioned) }, confidence),
    n: [num(before.mentioned), num(now.mentioned)],
  };
}

/** The dashboards' confidence for "beyond noise", as the alerts' default. */
export const DASHBOARD_CONFIDENCE = 0.95;

/** A change's test as the charts send it: the verdict and the numbers behind it. */
export type KpiChangeTest = Pick<DifferenceTest, "method" | "p" | "low" | "high" | "confidence"> & { beyondNoise: boolean };

const chartShape = (test: DifferenceTest | null): KpiChangeTest | null =>
  test && { method: test.method, p: test.p, low: test.low, high: test.high, confidence: test.confidence, beyondNoise: beyondNoise(test) };

/** testKpiChange at the dashboards' confidence, in the charts' shape; null without a test. */
export function kpiChangeTest(metric: KpiMetric, before: ChangeSums, now: ChangeSums): KpiChangeTest | null {
  return chartShape(testKpiChange(metric, before, now, DASHBOARD_CONFIDENCE).test);
}

/** Any share of voice (a competitor's too) between two periods, as kpiChangeTest tests the brand's. */
export const ratioChangeTest = (before: RatioSums, now: RatioSums): KpiChangeTest | null => chartShape(testRatios(before, now, DASHBOARD_CONFIDENCE));
