import "server-only";
import { num, previousPeriod, type AnalyticsFilter } from "@/lib/analytics/filter";
import { kpiChangeTest, type ChangeSums, type KpiChangeTest, type KpiMetric } from "@/lib/analytics/kpi-changes";
import { rollupScope } from "@/lib/analytics/rollups";
import { isoDay } from "@/lib/analytics/schemas";
import { change, meanInterval, ratioInterval, wilson, type Estimate } from "@/lib/analytics/stats";
import { readDb } from "@/lib/db/prisma";
import { Prisma } from "@/lib/generated/prisma/client";

/**
 * One period's sums: what the numbers and their tests are computed from, from the daily rollups.
 * An answer counts once it has been analysed for the brand (it has the brand's mention row); per
 * answer, x is every tracked entity's mention count and y the brand's, summed as y, x, y², x² and
 * xy for the share of voice interval.
 */
export type KpiRow = ChangeSums;

/** The columns of KpiRow: each rollup_answers column, its name in KpiRow, and its type. One list for every sum below. */
const KPI_COLUMNS = [
  ["answers", "n", "int"],
  ["mentioned", "mentioned", "int"],
  ["positionN", "pos_n", "int"],
  ["positionSum", "pos_sum", "float8"],
  ["positionSumSq", "pos_sumsq", "float8"],
  ["positive", "positive", "int"],
  ["neutral", "neutral", "int"],
  ["negative", "negative", "int"],
  ["sumY", "sy", "float8"],
  ["sumX", "sx", "float8"],
  ["sumYY", "syy", "float8"],
  ["sumXX", "sxx", "float8"],
  ["sumXY", "sxy", "float8"],
] as const satisfies readonly (readonly [string, keyof KpiRow, "int" | "float8"])[];

/** The sums of KpiRow over the rollup_answers rows `r` of a query (per group when it groups). */
export const KPI_SUMS = Prisma.raw(KPI_COLUMNS.map(([column, name, type]) => `coalesce(sum(r."${column}"), 0)::${type} AS ${name}`).join(", "));

/** The same sums over rows `alias` that are already KpiRows (sums of groups). */
const kpiResums = (alias: string) => Prisma.raw(KPI_COLUMNS.map(([, name, type]) => `coalesce(sum(${alias}.${name}), 0)::${type} AS ${name}`).join(", "));

const ZERO_SUMS = Object.fromEntries(KPI_COLUMNS.map(([, name]) => [name, 0])) as KpiRow;

/** Two periods' sums: all their answers, and (`comparable`) only the prompts answered in both. */
export type ComparedSums = {
  before: KpiRow;
  now: KpiRow;
  comparable: { before: KpiRow; now: KpiRow; promptIds: string[]; inOneOnly: number };
};

/**
 * The prompts answered in scope in both of two adjacent periods (`previous` ends where `current`
 * starts), as a subquery of "promptId": what every change between periods is measured on (the
 * Overview's tiles, its share of voice chart, the metric_change alert). A change measured on
 * different prompts is partly a change of which questions were asked: a prompt added (or
 * archived) moves the numbers with nothing changed in the answers.
 */
export function comparablePrompts(previous: AnalyticsFilter, current: AnalyticsFilter): Prisma.Sql {
  if (previous.to.getTime() !== current.from.getTime()) throw new Error("comparablePrompts compares adjacent periods");
  const boundary = isoDay(current.from);
  return Prisma.sql`
    SELECT r."promptId" FROM rollup_answers r
    WHERE ${rollupScope({ ...current, from: previous.from })} AND r.answers > 0
    GROUP BY 1
    HAVING bool_or(r.day < ${boundary}::date) AND bool_or(r.day >= ${boundary}::date)`;
}

/**
 * The sums of two adjacent periods: all their answers (each period's level), and like with like,
 * only the prompts answered in both (comparablePrompts), with how many were answered in only one.
 */
