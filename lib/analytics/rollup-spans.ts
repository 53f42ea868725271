// A day range as the fewest rollup periods (months, ISO weeks, days), each added or subtracted:
// the Traffic page sums a page's crawls (and visits) and the Sources page's cited pages table a
// URL's citations over a range from rollups per page and period, and every period read is about
// one row per page, so 90 days of 10,000 pages read ~3 months and a few weeks and days at the
// edges instead of 90 days (docs/traffic.md "The Traffic page", docs/architecture.md's rollups).

export type SpanLevel = "month" | "week" | "day";
/** [from, to) in whole periods of `level` (UTC midnights), counted with `sign`. */
export type Span = { level: SpanLevel; from: Date; to: Date; sign: 1 | -1 };

const DAY_MS = 86_400_000;
const addDays = (d: Date, n: number) => new Date(d.getTime() + n * DAY_MS);

/** The start of the period of `level` holding `d`. */
function floorOf(level: SpanLevel, d: Date): Date {
  if (level === "month") return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1));
  if (level === "week") return addDays(d, -((d.getUTCDay() + 6) % 7));
  return d;
}

/** The period boundaries of `level` around `d`: itself when it is one, else the one before and after. */
function around(level: SpanLevel, d: Date): Date[] {
  const floor = floorOf(level, d);
  if (floor.getTime() === d.getTime()) return [d];
  const next = level === "month" ? new Date(Date.UTC(floor.getUTCFullYear(), floor.getUTCMonth() + 1, 1)) : addDays(floor, 7);
  return [floor, next];
}

/** Periods of `level` in [from, to) (both boundaries of it). */
function periods(level: SpanLevel, from: Date, to: Date): number {
  if (level === "month") return (to.getUTCFullYear() - from.getUTCFullYear()) * 12 + to.getUTCMonth() - from.getUTCMonth();
  return Math.round((to.getTime() - from.getTime()) / DAY_MS / (level === "week" ? 7 : 1));
}

const LOWER: Record<SpanLevel, SpanLevel | null> = { month: "week", week: "day", day: null };

/** The cheapest cover of [from, to) (from <= to) with periods of `level` and finer, signed: [periods read, spans]. */
function cover(from: Date, to: Date, level: SpanLevel, sign: 1 | -1, subtract: boolean): [number, Span[]] {
  if (from.getTime() >= to.getTime()) return [0, []];
  const lower = LOWER[level];
  if (!lower) return [periods("day", from, to), [{ level: "day", from, to, sign }]];
  let best = cover(from, to, lower, sign, subtract);
  // The range's ends rounded to this level's boundaries either way; the gaps at finer levels,
  // added where the rounded range is shorter, subtracted where it is longer (if it may be).
  for (const a of around(level, from)) {
    for (const b of around(level, to)) {
      if (a.getTime() >= b.getTime() || (!subtract && (a < from || b > to))) continue;
      const left = a < from ? cover(a, from, lower, (-sign) as 1 | -1, subtract) : cover(from, a, lower, sign, subtract);
      const right = b > to ? cover(to, b, lower, (-sign) as 1 | -1, subtract) : cover(b, to, lower, sign, subtract);
      const cost = periods(level, a, b) + left[0] + right[0];
      if (cost < best[0]) best = [cost, [{ level, from: a, to: b, sign }, ...left[1], ...right[1]]];
    }
  }
  return best;
}

/**
 * [first, end) (UTC midnights) as signed spans of months, weeks and days whose signed days add up
 * to exactly the range's days, reading the fewest periods. `coarsest` is the coarsest period the
 * rollups have; `subtract: false` gives added spans only, inside the range: what a maximum (the
 * latest title's time) needs, since it does not subtract.
 */
export function rollupSpans(first: Date, end: Date, opts: { coarsest?: SpanLevel; subtract?: boolean } = {}): Span[] {
  return cover(first, end, opts.coarsest ?? "month", 1, opts.subtract ?? true)[1];
}
