"use client";
import { Link } from "@/components/ui/link";
import { useMemo } from "react";
import { ChartCard } from "@/components/charts/chart-card";
import { seriesColor } from "@/components/charts/palette";
import { StackedBarChart } from "@/components/charts/stacked-bar-chart";
import type { AnalyticsFilterInput } from "@/lib/analytics/schemas";
import { formatCount } from "@/lib/format";
import { useChartQuery } from "../analytics/use-analytics-queries";
import { drawnSeries, stackedRows } from "./stacked-series";

const OTHER = "Other assistants";

/**
 * Visits that assistants sent to the brand's pages per day (per week past 120 days), a stack per
 * assistant, from the visits script. Without a site key the empty state says where to make one.
 */
export function VisitsChart({ filter, brandName, hasSiteKey }: { filter: AnalyticsFilterInput; brandName: string; hasSiteKey: boolean }) {
  const query = useChartQuery("traffic-visits", filter);
  const data = query.data;
  const drawn = useMemo(() => drawnSeries((data?.assistants ?? []).map((a) => a.assistant), OTHER), [data]);
  const rows = useMemo(() => (data ? stackedRows(data, drawn, OTHER, (row) => ({ name: row.assistant, value: row.visits })) : []), [data, drawn]);
  const total = data?.assistants.reduce((sum, a) => sum + a.visits, 0) ?? 0;
  const csv = data && {
    filename: `traffic-visits-${filter.from}-${filter.to}`,
    header: ["bucket_start", "assistant", "visits"],
    rows: data.rows.map((r) => [r.bucket, r.assistant, r.visits]),
  };
  const settings = (
    <Link href="/settings?tab=site-key" className="font-medium text-brand-700 underline underline-offset-2 hover:text-brand-800">
      Settings → Visits script
    </Link>
  );
  const empty = hasSiteKey ? (
    <>No visit from an assistant reached {brandName}&apos;s pages in these dates. Check that the visits script from {settings} is on your pages.</>
  ) : (
    <>Add the visits script to your site to count the people assistants send you: create a site key and copy the snippet in {settings}.</>
  );
  return (
    <ChartCard
      title="AI visits"
      description={`People that ChatGPT, Perplexity, Gemini and other assistants sent to ${brandName}'s pages, per ${data?.unit === "week" ? "week" : "day"} and assistant (from the visits script: the referrer or utm_source names the assistant).`}
      sample={data && `${formatCount(total)} visits`}
      status={query}
      isEmpty={!total}
      empty={empty}
      csv={csv ?? undefined}
      height={260}
    >
      <StackedBarChart rows={rows} height={260} series={drawn.map((name, i) => ({ key: name, name, color: seriesColor(i) }))} />
    </ChartCard>
  );
}
