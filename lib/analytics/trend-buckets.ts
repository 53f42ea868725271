// The time bucket of a trend line, chosen from the data: a daily line per provider resting on a
// dozen answers a day swings 50-100 % on noise alone. The rule: the finest unit the range allows
// (day, ISO week from Monday, calendar month) whose drawn points rest on a median of at least
// MIN_MEDIAN_N answers each; when none does, the coarsest the range allows. Pure, so the rule is
// unit- and property-tested and the browser can state it.
import { z } from "zod";
import { addDays, DAILY_BUCKETS_UP_TO_DAYS, isoDay } from "@/lib/analytics/schemas";

export const TREND_UNITS = ["day", "week", "month"] as const;
export type TrendUnit = (typeof TREND_UNITS)[number];

/** At n = 30 a share's 95 % interval is at most ±18 points wide; at 12, ±28. */
export const MIN_MEDIAN_N = 30;
/** Months only from a range that holds about three of them. */
export const MONTHS_FROM_DAYS = 90;

/** A trend chart's own parameter: `bucket=day|week|month` asks for a unit, `auto` (default) applies the rule. */
export const trendParams = z.object({ bucket: z.enum(["auto", ...TREND_UNITS], "bucket is auto, day, week or month").default("auto") });

/** The units a range of `days` days may be drawn in, finest first. */
export function candidateUnits(days: number): TrendUnit[] {
  return TREND_UNITS.filter((u) => (u === "day" ? days <= DAILY_BUCKETS_UP_TO_DAYS : u === "month" ? days >= MONTHS_FROM_DAYS : true));
}

/** The first day (YYYY-MM-DD) of the bucket holding `day`: itself, its week's Monday, its month's first. */
export function bucketStart(day: string, unit: TrendUnit): string {
  if (unit === "day") return day;
  if (unit === "month") return `${day.slice(0, 7)}-01`;
  const date = new Date(`${day}T00:00:00Z`);
  return isoDay(addDays(date, -((date.getUTCDay() + 6) % 7)));
}

/** Every bucket start from the one holding `from` up to `to` (exclusive), so empty buckets are kept. */
export function bucketStarts(from: Date, to: Date, unit: TrendUnit): string[] {
  const keys: string[] = [];
  for (let day = isoDay(from); day < isoDay(to); day = isoDay(addDays(new Date(`${day}T00:00:00Z`), 1))) {
    const key = bucketStart(day, unit);
    if (keys.at(-1) !== key) keys.push(key);
  }
  return keys;
}

/** One day's answers of one series (a provider). */
export type DayCount = { day: string; series: string; n: number };

/** The answers of each drawn point (bucket × series with any answer) in this unit. */
export function pointSizes(counts: DayCount[], unit: TrendUnit): number[] {
  const sums = new Map<string, number>();
  for (const c of counts) {
    if (c.n <= 0) continue;
    const key = `${bucketStart(c.day, unit)}|${c.series}`;
    sums.set(key, (sums.get(key) ?? 0) + c.n);
  }
  return [...sums.values()];
}

export function median(values: number[]): number {
  if (!values.length) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** The rule above: the unit, and the median answers per drawn point it gives. */
export function chooseTrendUnit(counts: DayCount[], days: number, minMedianN = MIN_MEDIAN_N): { unit: TrendUnit; medianN: number } {
  const units = candidateUnits(days);
  for (const unit of units) {
    const medianN = median(pointSizes(counts, unit));
    if (medianN >= minMedianN) return { unit, medianN };
  }
  const unit = units.at(-1)!;
  return { unit, medianN: median(pointSizes(counts, unit)) };
}
