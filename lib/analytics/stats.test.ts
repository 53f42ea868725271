import { describe, expect, it } from "vitest";
import { change, meanInterval, ratioInterval, wilson } from "@/lib/analytics/stats";

describe("wilson", () => {
  it("matches the textbook interval for 7 of 10", () => {
    const e = wilson(7, 10);
    expect(e.value).toBeCloseTo(0.7, 10);
    expect(e.n).toBe(10);
    expect(e.low).toBeCloseTo(0.3968, 4);
    expect(e.high).toBeCloseTo(0.8922, 4);
  });

  it("stays inside [0, 1] at the edges, where the normal approximation collapses", () => {
    const none = wilson(0, 5);
    expect(none.value).toBe(0);
    expect(none.low).toBe(0);
    expect(none.high).toBeCloseTo(0.4345, 4);
    const all = wilson(5, 5);
    expect(all.low).toBeCloseTo(0.5655, 4);
    expect(all.high).toBe(1);
  });

  it("holds its value at the edges for every n, rounding included (0 of 7 once gave a low of 3e-17)", () => {
    for (let n = 1; n <= 200; n++) {
      expect(wilson(0, n).low, `0 of ${n}`).toBe(0);
      expect(wilson(n, n).high, `${n} of ${n}`).toBe(1);
    }
  });

  it("has no value without a sample", () => {
    expect(wilson(0, 0)).toEqual({ value: null, n: 0, low: null, high: null });
  });
});

describe("meanInterval", () => {
  it("uses the sample standard deviation", () => {
    // 1, 2, 3, 4: mean 2.5, s = sqrt(5/3), half-width 1.96 * s / 2
    const e = meanInterval(10, 30, 4);
    expect(e.value).toBe(2.5);
    expect(e.low).toBeCloseTo(2.5 - 1.959964 * Math.sqrt(5 / 3) / 2, 5);
    expect(e.high).toBeCloseTo(2.5 + 1.959964 * Math.sqrt(5 / 3) / 2, 5);
  });

  it("gives a value but no interval for one observation, and nothing for none", () => {
    expect(meanInterval(3, 9, 1)).toEqual({ value: 3, n: 1, low: null, high: null });
    expect(meanInterval(0, 0, 0).value).toBeNull();
  });

  it("has a zero-width interval when every value is the same", () => {
    const e = meanInterval(6, 12, 3);
    expect(e.low).toBeCloseTo(2, 10);
    expect(e.high).toBeCloseTo(2, 10);
  });
});

describe("ratioInterval", () => {
  it("treats the capture as the sampling unit", () => {
    // captures (y, x): (1, 2), (0, 1), (2, 3) -> r = 0.5, Σ(y - r x)² = 0.5, var = 0.5 / (2 * 3 * 2²)
    const e = ratioInterval({ n: 3, sumY: 3, sumX: 6, sumYY: 5, sumXX: 14, sumXY: 8 });
    const half = 1.959964 * Math.sqrt(0.5 / 24);
    expect(e.value).toBe(0.5);
    expect(e.low).toBeCloseTo(0.5 - half, 5);
    expect(e.high).toBeCloseTo(0.5 + half, 5);
  });

  it("has no value when nothing was mentioned", () => {
    expect(ratioInterval({ n: 4, sumY: 0, sumX: 0, sumYY: 0, sumXX: 0, sumXY: 0 }).value).toBeNull();
  });
});

describe("change", () => {
  it("is the difference, or null when a side is missing", () => {
    expect(change(wilson(3, 4), wilson(1, 4))).toBeCloseTo(0.5, 10);
    expect(change(wilson(3, 4), wilson(0, 0))).toBeNull();
  });
});
