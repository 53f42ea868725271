import "server-only";
import type { ResolvedFilter } from "@/lib/analytics/filter";
import { overviewKpis } from "@/lib/analytics/kpis";
import { promptPerformance } from "@/lib/analytics/prompts";
import { positionDistribution, shareOfVoiceOverTime, visibilityOverTime } from "@/lib/analytics/trends";

/** Everything the Overview shows for one filter; the queries run side by side. */
export async function overviewDashboard(resolved: ResolvedFilter) {
  const [kpis, visibility, shareOfVoice, positions, prompts] = await Promise.all([
    overviewKpis(resolved.filter),
    visibilityOverTime(resolved),
    shareOfVoiceOverTime(resolved),
    positionDistribution(resolved),
    promptPerformance(resolved.filter),
  ]);
  return { brand: { id: resolved.brand.id, name: resolved.brand.name }, kpis, visibility, shareOfVoice, positions, prompts };
}

export type OverviewDashboard = Awaited<ReturnType<typeof overviewDashboard>>;
