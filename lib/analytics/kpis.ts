import "server-only";
import { captureScope, num, previousPeriod, type AnalyticsFilter } from "@/lib/analytics/filter";
import { change, meanInterval, ratioInterval, wilson, type Estimate } from "@/lib/analytics/stats";
import { db } from "@/lib/db/prisma";

type KpiRow = {
  n: number;
  mentioned: number;
  pos_n: number;
  pos_sum: number;
  pos_sumsq: number;
  positive: number;
  neutral: number;
  negative: number;
  sy: number;
  sx: number;
  syy: number;
  sxx: number;
  sxy: number;
};

/**
 * One pass over the captures in scope and their mentions. A capture counts once it has been
 * analysed for the brand (it has the brand's mention row); x is every tracked entity's mention
 * count in the answer, y the brand's.
 */
async function kpiSums(f: AnalyticsFilter): Promise<KpiRow> {
  const [row] = await db().$queryRaw<KpiRow[]>`
    WITH per_capture AS (
      SELECT
        bool_or(m.mentioned) FILTER (WHERE m.kind = 'brand') AS mentioned,
        min(m.position) FILTER (WHERE m.kind = 'brand' AND m.mentioned) AS position,
        min(m.sentiment::text) FILTER (WHERE m.kind = 'brand' AND m.mentioned) AS sentiment,
        coalesce(sum(m.count) FILTER (WHERE m.kind = 'brand'), 0)::float8 AS y,
        coalesce(sum(m.count), 0)::float8 AS x
      FROM captures c JOIN mentions m ON m."captureId" = c.id
      WHERE ${captureScope(f)}
      GROUP BY c.id
      HAVING count(*) FILTER (WHERE m.kind = 'brand') > 0
    )
    SELECT
      count(*)::int AS n,
      count(*) FILTER (WHERE mentioned)::int AS mentioned,
      count(position)::int AS pos_n,
      coalesce(sum(position), 0)::float8 AS pos_sum,
      coalesce(sum(position * position), 0)::float8 AS pos_sumsq,
      count(*) FILTER (WHERE mentioned AND sentiment = 'positive')::int AS positive,
      count(*) FILTER (WHERE mentioned AND sentiment = 'neutral')::int AS neutral,
      count(*) FILTER (WHERE mentioned AND sentiment = 'negative')::int AS negative,
      coalesce(sum(y), 0)::float8 AS sy, coalesce(sum(x), 0)::float8 AS sx,
      coalesce(sum(y * y), 0)::float8 AS syy, coalesce(sum(x * x), 0)::float8 AS sxx, coalesce(sum(x * y), 0)::float8 AS sxy
    FROM per_capture`;
  return row!;
}

function estimates(r: KpiRow) {
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

export type Kpi = { current: Estimate; previous: Estimate; change: number | null };

const kpi = (current: Estimate, previous: Estimate): Kpi => ({ current, previous, change: change(current, previous) });

/**
 * Visibility (captures mentioning the brand / captures), share of voice (brand mentions / all
 * tracked mentions), average position (where mentioned) and sentiment mix (among captures that
 * mention the brand), each for this period and the one before it.
 */
export async function overviewKpis(f: AnalyticsFilter) {
  const [now, before] = await Promise.all([kpiSums(f), kpiSums(previousPeriod(f))]);
  const c = estimates(now);
  const p = estimates(before);
  return {
    captures: num(now.n),
    previousCaptures: num(before.n),
    previousFrom: previousPeriod(f).from,
    visibility: kpi(c.visibility, p.visibility),
    shareOfVoice: kpi(c.shareOfVoice, p.shareOfVoice),
    averagePosition: kpi(c.averagePosition, p.averagePosition),
    sentiment: {
      positive: kpi(c.sentiment.positive, p.sentiment.positive),
      neutral: kpi(c.sentiment.neutral, p.sentiment.neutral),
      negative: kpi(c.sentiment.negative, p.sentiment.negative),
    },
  };
}

export type OverviewKpis = Awaited<ReturnType<typeof overviewKpis>>;