export async function comparedSums(previous: AnalyticsFilter, current: AnalyticsFilter): Promise<ComparedSums> {
  const rows = await readDb().$queryRaw<(KpiRow & { current: boolean; both: boolean; promptIds: string[]; inOneOnly: number })[]>`
    WITH comparable AS (${comparablePrompts(previous, current)}
    ), per_prompt AS (
      SELECT r."promptId", r.day >= ${isoDay(current.from)}::date AS current, ${KPI_SUMS}
      FROM rollup_answers r
      WHERE ${rollupScope({ ...current, from: previous.from })}
      GROUP BY 1, 2
    )
    SELECT g.current, g."promptId" IN (SELECT "promptId" FROM comparable) AS both, ${kpiResums("g")},
      (SELECT coalesce(array_agg("promptId"::text ORDER BY "promptId"), '{}') FROM comparable) AS "promptIds",
      (SELECT count(DISTINCT "promptId")::int FROM per_prompt WHERE n > 0) - (SELECT count(*)::int FROM comparable) AS "inOneOnly"
    FROM per_prompt g
    GROUP BY 1, 2`;
  const part = (current: boolean, both: boolean) => rows.find((r) => r.current === current && r.both === both) ?? ZERO_SUMS;
  const add = (a: KpiRow, b: KpiRow) => Object.fromEntries(KPI_COLUMNS.map(([, name]) => [name, num(a[name]) + num(b[name])])) as KpiRow;
  return {
    before: add(part(false, true), part(false, false)),
    now: add(part(true, true), part(true, false)),
    comparable: { before: part(false, true), now: part(true, true), promptIds: rows[0]?.promptIds ?? [], inOneOnly: rows[0]?.inOneOnly ?? 0 },
  };
}

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

/**
 * `current` and `previous`: each period's level, over all its answers. `change` and `test` (whether
 * it is beyond sampling noise, lib/analytics/kpi-changes.ts; null when a period has too few
 * answers) compare like with like, the prompts answered in both periods (`compared`: the two
 * periods on those), as the metric_change alert does.
 */
export type Kpi = { current: Estimate; previous: Estimate; change: number | null; test: KpiChangeTest | null; compared: { current: Estimate; previous: Estimate } };

type Estimates = ReturnType<typeof estimates>;

/**
 * Visibility (captures mentioning the brand / captures), share of voice (brand mentions / all
 * tracked mentions), average position (where mentioned) and sentiment mix (among captures that
 * mention the brand), each for this period and the one before it, and the change between them on
 * the prompts answered in both (`comparedPrompts`; `promptsInOnePeriod` were left out).
 */
export async function overviewKpis(f: AnalyticsFilter) {
  const previous = previousPeriod(f);
  return assembleKpis(await comparedSums(previous, f), previous);
}

/** overviewKpis from two periods' sums (pure: the tests' raw-row oracle hands it its own sums). */
export function assembleKpis(sums: ComparedSums, previous: AnalyticsFilter) {
  const [now, before] = [estimates(sums.now), estimates(sums.before)];
  const [comparableNow, comparableBefore] = [estimates(sums.comparable.now), estimates(sums.comparable.before)];
  const kpi = (pick: (e: Estimates) => Estimate, metric: KpiMetric): Kpi => ({
    current: pick(now),
    previous: pick(before),
    change: change(pick(comparableNow), pick(comparableBefore)),
    test: kpiChangeTest(metric, sums.comparable.before, sums.comparable.now),
    compared: { current: pick(comparableNow), previous: pick(comparableBefore) },
  });
  return {
    captures: num(sums.now.n),
    previousCaptures: num(sums.before.n),
    previousFrom: previous.from,
    comparedPrompts: sums.comparable.promptIds.length,
    promptsInOnePeriod: sums.comparable.inOneOnly,
    visibility: kpi((e) => e.visibility, "visibility"),
    shareOfVoice: kpi((e) => e.shareOfVoice, "share_of_voice"),
    averagePosition: kpi((e) => e.averagePosition, "position"),
    sentiment: {
      positive: kpi((e) => e.sentiment.positive, "positive"),
      neutral: kpi((e) => e.sentiment.neutral, "neutral"),
      negative: kpi((e) => e.sentiment.negative, "negative"),
    },
  };
}

export type OverviewKpis = ReturnType<typeof assembleKpis>;
