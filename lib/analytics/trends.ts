import "server-only";
import { bucketKeys, bucketOf, bucketUnit, num, type ResolvedFilter } from "@/lib/analytics/filter";
import { rollupScope } from "@/lib/analytics/rollups";
import { isoDay } from "@/lib/analytics/schemas";
import { wilson } from "@/lib/analytics/stats";
import { readDb } from "@/lib/db/prisma";
import { Prisma } from "@/lib/generated/prisma/client";

/**
 * Share of voice per bucket for the brand and each competitor: an entity's mention count over
 * the count of all tracked entities in that bucket, so the shares of a bucket add up to 1.
 * `answers`: the answers analysed for the brand, the chart's sample size.
 */
export async function shareOfVoiceOverTime({ filter: f, brand }: ResolvedFilter) {
  const rows = await readDb().$queryRaw<{ bucket: Date; entity: string; name: string; mentions: number; answers: number }[]>`
    SELECT ${bucketOf(f, Prisma.sql`r.day::timestamp`)} AS bucket, r.entity,
      max(r.name) AS name, sum(r.mentions)::int AS mentions, (sum(r.rows) FILTER (WHERE r.entity = 'brand'))::int AS answers
    FROM rollup_mentions r
    WHERE ${rollupScope(f)}
    GROUP BY 1, 2
    HAVING sum(r.rows) > 0`;
  const names = new Map<string, string>([["brand", brand.name], ...brand.competitors.map((c) => [c.id, c.name] as [string, string])]);
  for (const r of rows) if (!names.has(r.entity)) names.set(r.entity, r.name);
  const totals = new Map<string, number>();
  const byBucket = new Map<string, Map<string, number>>();
  for (const r of rows) {
    const key = isoDay(r.bucket);
    totals.set(key, (totals.get(key) ?? 0) + num(r.mentions));
    if (!byBucket.has(key)) byBucket.set(key, new Map());
    byBucket.get(key)!.set(r.entity, num(r.mentions));
  }
  const entities = [...names].map(([id, name]) => ({ id, name }));
  const points = bucketKeys(f).map((bucket) => {
    const total = totals.get(bucket) ?? 0;
    const mentions = Object.fromEntries(entities.map((e) => [e.id, byBucket.get(bucket)?.get(e.id) ?? 0]));
    const shares = Object.fromEntries(entities.map((e) => [e.id, total ? mentions[e.id]! / total : null]));
    return { bucket, total, mentions, shares };
  });
  return { unit: bucketUnit(f), entities, points, answers: rows.reduce((n, r) => n + num(r.answers), 0) };
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
