import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  answersToDetectMean,
  answersToDetectProportion,
  binomialUpperTail,
  chanceOfNoCitations,
  normalCdf,
  normalQuantile,
  testLead,
  testMeans,
  testProportions,
  testRatios,
  zFor,
} from "@/lib/analytics/significance";

// Expected values computed by hand (and checked with Python's statistics.NormalDist and math.comb).
describe("normal distribution", () => {
  it("matches known values", () => {
    expect(normalCdf(0)).toBeCloseTo(0.5, 7);
    expect(normalCdf(1.959963984540054)).toBeCloseTo(0.975, 6);
    expect(normalCdf(-2.5758293035489)).toBeCloseTo(0.005, 6);
    expect(zFor(0.95)).toBeCloseTo(1.959963984540054, 7);
    expect(zFor(0.99)).toBeCloseTo(2.5758293035489, 7);
    expect(normalQuantile(0.8)).toBeCloseTo(0.8416212335729143, 7);
  });

  it("quantile inverts the CDF", () => {
    fc.assert(
      fc.property(fc.double({ min: 0.0001, max: 0.9999, noNaN: true }), (p) => {
        expect(normalCdf(normalQuantile(p))).toBeCloseTo(p, 6);
      }),
    );
  });

  it("refuses p outside (0, 1)", () => {
    expect(() => normalQuantile(0)).toThrow(RangeError);
    expect(() => normalQuantile(1)).toThrow(RangeError);
  });
});

describe("testProportions (visibility)", () => {
  it("a change inside the noise: 40 % -> 45 % of 100 answers each, p = 0.474", () => {
    const t = testProportions({ x: 40, n: 100 }, { x: 45, n: 100 }, 0.95)!;
    expect(t.change).toBeCloseTo(0.05, 10);
    expect(t.p).toBeCloseTo(0.4745, 3);
    expect(t.low).toBeLessThan(0);
    expect(t.high).toBeGreaterThan(0);
  });

  it("a real change: 40 % -> 60 % of 100 answers each, p = 0.0047, Newcombe interval 0.061 to 0.328", () => {
    const t = testProportions({ x: 40, n: 100 }, { x: 60, n: 100 }, 0.95)!;
    expect(t.p).toBeCloseTo(0.004678, 5);
    expect(t.low).toBeCloseTo(0.06141, 4);
    expect(t.high).toBeCloseTo(0.32813, 4);
    expect(t.previous).toMatchObject({ value: 0.4, n: 100 });
    expect(t.current.low).toBeCloseTo(0.502, 3);
  });

  it("the same change in ten times the answers is no longer noise", () => {
    expect(testProportions({ x: 40, n: 100 }, { x: 45, n: 100 }, 0.95)!.p).toBeGreaterThan(0.05);
    expect(testProportions({ x: 400, n: 1000 }, { x: 450, n: 1000 }, 0.95)!.p).toBeLessThan(0.05);
  });

  it("no answers in a period: no test; 0 % both times: p = 1", () => {
    expect(testProportions({ x: 0, n: 0 }, { x: 3, n: 10 }, 0.95)).toBeNull();
    expect(testProportions({ x: 0, n: 50 }, { x: 0, n: 50 }, 0.95)!.p).toBe(1);
  });

  it("the interval always holds the change and p is a probability", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 500 }), fc.integer({ min: 1, max: 500 }), fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true }), (n1, n2, r1, r2) => {
        const t = testProportions({ x: Math.round(r1 * n1), n: n1 }, { x: Math.round(r2 * n2), n: n2 }, 0.95)!;
        expect(t.low).toBeLessThanOrEqual(t.change + 1e-12);
        expect(t.high).toBeGreaterThanOrEqual(t.change - 1e-12);
        expect(t.p).toBeGreaterThanOrEqual(0);
        expect(t.p).toBeLessThanOrEqual(1);
      }),
    );
  });
});

