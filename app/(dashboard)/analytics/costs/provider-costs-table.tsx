"use client";
import { ChartCard } from "@/components/charts/chart-card";
import { formatCount, formatDollarsExact, formatMicros } from "@/lib/format";
import type { AnalyticsFilterInput } from "@/lib/analytics/schemas";
import type { ChartData } from "@/lib/analytics/wire";
import { useChartQuery } from "../use-analytics-queries";

type Line = ChartData<"costs">["totals"];

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
  const cells = (p: Line) => (
    <>
      <td className="px-4 py-3 text-right tabular-nums">{formatCount(p.attempts)}</td>
      <td className="px-4 py-3 text-right tabular-nums">{formatMicros(p.spentMicros)}</td>
      <td className="px-4 py-3 text-right tabular-nums">{formatCount(p.acceptedCaptures)}</td>
      <td className="px-4 py-3 text-right tabular-nums">{p.costPerAcceptedMicros === null ? "—" : formatMicros(Math.round(p.costPerAcceptedMicros), { precise: true })}</td>
      <td className="px-4 py-3 text-right tabular-nums">{formatMicros(p.retryWasteMicros)}</td>
      <td className="px-4 py-3 text-right tabular-nums">
        {p.unknownOutcomes}
        {p.unknownOutcomes > 0 && <span className="block text-xs text-slate-500">≈ {formatMicros(p.unknownCostMicros)}</span>}
      </td>
    </>
  );
  return (
    <ChartCard title="Costs per provider" description="Cost per accepted capture divides all attempt costs by the captures that succeeded in the range." status={query} isEmpty={!data?.byProvider.length} empty="No provider calls for these filters." csv={csv ?? undefined} height={120}>
      <div className="-mx-5 -mb-5 overflow-x-auto">
        <table className="min-w-full divide-y divide-slate-200 text-sm text-slate-700">
          <thead className="bg-slate-50 text-left text-xs font-medium uppercase tracking-wide text-slate-500">
            <tr>
              <th scope="col" className="px-4 py-3">Provider</th>
              <th scope="col" className="px-4 py-3 text-right">Attempts</th>
              <th scope="col" className="px-4 py-3 text-right">Spend</th>
              <th scope="col" className="px-4 py-3 text-right">Accepted</th>
              <th scope="col" className="px-4 py-3 text-right">Per accepted</th>
              <th scope="col" className="px-4 py-3 text-right">Retry waste</th>
              <th scope="col" className="px-4 py-3 text-right">Unknown</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {data?.byProvider.map((p) => (
              <tr key={p.id} className="hover:bg-slate-50">
                <th scope="row" className="px-4 py-3 text-left font-medium text-slate-900">{p.name}</th>
                {cells(p)}
              </tr>
            ))}
          </tbody>
          {data && data.byProvider.length > 1 && (
            <tfoot className="border-t-2 border-slate-200 bg-slate-50 font-medium">
              <tr>
                <th scope="row" className="px-4 py-3 text-left text-slate-900">All providers</th>
                {cells(data.totals)}
              </tr>
            </tfoot>
          )}
        </table>
      </div>
    </ChartCard>
  );
}
