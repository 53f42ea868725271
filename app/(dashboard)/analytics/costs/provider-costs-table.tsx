"use client";
import { ChartCard } from "@/components/charts/chart-card";
import { DataTable } from "@/components/ui/data-table";
import type { Column } from "@/components/ui/table-columns";
import { formatCount, formatDollarsExact, formatMicros } from "@/lib/format";
import type { AnalyticsFilterInput } from "@/lib/analytics/schemas";
import type { ChartData } from "@/lib/analytics/wire";
import { useChartQuery } from "../use-analytics-queries";

// The footer's totals line has a name but no provider id.
type Line = ChartData<"costs">["totals"] & { name: string; id?: string };

// A line per provider, and the same columns for the "All providers" totals in the footer.
const columns: Column<Line>[] = [
  { id: "provider", header: "Provider", rowHeader: true, className: "font-medium text-slate-900", cell: (p) => p.name },
  { id: "attempts", header: "Attempts", numeric: true, cell: (p) => formatCount(p.attempts) },
  { id: "spend", header: "Spend", numeric: true, cell: (p) => formatMicros(p.spentMicros) },
  { id: "accepted", header: "Accepted", numeric: true, cell: (p) => formatCount(p.acceptedCaptures) },
  {
    id: "per-accepted",
    header: "Per accepted",
    numeric: true,
    cell: (p) => (p.costPerAcceptedMicros === null ? "—" : formatMicros(Math.round(p.costPerAcceptedMicros), { precise: true })),
  },
  { id: "retry-waste", header: "Retry waste", numeric: true, cell: (p) => formatMicros(p.retryWasteMicros) },
  {
    id: "unknown",
    header: "Unknown",
    numeric: true,
    cell: (p) => (
      <>
        {p.unknownOutcomes}
        {p.unknownOutcomes > 0 && <span className="block text-xs text-slate-500">≈ {formatMicros(p.unknownCostMicros)}</span>}
      </>
    ),
  },
];

/** Per provider: attempts, spend, cost per accepted capture, retry waste and unknown outcomes. */
export function ProviderCostsTable({ filter }: { filter: AnalyticsFilterInput }) {
  const query = useChartQuery("costs", filter);
  const data = query.data;
  const csv = data && {
    filename: `costs-per-provider-${filter.from}-${filter.to}`,
    header: ["provider", "attempts", "spend_usd", "accepted_captures", "cost_per_accepted_usd", "retry_waste_usd", "unknown_outcomes", "unknown_estimated_usd"],
    rows: [...data.byProvider, { name: "All providers", ...data.totals }].map((p) => [
      p.name,
      p.attempts,
      formatDollarsExact(p.spentMicros),
      p.acceptedCaptures,
      p.costPerAcceptedMicros === null ? null : formatDollarsExact(p.costPerAcceptedMicros),
      formatDollarsExact(p.retryWasteMicros),
      p.unknownOutcomes,
      formatDollarsExact(p.unknownCostMicros),
    ]),
  };
  return (
    <ChartCard title="Costs per provider" description="Cost per accepted capture divides all attempt costs by the captures that succeeded in the range." status={query} isEmpty={!data?.byProvider.length} empty="No provider calls for these filters." csv={csv ?? undefined} height={120}>
      <DataTable
        rows={data?.byProvider ?? []}
        columns={columns}
        rowKey={(p) => p.id ?? p.name}
        footer={data && data.byProvider.length > 1 ? { name: "All providers", ...data.totals } : undefined}
        className="-mx-5 -mb-5 text-slate-700"
      />
    </ChartCard>
  );
}
