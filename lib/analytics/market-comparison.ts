import "server-only";
import { MARKET_OF_PROMPT, num, type AnalyticsFilter } from "@/lib/analytics/filter";
import { estimates, KPI_SUMS, type KpiRow } from "@/lib/analytics/kpis";
import { marketLabel } from "@/lib/analytics/markets";
import { rollupScope } from "@/lib/analytics/rollups";
import { readDb } from "@/lib/db/prisma";

/**
 * The headline numbers per market (the prompt's country and language), largest first, each with
 * its n and 95 % interval, so markets are compared with their noise in view. From the daily
 * rollups, which are per prompt.
 */
export async function marketComparison(f: AnalyticsFilter) {
  const rows = await readDb().$queryRaw<(KpiRow & { market: string })[]>`
    SELECT ${MARKET_OF_PROMPT} AS market, ${KPI_SUMS}
    FROM rollup_answers r JOIN prompts p ON p.id = r."promptId"
    WHERE ${rollupScope(f)}
    GROUP BY 1
    HAVING sum(r.answers) > 0
    ORDER BY sum(r.answers) DESC, 1`;
  return rows.map((row) => {
    const e = estimates(row);
    return { market: row.market, label: marketLabel(row.market), answers: num(row.n), visibility: e.visibility, shareOfVoice: e.shareOfVoice, averagePosition: e.averagePosition };
  });
}

export type MarketComparison = Awaited<ReturnType<typeof marketComparison>>;
