import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { addDays, isoDay } from "@/lib/analytics/schemas";
import { bucketStart, bucketStarts, candidateUnits, chooseTrendUnit, median, MIN_MEDIAN_N, pointSizes, type DayCount } from "@/lib/analytics/trend-buckets";

const START = new Date("2025-03-03T00:00:00Z"); // a Monday
const days = (perDay: number[][]): DayCount[] =>
  perDay.flatMap((series, s) => series.map((n, d) => ({ day: isoDay(addDays(START, d)), series: `p${s}`, n })));

describe("bucket starts", () => {
  it("starts weeks on Monday and months on the first, keeping empty buckets", () => {
    expect(bucketStart("2025-03-09", "week")).toBe("2025-03-03"); // a Sunday
    expect(bucketStart("2025-03-10", "week")).toBe("2025-03-10");
    expect(bucketStart("2025-02-28", "month")).toBe("2025-02-01");
    expect(bucketStarts(new Date("2025-02-27T00:00:00Z"), new Date("2025-03-12T00:00:00Z"), "week")).toEqual(["2025-02-24", "2025-03-03", "2025-03-10"]);
    expect(bucketStarts(new Date("2025-01-15T00:00:00Z"), new Date("2025-03-02T00:00:00Z"), "month")).toEqual(["2025-01-01", "2025-02-01", "2025-03-01"]);
  });

  it("offers days up to 120 days, weeks always, months from 90 days", () => {
    expect(candidateUnits(30)).toEqual(["day", "week"]);
    expect(candidateUnits(90)).toEqual(["day", "week", "month"]);
    expect(candidateUnits(200)).toEqual(["week", "month"]);
  });
});

describe("chooseTrendUnit", () => {
  it("keeps days when each provider answers 40 a day", () => {
    expect(chooseTrendUnit(days([Array(30).fill(40), Array(30).fill(35)]), 30)).toEqual({ unit: "day", medianN: 37.5 });
  });

  it("goes to weeks when a provider's day rests on ~12 answers (the issue's case)", () => {
    const { unit, medianN } = chooseTrendUnit(days([Array(28).fill(12), Array(28).fill(12)]), 28);
    expect(unit).toBe("week");
    expect(medianN).toBe(84);
  });

  it("falls back to the coarsest unit the range allows when nothing reaches the threshold", () => {
    expect(chooseTrendUnit(days([[1, 0, 2]]), 10).unit).toBe("week");
    expect(chooseTrendUnit(days([[1, 0, 2]]), 120).unit).toBe("month");
    expect(chooseTrendUnit([], 30)).toEqual({ unit: "week", medianN: 0 });
  });

  const data = fc
    .tuple(fc.integer({ min: 7, max: 400 }), fc.integer({ min: 1, max: 4 }))
    .chain(([range, series]) =>
      fc.tuple(fc.constant(range), fc.array(fc.array(fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 80 })), { minLength: range, maxLength: range }), { minLength: series, maxLength: series })),
    );

  it("always picks the finest allowed unit whose points rest on a median n >= 30, whenever one exists", () => {
    fc.assert(
      fc.property(data, ([range, perDay]) => {
        const counts = days(perDay);
        const { unit, medianN } = chooseTrendUnit(counts, range);
        const units = candidateUnits(range);
        expect(units).toContain(unit);
        expect(medianN).toBe(median(pointSizes(counts, unit)));
        const qualifying = units.filter((u) => median(pointSizes(counts, u)) >= MIN_MEDIAN_N);
        // When the data allows the threshold, the choice meets it, and no finer unit would have.
        if (qualifying.length) expect(unit).toBe(qualifying[0]);
        else expect(unit).toBe(units.at(-1));
      }),
      { numRuns: 200 },
    );
  });

  it("at least half the drawn points rest on n >= 30 when the data allows it in any unit", () => {
    fc.assert(
      fc.property(data, ([range, perDay]) => {
        const counts = days(perDay);
        const allowed = candidateUnits(range).some((u) => median(pointSizes(counts, u)) >= MIN_MEDIAN_N);
        const sizes = pointSizes(counts, chooseTrendUnit(counts, range).unit);
        if (allowed) expect(sizes.filter((n) => n >= MIN_MEDIAN_N).length * 2).toBeGreaterThanOrEqual(sizes.length);
      }),
      { numRuns: 200 },
    );
  });
});
