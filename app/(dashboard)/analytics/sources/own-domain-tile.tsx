"use client";
import { formatCount, formatInterval, formatPct } from "@/lib/format";
import { KpiTile } from "@/components/charts/kpi-tile";
import { Card } from "@/components/ui/card";
import type { AnalyticsFilterInput } from "@/lib/analytics/schemas";
import { useChartQuery } from "../use-analytics-queries";

/** Answers that cite at least one of the brand's own domains. */
export function OwnDomainTile({ filter, brandName }: { filter: AnalyticsFilterInput; brandName: string }) {
  const query = useChartQuery("own-domain", filter);
  if (query.isError) return <Card role="alert" className="p-4 text-sm text-red-600">Could not load the own-domain rate: {query.error.message}</Card>;
  const own = query.data;
  return (
    <KpiTile
      label="Own-domain citation rate"
      loading={query.isPending || !own}
      value={formatPct(own?.value)}
      interval={own ? formatInterval(own.low, own.high, "share") : null}
      n={own && `${formatCount(own.citing)} of ${formatCount(own.n)} answers`}
    >
      <p className="mt-2 text-xs text-slate-500">Answers that cite at least one of {brandName}&apos;s own domains (set under Brands).</p>
    </KpiTile>
  );
}
