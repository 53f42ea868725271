// rollupSpans (lib/analytics/rollup-spans.ts): for any range, the signed spans count every day of
// it once and no other day, whatever months, weeks and years it crosses, and read few periods;
// also with weeks as the coarsest period, and with added spans only.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { rollupSpans, type Span } from "./rollup-spans";

const DAY = 86_400_000;
const day0 = Date.UTC(2023, 11, 1);

/** Each day's signed count over the spans, keyed by its offset from day0. */
function countsOf(spans: Span[]): Map<number, number> {
  const counts = new Map<number, number>();
  for (const s of spans) {
    expect(s.from.getTime()).toBeLessThan(s.to.getTime());
    for (let t = s.from.getTime(); t < s.to.getTime(); t += DAY) counts.set((t - day0) / DAY, (counts.get((t - day0) / DAY) ?? 0) + s.sign);
  }
  return counts;
}

/** Rows a page reads: one per month, week or day span's period. */
function periodsOf(spans: Span[]): number {
  return spans.reduce((n, s) => n + (s.level === "month" ? (s.to.getUTCFullYear() - s.from.getUTCFullYear()) * 12 + s.to.getUTCMonth() - s.from.getUTCMonth() : Math.round((s.to.getTime() - s.from.getTime()) / DAY / (s.level === "week" ? 7 : 1))), 0);
}

describe("rollupSpans", () => {
  const options = fc.record({ coarsest: fc.constantFrom("month" as const, "week" as const, "day" as const), subtract: fc.boolean() }, { requiredKeys: [] });

  it("counts exactly the range's days, each once, with spans on their periods' boundaries", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1500 }), fc.integer({ min: 0, max: 400 }), options, (start, length, opts) => {
        const first = new Date(day0 + start * DAY);
        const spans = rollupSpans(first, new Date(first.getTime() + length * DAY), opts);
        const order = ["day", "week", "month"];
        expect(spans.filter((s) => order.indexOf(s.level) > order.indexOf(opts.coarsest ?? "month"))).toEqual([]);
        if (opts.subtract === false) expect(spans.filter((s) => s.sign < 0)).toEqual([]);
        const counts = countsOf(spans);
        const wrong = [...counts].filter(([d, n]) => n !== (d >= start && d < start + length ? 1 : 0));
        const missing = Array.from({ length }, (_, i) => start + i).filter((d) => counts.get(d) !== 1);
        const offBoundary = spans.filter((s) => (s.level === "month" && (s.from.getUTCDate() !== 1 || s.to.getUTCDate() !== 1)) || (s.level === "week" && (s.from.getUTCDay() !== 1 || s.to.getUTCDay() !== 1)));
        expect({ wrong, missing, offBoundary }).toEqual({ wrong: [], missing: [], offBoundary: [] });
      }),
      { numRuns: 500 },
    );
  });

  it("reads fewer periods than weeks and edge days: at most 10 for 30 days, 19 for 92 and 10.5 on average for 90", () => {
    const most = new Map<number, number>();
    let sum90 = 0;
    for (let start = 0; start < 800; start++) {
      for (const length of [7, 30, 31, 90, 92]) {
        const first = new Date(day0 + start * DAY);
        const n = periodsOf(rollupSpans(first, new Date(first.getTime() + length * DAY)));
        most.set(length, Math.max(most.get(length) ?? 0, n));
        if (length === 90) sum90 += n;
      }
    }
    expect(Object.fromEntries(most)).toEqual({ 7: 7, 30: 10, 31: 9, 90: 17, 92: 19 });
    expect(sum90 / 800).toBeLessThan(10.6);
  });

  it("adds only whole periods inside the range when it may not subtract: 30 days at most 12 periods", () => {
    let most = 0;
    for (let start = 0; start < 800; start++) {
      const first = new Date(day0 + start * DAY);
      most = Math.max(most, periodsOf(rollupSpans(first, new Date(first.getTime() + 30 * DAY), { subtract: false })));
    }
    expect(most).toBe(12);
  });
});
