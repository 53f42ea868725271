import "server-only";
import { num, previousPeriod, type AnalyticsFilter } from "@/lib/analytics/filter";
import { kpiChangeTest, type ChangeSums, type KpiChangeTest, type KpiMetric } from "@/lib/analytics/kpi-changes";
import { rollupScope } from "@/lib/analytics/rollups";
import { isoDay } from "@/lib/analytics/schemas";
import { change, meanInterval, ratioInterval, wilson, type Estimate } from "@/lib/analytics/stats";
import { readDb } from "@/lib/db/prisma";
import { Prisma } from "@/lib/generated/prisma/client";

/** One period's sums (kpiSums): what the numbers and their tests are computed from. */
export type KpiRow = ChangeSums;

/**
 * The sums behind the headline numbers, from the daily rollups. An answer counts once it has
 * been analysed for the brand (it has the brand's mention row); per answer, x is every tracked
 * entity's mention count and y the brand's, summed as y, x, y², x² and xy for the share of voice
 * interval.
 */
export async function kpiSums(f: AnalyticsFilter): Promise<KpiRow> {
  const [row] = await readDb().$queryRaw<KpiRow[]>`
    SELECT ${KPI_SUMS}
    FROM rollup_answers r
    WHERE ${rollupScope(f)}`;
  return row!;
}

/**
 * The prompts answered in scope in both of two adjacent periods (`first` ends where `second`
 * starts), and how many were answered in only one. A change between periods measured on
 * different prompts is partly a change of which questions were asked: a prompt added (or
 * archived) moves the numbers with nothing changed in the answers.
 */
export async function promptsAnsweredInBoth(first: AnalyticsFilter, second: AnalyticsFilter): Promise<{ promptIds: string[]; inOneOnly: number }> {
  if (first.to.getTime() !== second.from.getTime()) throw new Error("promptsAnsweredInBoth compares adjacent periods");
  const boundary = isoDay(second.from);
  const rows = await readDb().$queryRaw<{ id: string; both: boolean }[]>`
    SELECT r."promptId" AS id, bool_or(r.day < ${boundary}::date) AND bool_or(r.day >= ${boundary}::date) AS both
    FROM rollup_answers r WHERE ${rollupScope({ ...second, from: first.from })} AND r.answers > 0
    GROUP BY r."promptId"`;
  return { promptIds: rows.filter((r) => r.both).map((r) => r.id), inOneOnly: rows.filter((r) => !r.both).length };
}

/** The sums of KpiRow over the rollup_answers rows `r` of a query (per group when it groups). */
export const KPI_SUMS = Prisma.sql`
      coalesce(sum(r.answers), 0)::int AS n,
      coalesce(sum(r.mentioned), 0)::int AS mentioned,
      coalesce(sum(r."positionN"), 0)::int AS pos_n,
      coalesce(sum(r."positionSum"), 0)::float8 AS pos_sum,
      coalesce(sum(r."positionSumSq"), 0)::float8 AS pos_sumsq,
      coalesce(sum(r.positive), 0)::int AS positive,
      coalesce(sum(r.neutral), 0)::int AS neutral,
      coalesce(sum(r.negative), 0)::int AS negative,
      coalesce(sum(r."sumY"), 0)::float8 AS sy, coalesce(sum(r."sumX"), 0)::float8 AS sx,
      coalesce(sum(r."sumYY"), 0)::float8 AS syy, coalesce(sum(r."sumXX"), 0)::float8 AS sxx, coalesce(sum(r."sumXY"), 0)::float8 AS sxy`;

/** The headline numbers, each with its n and 95 % interval, from the sums of KpiRow. */
export function estimates(r: KpiRow) {
  const mentioned = num(r.mentioned);
  return {
    visibility: wilson(mentioned, num(r.n)),
    shareOfVoice: ratioInterval({ n: num(r.n), sumY: num(r.sy), sumX: num(r.sx), sumYY: num(r.syy), sumXX: num(r.sxx), sumXY: num(r.sxy) }),
    averagePosition: meanInterval(num(r.pos_sum), num(r.pos_sumsq), num(r.pos_n)),
    sentiment: {
      positive: wilson(num(r.positive), mentioned),
      neutral: wilson(num(r.neutral), mentioned),
      negative: wilson(num(r.negative), mentioned),
    },
  };
}

/** `test`: whether the change is beyond sampling noise (lib/analytics/kpi-changes.ts); null when a period has too few answers. */
export type Kpi = { current: Estimate; previous: Estimate; change: number | null; test: KpiChangeTest | null };

/**
 * Visibility (captures mentioning the brand / captures), share of voice (brand mentions / all
 * tracked mentions), average position (where mentioned) and sentiment mix (among captures that
 * mention the brand), each for this period and the one before it.
 */
export async function overviewKpis(f: AnalyticsFilter) {
  const [now, before] = await Promise.all([kpiSums(f), kpiSums(previousPeriod(f))]);
  const c = estimates(now);
  const p = estimates(before);
  const kpi = (current: Estimate, previous: Estimate, metric: KpiMetric): Kpi => ({ current, previous, change: change(current, previous), test: kpiChangeTest(metric, before, now) });
  return {
    captures: num(now.n),
    previousCaptures: num(before.n),
    previousFrom: previousPeriod(f).from,
    visibility: kpi(c.visibility, p.visibility, "visibility"),
    shareOfVoice: kpi(c.shareOfVoice, p.shareOfVoice, "share_of_voice"),
    averagePosition: kpi(c.averagePosition, p.averagePosition, "position"),
    sentiment: {
      positive: kpi(c.sentiment.positive, p.sentiment.positive, "positive"),
      neutral: kpi(c.sentiment.neutral, p.sentiment.neutral, "neutral"),
      negative: kpi(c.sentiment.negative, p.sentiment.negative, "negative"),
    },
  };
}

export type OverviewKpis = Awaited<ReturnType<typeof overviewKpis>>;
