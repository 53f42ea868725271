"use client";
import { useMemo, type ReactNode } from "react";
import { ChartCard } from "@/components/charts/chart-card";
import { seriesColor } from "@/components/charts/palette";
import { StackedBarChart, type StackedSeries } from "@/components/charts/stacked-bar-chart";
import { DataTable } from "@/components/ui/data-table";
import type { Column } from "@/components/ui/table-columns";
import type { AnalyticsFilterInput } from "@/lib/analytics/schemas";
import type { ChartData } from "@/lib/analytics/wire";
import { formatCount } from "@/lib/format";
import { useChartQuery } from "../analytics/use-analytics-queries";
import { drawnSeries, stackedRows } from "./stacked-series";

type Crawler = ChartData<"traffic-crawls">["crawlers"][number];

const OTHER = "Other crawlers";

const PURPOSE: Record<string, string> = { training: "Model training", search: "Search index", user: "Live fetch for a user" };

const columns: Column<Crawler>[] = [
  { id: "crawler", header: "Crawler", className: "font-medium text-slate-900", cell: (c) => c.crawler },
  { id: "operator", header: "Operator", className: "text-slate-700", cell: (c) => c.operator },
  { id: "purpose", header: "Purpose", className: "text-slate-700", cell: (c) => (c.purpose ? PURPOSE[c.purpose] : "Unknown") },
  { id: "hits", header: "Requests", numeric: true, cell: (c) => formatCount(c.hits) },
  { id: "verified", header: "Verified", numeric: true, cell: (c) => formatCount(c.verified) },
  { id: "unverified", header: "Unverified", numeric: true, cell: (c) => formatCount(c.unverified) },
  { id: "unchecked", header: "Not checkable", numeric: true, cell: (c) => formatCount(c.unchecked) },
];

/**
 * Crawler requests per day (per week past 120 days), a stack per crawler; each crawler's
 * unverified requests (a claim from an address its operator does not publish) are a paler,
 * separate segment. Below, every crawler with its operator, purpose and verification counts.
 */
export function CrawlsChart({ filter, empty }: { filter: AnalyticsFilterInput; empty: ReactNode }) {
  const query = useChartQuery("traffic-crawls", filter);
  const data = query.data;
  const drawn = useMemo(() => drawnSeries((data?.crawlers ?? []).map((c) => c.crawler), OTHER), [data]);
  const rows = useMemo(
    () => (data ? stackedRows(data, drawn, OTHER, (row) => ({ name: row.crawler, value: row.hits, suffix: row.verification === "unverified" ? " (unverified)" : "" })) : []),
    [data, drawn],
  );
  // A legend entry only for a segment that has requests: a crawler seen only unverified shows no solid swatch.
  const hasHits = (key: string) => rows.some((row) => Number(row[key] ?? 0) > 0);
  const series: StackedSeries[] = drawn.flatMap((name, i) =>
    [name, `${name} (unverified)`].map((key) => ({ key, name: key, color: seriesColor(i), pale: key !== name, inLegend: hasHits(key) })),
  );
  const total = data?.crawlers.reduce((sum, c) => sum + c.hits, 0) ?? 0;
  const unverified = data?.crawlers.reduce((sum, c) => sum + c.unverified, 0) ?? 0;
  const csv = data && {
    filename: `traffic-crawls-${filter.from}-${filter.to}`,
    header: ["bucket_start", "crawler", "operator", "purpose", "verification", "requests"],
    rows: data.rows.map((r) => {
      const c = data.crawlers.find((x) => x.crawler === r.crawler);
      return [r.bucket, r.crawler, c?.operator ?? "", c?.purpose ?? "", r.verification, r.hits];
    }),
  };
  return (
    <ChartCard
      title="AI crawler requests"
      description={`Requests to your domains per ${data?.unit === "week" ? "week" : "day"} and crawler. Paler segments are unverified: the request claimed a crawler's name from an address its operator does not publish.`}
      sample={data && `${formatCount(total)} requests, ${formatCount(unverified)} unverified`}
      status={query}
      isEmpty={!total}
      empty={empty}
      csv={csv ?? undefined}
      height={300}
    >
      <StackedBarChart rows={rows} height={300} series={series} />
      <div className="-mx-5 -mb-5 mt-4">
        <DataTable rows={data?.crawlers ?? []} columns={columns} rowKey={(c) => c.crawler} label="Crawlers" density="dense" />
      </div>
    </ChartCard>
  );
}
