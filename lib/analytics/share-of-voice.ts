// Share of voice over time, each share with its 95 % interval, and each entity's change against
// the previous period judged by the same test as the Overview's tile and the alerts
// (lib/analytics/kpi-changes.ts). Pure: the rollup query (lib/analytics/trends.ts) and the raw-row
// oracle of the tests hand it daily sums, so both assemble the chart alike.
//
// The sampling unit is the answer, as for the tile: per answer y = an entity's mentions and x =
// all tracked mentions; an entity's share is Σy / Σx with the delta-method interval
// (lib/analytics/stats.ts ratioInterval). Counting mentions as independent trials would make the
// intervals too narrow: one answer that names a competitor five times is one observation.
import { ratioChangeTest, type KpiChangeTest } from "@/lib/analytics/kpi-changes";
import { change, ratioInterval, type Estimate, type RatioSums } from "@/lib/analytics/stats";
import { bucketStart, bucketStarts, chooseTrendUnit, median, MIN_MEDIAN_N, type TrendUnit } from "@/lib/analytics/trend-buckets";
import { daysBetween } from "@/lib/analytics/schemas";

/**
 * One day's analysed answers: their number and Σx, Σx². `comparable`: those of prompts answered in
 * both periods (lib/analytics/kpis.ts comparablePrompts), on which the change is measured; a day
 * has a row of each.
 */
export type AnswerDay = { day: string; comparable: boolean; n: number; sumX: number; sumXX: number };
/** One day's sums of one entity ("brand", a competitor's id, or "name:" + an untracked name), split as AnswerDay's. */
export type EntityDay = { day: string; comparable: boolean; entity: string; name: string; sumY: number; sumYY: number; sumXY: number };

type Sums = { n: number; sumX: number; sumXX: number; y: Map<string, { sumY: number; sumYY: number; sumXY: number }> };

const emptySums = (): Sums => ({ n: 0, sumX: 0, sumXX: 0, y: new Map() });

function add(sums: Sums, answers: AnswerDay[], entities: EntityDay[]): Sums {
  for (const a of answers) {
    sums.n += a.n;
    sums.sumX += a.sumX;
    sums.sumXX += a.sumXX;
  }
  for (const e of entities) {
    const y = sums.y.get(e.entity) ?? { sumY: 0, sumYY: 0, sumXY: 0 };
    sums.y.set(e.entity, { sumY: y.sumY + e.sumY, sumYY: y.sumYY + e.sumYY, sumXY: y.sumXY + e.sumXY });
  }
  return sums;
}

const ratioSums = (s: Sums, entity: string): RatioSums => {
  const y = s.y.get(entity) ?? { sumY: 0, sumYY: 0, sumXY: 0 };
  return { n: s.n, sumX: s.sumX, sumXX: s.sumXX, sumY: y.sumY, sumYY: y.sumYY, sumXY: y.sumXY };
};

export type ShareOfVoicePoint = { bucket: string; answers: number; total: number; mentions: Record<string, number>; shares: Record<string, Estimate> };

/**
 * The chart from daily sums of this period ([from, to)) and the previous one of equal length
 * (days before `from`). `tracked`: the brand and its competitors, always listed; untracked names
 * follow when this period names them. The unit is the trend rule's (the finest of day, week,
 * month whose points rest on a median of MIN_MEDIAN_N answers) unless `asked`.
 */
export function assembleShareOfVoice(input: {
  from: Date;
  to: Date;
  fromDay: string;
  tracked: { id: string; name: string }[];
  answers: AnswerDay[];
  entities: EntityDay[];
  asked: TrendUnit | "auto";
}) {
  const current = (d: { day: string }) => d.day >= input.fromDay;
  const answersNow = input.answers.filter(current);
  const entitiesNow = input.entities.filter(current);
  const names = new Map(input.tracked.map((e) => [e.id, e.name]));
  // Untracked names too; not a competitor removed since, whose rows wait for its brand's re-analysis.
  for (const e of entitiesNow) if (!names.has(e.entity) && e.entity.startsWith("name:")) names.set(e.entity, e.name);
  const entities = [...names].map(([id, name]) => ({ id, name }));

  const chosen = chooseTrendUnit(answersNow.map((a) => ({ day: a.day, series: "all", n: a.n })), daysBetween(input.from, input.to));
  const unit = input.asked === "auto" ? chosen.unit : input.asked;
  const byBucket = new Map<string, Sums>();
  const bucketOf = (day: string) => {
    const key = bucketStart(day, unit);
    if (!byBucket.has(key)) byBucket.set(key, emptySums());
    return byBucket.get(key)!;
  };
  for (const a of answersNow) add(bucketOf(a.day), [a], []);
  for (const e of entitiesNow) add(bucketOf(e.day), [], [e]);

  const points: ShareOfVoicePoint[] = bucketStarts(input.from, input.to, unit).map((bucket) => {
    const s = byBucket.get(bucket) ?? emptySums();
    return {
      bucket,
      answers: s.n,
      total: s.sumX,
      mentions: Object.fromEntries(entities.map((e) => [e.id, s.y.get(e.id)?.sumY ?? 0])),
      shares: Object.fromEntries(entities.map((e) => [e.id, ratioInterval(ratioSums(s, e.id))])),
    };
  });

  const answersBefore = input.answers.filter((d) => !current(d));
  const entitiesBefore = input.entities.filter((d) => !current(d));
  const now = add(emptySums(), answersNow, entitiesNow);
  const before = add(emptySums(), answersBefore, entitiesBefore);
  const comparable = (d: { comparable: boolean }) => d.comparable;
  const comparableNow = add(emptySums(), answersNow.filter(comparable), entitiesNow.filter(comparable));
  const comparableBefore = add(emptySums(), answersBefore.filter(comparable), entitiesBefore.filter(comparable));
  /**
   * Each entity's share over the whole period and the previous one, and the change between them
   * on the prompts answered in both (`compared`), with whether it is beyond noise, as the
   * Overview's tiles measure theirs (lib/analytics/kpis.ts).
   */
  const period: Record<string, { current: Estimate; previous: Estimate; change: number | null; test: KpiChangeTest | null; compared: { current: Estimate; previous: Estimate } }> =
    Object.fromEntries(
      entities.map((e) => {
        const compared = { current: ratioInterval(ratioSums(comparableNow, e.id)), previous: ratioInterval(ratioSums(comparableBefore, e.id)) };
        return [
          e.id,
          {
            current: ratioInterval(ratioSums(now, e.id)),
            previous: ratioInterval(ratioSums(before, e.id)),
            change: change(compared.current, compared.previous),
            test: ratioChangeTest(ratioSums(comparableBefore, e.id), ratioSums(comparableNow, e.id)),
            compared,
          },
        ];
      }),
    );
  const sizes = points.filter((p) => p.answers > 0).map((p) => p.answers);
  return {
    unit,
    /** As the visibility chart's: how the unit was chosen and the median answers per drawn point. */
    bucketRule: { chosenBy: input.asked === "auto" ? ("data" as const) : ("asked" as const), medianN: median(sizes), minMedianN: MIN_MEDIAN_N },
    entities,
    points,
    period,
    answers: now.n,
  };
}

export type ShareOfVoice = ReturnType<typeof assembleShareOfVoice>;
