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
  // Each day's sums split by whether the prompt was answered in both periods: the change is measured on those.
  const comparable = comparablePrompts(previous, f);
  const [answers, entities] = await Promise.all([
    readDb().$queryRaw<{ day: Date; comparable: boolean; n: number; sx: number; sxx: number }[]>`
      WITH comparable AS (${comparable})
      SELECT r.day, r."promptId" IN (SELECT "promptId" FROM comparable) AS comparable,
        sum(r.answers)::int AS n, sum(r."sumX")::float8 AS sx, sum(r."sumXX")::float8 AS sxx
      FROM rollup_answers r
      WHERE ${rollupScope(both)}
      GROUP BY 1, 2
      HAVING sum(r.answers) > 0`,
    readDb().$queryRaw<{ day: Date; comparable: boolean; entity: string; name: string; sy: number; syy: number; sxy: number }[]>`
      WITH comparable AS (${comparable})
      SELECT r.day, r."promptId" IN (SELECT "promptId" FROM comparable) AS comparable, r.entity, max(r.name) AS name,
        sum(r.mentions)::float8 AS sy, sum(r."sumYY")::float8 AS syy, sum(r."sumXY")::float8 AS sxy
      FROM rollup_mentions r
      WHERE ${rollupScope(both)}
      GROUP BY 1, 2, 3
      HAVING sum(r.rows) > 0`,
  ]);
  return assembleShareOfVoice({
    from: f.from,
    to: f.to,
    fromDay: isoDay(f.from),
    tracked: [{ id: "brand", name: brand.name }, ...brand.competitors.map((c) => ({ id: c.id, name: c.name }))],
    answers: answers.map((r) => ({ day: isoDay(r.day), comparable: r.comparable, n: num(r.n), sumX: num(r.sx), sumXX: num(r.sxx) })),
    entities: entities.map((r) => ({ day: isoDay(r.day), comparable: r.comparable, entity: r.entity, name: r.name, sumY: num(r.sy), sumYY: num(r.syy), sumXY: num(r.sxy) })),
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
