"use client";
import { useMemo, type ReactNode } from "react";
import type { TooltipContentProps } from "recharts";
import { ChartCard } from "@/components/charts/chart-card";
import { TooltipBox } from "@/components/charts/chart-tooltip";
import { StackedBarChart } from "@/components/charts/stacked-bar-chart";
import { formatBucket, formatCount } from "@/lib/format";
import { seriesColor } from "@/components/charts/palette";
import type { AnalyticsFilterInput } from "@/lib/analytics/schemas";
import type { ChartData } from "@/lib/analytics/wire";
import { useChartQuery } from "../use-analytics-queries";
import { displayHost } from "@/lib/analysis/host";

type Domains = ChartData<"top-domains">;

const label = (d: { domain: string; own: boolean }) => (d.own ? `${displayHost(d.domain)} (own)` : displayHost(d.domain));

/** The 8 most cited domains of the range, stacked per day (per week past 120 days). */
export function TopDomainsChart({ filter, empty }: { filter: AnalyticsFilterInput; empty: ReactNode }) {
  const query = useChartQuery("top-domains", filter);
  const domains = query.data;
  const rows = useMemo(
    () => domains?.points.map((p) => ({ bucket: p.bucket, label: formatBucket(p.bucket, domains.unit), ...p.counts })) ?? [],
    [domains],
  );
  const total = domains?.domains.reduce((sum, d) => sum + d.citations, 0) ?? 0;
  const csv = domains && {
    filename: `top-cited-domains-${filter.from}-${filter.to}`,
    header: ["bucket_start", "domain", "own_domain", "citations"],
    rows: domains.points.flatMap((p) => domains.domains.map((d) => [p.bucket, d.domain, d.own, p.counts[d.domain] ?? 0])),
  };
  return (
    <ChartCard
      title="Top cited domains"
      description={`Citations of the ${domains?.domains.length || 8} most cited domains per ${domains?.unit === "week" ? "week" : "day"}; sources a provider only retrieved are not counted.`}
      sample={domains && `${formatCount(total)} citations of these domains`}
      status={query}
      isEmpty={!total}
      empty={empty}
      csv={csv ?? undefined}
      height={300}
    >
      <StackedBarChart
        rows={rows}
        height={300}
        series={domains?.domains.map((d, i) => ({ key: d.domain, name: label(d), color: seriesColor(i) })) ?? []}
        tooltip={(props) => <DomainsTooltip {...props} domains={domains!} />}
      />
    </ChartCard>
  );
}

function DomainsTooltip({ active, payload, domains }: Pick<TooltipContentProps, "active" | "payload"> & { domains: Domains }) {
  const bucket = payload?.[0]?.payload?.bucket as string | undefined;
  const point = domains.points.find((p) => p.bucket === bucket);
  if (!active || !point) return null;
  const lines = domains.domains
    .map((d, i) => ({ color: seriesColor(i), label: label(d), value: point.counts[d.domain] ?? 0 }))
    .filter((l) => l.value > 0)
    .sort((a, b) => b.value - a.value);
  return <TooltipBox title={`${domains.unit === "week" ? "Week of " : ""}${formatBucket(point.bucket)}`} lines={lines.length ? lines : [{ color: "#cbd5e1", label: "No citations", value: "" }]} />;
}
