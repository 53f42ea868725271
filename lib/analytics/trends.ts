import "server-only";
import type { z } from "zod";
import { num, previousPeriod, type ResolvedFilter } from "@/lib/analytics/filter";
import { rollupScope } from "@/lib/analytics/rollups";
import { comparablePrompts } from "@/lib/analytics/kpis";
import { isoDay } from "@/lib/analytics/schemas";
import { assembleShareOfVoice } from "@/lib/analytics/share-of-voice";
import { wilson } from "@/lib/analytics/stats";
import type { trendParams } from "@/lib/analytics/trend-buckets";
import { readDb } from "@/lib/db/prisma";

/**
 * Share of voice per bucket for the brand and each competitor, each share with its n and 95 %
 * interval, and each entity's change vs the previous period (lib/analytics/share-of-voice.ts).
 * The bucket comes from the data as for visibility (lib/analytics/trend-buckets.ts) unless the
 * caller asks for one. Two reads of the daily rollups over this period and the one before.
 */
export async function shareOfVoiceOverTime({ filter: f, brand }: ResolvedFilter, params: z.output<typeof trendParams>) {
  const previous = previousPeriod(f);
  const both = { ...f, from: previous.from };
  // Each day's sums, and those of the prompts answered in both periods (the change is measured
  // on those), in one pass of each rollup grouped as before: the split is a FILTER, not a key.
  const comparable = comparablePrompts(previous, f);
  const [answerRows, entityRows] = await Promise.all([
    readDb().$queryRaw<{ day: Date; n: number; sx: number; sxx: number; cn: number; csx: number; csxx: number }[]>`
      WITH comparable AS (${comparable})
      SELECT r.day, sum(r.answers)::int AS n, sum(r."sumX")::float8 AS sx, sum(r."sumXX")::float8 AS sxx,
        coalesce(sum(r.answers) FILTER (WHERE c."promptId" IS NOT NULL), 0)::int AS cn,
        coalesce(sum(r."sumX") FILTER (WHERE c."promptId" IS NOT NULL), 0)::float8 AS csx,
        coalesce(sum(r."sumXX") FILTER (WHERE c."promptId" IS NOT NULL), 0)::float8 AS csxx
      FROM rollup_answers r LEFT JOIN comparable c ON c."promptId" = r."promptId"
      WHERE ${rollupScope(both)}
      GROUP BY 1
      HAVING sum(r.answers) > 0`,
    readDb().$queryRaw<{ day: Date; entity: string; name: string; sy: number; syy: number; sxy: number; csy: number; csyy: number; csxy: number }[]>`
      WITH comparable AS (${comparable})
      SELECT r.day, r.entity, max(r.name) AS name, sum(r.mentions)::float8 AS sy, sum(r."sumYY")::float8 AS syy, sum(r."sumXY")::float8 AS sxy,
        coalesce(sum(r.mentions) FILTER (WHERE c."promptId" IS NOT NULL), 0)::float8 AS csy,
        coalesce(sum(r."sumYY") FILTER (WHERE c."promptId" IS NOT NULL), 0)::float8 AS csyy,
        coalesce(sum(r."sumXY") FILTER (WHERE c."promptId" IS NOT NULL), 0)::float8 AS csxy
      FROM rollup_mentions r LEFT JOIN comparable c ON c."promptId" = r."promptId"
      WHERE ${rollupScope(both)}
      GROUP BY 1, 2
      HAVING sum(r.rows) > 0`,
  ]);
  // A day's row as two: its comparable part and the rest.
  const answers = answerRows.flatMap((r) => [
    { day: isoDay(r.day), comparable: true, n: num(r.cn), sumX: num(r.csx), sumXX: num(r.csxx) },
    { day: isoDay(r.day), comparable: false, n: num(r.n) - num(r.cn), sumX: num(r.sx) - num(r.csx), sumXX: num(r.sxx) - num(r.csxx) },
  ]);
  const entities = entityRows.flatMap((r) => [
    { day: isoDay(r.day), comparable: true, entity: r.entity, name: r.name, sumY: num(r.csy), sumYY: num(r.csyy), sumXY: num(r.csxy) },
    { day: isoDay(r.day), comparable: false, entity: r.entity, name: r.name, sumY: num(r.sy) - num(r.csy), sumYY: num(r.syy) - num(r.csyy), sumXY: num(r.sxy) - num(r.csxy) },
  ]);
  return assembleShareOfVoice({
    from: f.from,
    to: f.to,
    fromDay: isoDay(f.from),
    tracked: [{ id: "brand", name: brand.name }, ...brand.competitors.map((c) => ({ id: c.id, name: c.name }))],
    answers,
    entities,
    asked: params.bucket,
  });
}

export type ShareOfVoiceOverTime = Awaited<ReturnType<typeof shareOfVoiceOverTime>>;

export const POSITION_BUCKETS = ["1", "2", "3", "4", "5+", "not mentioned"] as const;

/** Where the brand comes among the tracked entities of each answer, or that it does not come at all. */
export async function positionDistribution({ filter: f }: ResolvedFilter) {
  const [row] = await readDb().$queryRaw<Record<"answers" | "p1" | "p2" | "p3" | "p4" | "p5", number>[]>`
    SELECT coalesce(sum(r.answers), 0)::int AS answers,
      coalesce(sum(r.position1), 0)::int AS p1, coalesce(sum(r.position2), 0)::int AS p2, coalesce(sum(r.position3), 0)::int AS p3,
      coalesce(sum(r.position4), 0)::int AS p4, coalesce(sum(r."position5Plus"), 0)::int AS p5
    FROM rollup_answers r
    WHERE ${rollupScope(f)}`;
  // In the order of POSITION_BUCKETS; the answers that do not name the brand are the rest.
  const placed = [row!.p1, row!.p2, row!.p3, row!.p4, row!.p5].map(num);
  const n = num(row!.answers);
  const counts = [...placed, n - placed.reduce((a, b) => a + b, 0)];
  return { n, buckets: POSITION_BUCKETS.map((bucket, i) => ({ bucket, captures: counts[i]!, ...wilson(counts[i]!, n) })) };
}

export type PositionDistribution = Awaited<ReturnType<typeof positionDistribution>>;
