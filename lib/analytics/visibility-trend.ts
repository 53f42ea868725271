import "server-only";
import { num, type ResolvedFilter } from "@/lib/analytics/filter";
import { rollupScope } from "@/lib/analytics/rollups";
import { daysBetween, isoDay } from "@/lib/analytics/schemas";
import { wilson, type Estimate } from "@/lib/analytics/stats";
import { bucketStart, bucketStarts, chooseTrendUnit, median, MIN_MEDIAN_N, type DayCount, type trendParams } from "@/lib/analytics/trend-buckets";
import { readDb } from "@/lib/db/prisma";
import type { z } from "zod";

export type VisibilityPoint = { bucket: string; byProvider: Record<string, Estimate & { mentioned: number }>; all: Estimate & { mentioned: number } };

/**
 * Visibility per provider and bucket, each point with its n and 95 % interval. The bucket comes
 * from the data (lib/analytics/trend-buckets.ts: the finest of day, week, month whose points rest
 * on a median of MIN_MEDIAN_N answers) unless the caller asks for one (`bucket`). One read of the
 * daily rollups per provider; the days are summed into buckets here.
 */
export async function visibilityOverTime({ filter: f, providers }: ResolvedFilter, params: z.output<typeof trendParams>) {
  const rows = await readDb().$queryRaw<{ day: Date; provider: string; n: number; mentioned: number }[]>`
    SELECT r.day, r."providerConfigId"::text AS provider, sum(r.answers)::int AS n, sum(r.mentioned)::int AS mentioned
    FROM rollup_answers r
    WHERE ${rollupScope(f)}
    GROUP BY 1, 2
    HAVING sum(r.answers) > 0`;
  const days = rows.map((r) => ({ day: isoDay(r.day), series: r.provider, n: num(r.n), mentioned: num(r.mentioned) }));
  const chosen = chooseTrendUnit(days satisfies DayCount[], daysBetween(f.from, f.to));
  const unit = params.bucket === "auto" ? chosen.unit : params.bucket;
  const counts = new Map<string, Map<string, { n: number; mentioned: number }>>();
  for (const d of days) {
    const bucket = bucketStart(d.day, unit);
    if (!counts.has(bucket)) counts.set(bucket, new Map());
    const c = counts.get(bucket)!.get(d.series) ?? { n: 0, mentioned: 0 };
    counts.get(bucket)!.set(d.series, { n: c.n + d.n, mentioned: c.mentioned + d.mentioned });
  }
  const points: VisibilityPoint[] = bucketStarts(f.from, f.to, unit).map((bucket) => {
    const byProvider: VisibilityPoint["byProvider"] = {};
    let n = 0;
    let mentioned = 0;
    for (const [provider, c] of counts.get(bucket) ?? []) {
      byProvider[provider] = { ...wilson(c.mentioned, c.n), mentioned: c.mentioned };
      n += c.n;
      mentioned += c.mentioned;
    }
    return { bucket, byProvider, all: { ...wilson(mentioned, n), mentioned } };
  });
  const seen = new Set(days.map((d) => d.series));
  const sizes = points.flatMap((p) => Object.values(p.byProvider).map((e) => e.n));
  return {
    unit,
    /** How the unit was chosen: by the rule (`data`) or asked for (`asked`); the median answers per drawn provider point and the rule's minimum. */
    bucketRule: { chosenBy: params.bucket === "auto" ? ("data" as const) : ("asked" as const), medianN: median(sizes), minMedianN: MIN_MEDIAN_N },
    providers: providers.filter((p) => seen.has(p.id)),
    points,
  };
}

export type VisibilityOverTime = Awaited<ReturnType<typeof visibilityOverTime>>;
