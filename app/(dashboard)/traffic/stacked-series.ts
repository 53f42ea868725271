import { formatBucket } from "@/lib/format";

// The series drawn one by one; the rest stack as one "other" series, so the legend stays readable.
const DRAWN = 7;

/** The names to draw, most first as given: all of them, or the first DRAWN and `other`. */
export const drawnSeries = (names: string[], other: string) => (names.length > DRAWN + 1 ? [...names.slice(0, DRAWN), other] : names);

/**
 * One row per bucket, labelled, with each series' total: a row of the data adds its value to its
 * name's series (`other` when that name is not drawn), plus its suffix when it has one.
 */
export function stackedRows<R extends { bucket: string }>(
  data: { buckets: string[]; unit: Parameters<typeof formatBucket>[1]; rows: R[] },
  drawn: string[],
  other: string,
  of: (row: R) => { name: string; value: number; suffix?: string },
) {
  const series = new Set(drawn);
  const byBucket = new Map(data.buckets.map((bucket) => [bucket, { label: formatBucket(bucket, data.unit) } as Record<string, string | number>]));
  for (const row of data.rows) {
    const point = byBucket.get(row.bucket);
    if (!point) continue;
    const { name, value, suffix = "" } = of(row);
    const key = `${series.has(name) ? name : other}${suffix}`;
    point[key] = Number(point[key] ?? 0) + value;
  }
  return [...byBucket.values()];
}