describe("testRatios (share of voice) and testMeans (position)", () => {
  // Four captures per period, (brand mentions y, tracked mentions x) each.
  const sums = (rows: [number, number][]) => ({
    n: rows.length,
    sumY: rows.reduce((s, [y]) => s + y, 0),
    sumX: rows.reduce((s, [, x]) => s + x, 0),
    sumYY: rows.reduce((s, [y]) => s + y * y, 0),
    sumXX: rows.reduce((s, [, x]) => s + x * x, 0),
    sumXY: rows.reduce((s, [y, x]) => s + y * x, 0),
  });

  it("share of voice: value, change and a p that shrinks with a bigger change", () => {
    const before = sums([[1, 4], [0, 3], [1, 4], [1, 5]]); // 3 / 16
    const small = sums([[1, 4], [1, 4], [1, 4], [1, 5]]); // 4 / 17
    const big = sums([[3, 4], [3, 3], [4, 4], [4, 5]]); // 14 / 16
    const t = testRatios(before, big, 0.95)!;
    expect(t.previous.value).toBeCloseTo(3 / 16, 10);
    expect(t.current.value).toBeCloseTo(14 / 16, 10);
    expect(t.change).toBeCloseTo(11 / 16, 10);
    expect(t.p).toBeLessThan(0.001);
    expect(testRatios(before, small, 0.95)!.p).toBeGreaterThan(0.05);
    expect(testRatios(sums([[1, 2]]), big, 0.95)).toBeNull();
  });

  it("position: Welch difference of means, by hand", () => {
    // Before: positions 1, 2, 3 (mean 2, variance 1); now: 3, 4, 5 (mean 4, variance 1).
    const t = testMeans({ n: 3, sum: 6, sumSq: 14 }, { n: 3, sum: 12, sumSq: 50 }, 0.95)!;
    expect(t.change).toBe(2);
    const se = Math.sqrt(1 / 3 + 1 / 3);
    expect(t.p).toBeCloseTo(2 * (1 - normalCdf(2 / se)), 10);
    expect(t.low).toBeCloseTo(2 - 1.959963984540054 * se, 6);
  });
});

describe("testLead (a competitor overtook the brand)", () => {
  it("12 answers put the competitor first and 3 the brand: exact sign test p = 576 / 32768", () => {
    const t = testLead(3, 12);
    expect(t.informative).toBe(15);
    expect(t.p).toBeCloseTo(576 / 32768, 12);
  });

  it("an even split is noise", () => {
    expect(testLead(6, 7).p).toBeGreaterThan(0.4);
  });

  it("the tail is exact for small n and sums to 1 from 0", () => {
    expect(binomialUpperTail(0, 10)).toBe(1);
    expect(binomialUpperTail(11, 10)).toBe(0);
    expect(binomialUpperTail(10, 10)).toBeCloseTo(1 / 1024, 12);
    expect(binomialUpperTail(5, 10)).toBeCloseTo(638 / 1024, 10);
    expect(binomialUpperTail(600, 1000)).toBeLessThan(1e-9);
  });
});

describe("chanceOfNoCitations (an own page stopped being cited)", () => {
  it("cited in 10 of 100 answers, then in none of 50: 0.9^50 = 0.0052", () => {
    expect(chanceOfNoCitations(10, 100, 50)).toBeCloseTo(0.005154, 5);
  });
  it("cited in 1 of 100, none of 20 since: likely chance", () => {
    expect(chanceOfNoCitations(1, 100, 20)).toBeGreaterThan(0.8);
  });
});

describe("sample-size hints", () => {
  it("visibility 40 %, a 5-point change at 95 % with 80 % power: 1,534 answers per period", () => {
    expect(answersToDetectProportion(0.4, 0.05, 0.95)).toBe(1534);
    expect(answersToDetectProportion(0.4, -0.05, 0.95)).toBeGreaterThan(1400);
  });
  it("bigger changes need fewer answers; impossible changes need none", () => {
    expect(answersToDetectProportion(0.4, 0.2, 0.95)!).toBeLessThan(answersToDetectProportion(0.4, 0.05, 0.95)!);
    expect(answersToDetectProportion(0.98, 0.05, 0.95)).toBeNull();
    expect(answersToDetectProportion(0.4, 0, 0.95)).toBeNull();
  });
  it("a mean with unit variance 1, change 0.5: 2 * (1.96 + 0.84)^2 / 0.25 = 63", () => {
    expect(answersToDetectMean(1, 0.5, 0.95)).toBe(63);
    expect(answersToDetectMean(0, 0.5, 0.95)).toBeNull();
  });
});
