"use client";
import type { ReactNode } from "react";
import { ChartCard } from "@/components/charts/chart-card";
import { formatCount, formatInterval, formatPct, formatPosition, sampleNote } from "@/lib/format";
import type { AnalyticsFilterInput } from "@/lib/analytics/schemas";
import type { ChartData } from "@/lib/analytics/wire";
import { useChartQuery } from "../use-analytics-queries";

type Estimate = ChartData<"markets">[number]["visibility"];

function EstimateCell({ estimate, kind }: { estimate: Estimate; kind: "share" | "number" }) {
  return (
    <td className="px-4 py-3 text-right tabular-nums">
      <span className="font-medium text-slate-900">{kind === "share" ? formatPct(estimate.value) : formatPosition(estimate.value, 1)}</span>
      <span className="block text-xs text-slate-500">{formatInterval(estimate.low, estimate.high, kind)}</span>
    </td>
  );
}

/** The headline numbers per market (the prompts' country and language), with their intervals. */
export function MarketTable({ filter, brandName, empty }: { filter: AnalyticsFilterInput; brandName: string; empty: ReactNode }) {
  const query = useChartQuery("markets", filter);
  const markets = query.data;
  const total = markets?.reduce((sum, m) => sum + m.answers, 0) ?? 0;
  const csv = markets && {
    filename: `markets-${filter.from}-${filter.to}`,
    header: ["market", "answers", "visibility", "ci95_low", "ci95_high", "share_of_voice", "sov_ci95_low", "sov_ci95_high", "average_position"],
    rows: markets.map((m) => [m.label, m.answers, m.visibility.value, m.visibility.low, m.visibility.high, m.shareOfVoice.value, m.shareOfVoice.low, m.shareOfVoice.high, m.averagePosition.value]),
  };
  return (
    <ChartCard
      title="Markets"
      description={`${brandName} by where the question is asked from and in which language (each prompt's country and language). Where two markets' intervals overlap, their difference may be sampling noise.`}
      sample={markets && `${sampleNote(total)} · ${markets.length} markets`}
      status={query}
      isEmpty={!markets?.length}
      empty={empty}
      csv={csv ?? undefined}
      height={120}
    >
      <div className="-mx-5 overflow-x-auto">
        <table className="min-w-full divide-y divide-slate-200 text-sm">
          <thead className="bg-slate-50 text-left text-xs font-medium uppercase tracking-wide text-slate-500">
            <tr>
              <th scope="col" className="px-4 py-3">Market</th>
              <th scope="col" className="px-4 py-3 text-right">Answers</th>
              <th scope="col" className="px-4 py-3 text-right">Visibility</th>
              <th scope="col" className="px-4 py-3 text-right">Share of voice</th>
              <th scope="col" className="px-4 py-3 text-right">Avg position</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {markets?.map((m) => (
              <tr key={m.market} className="hover:bg-slate-50">
                <th scope="row" className="px-4 py-3 text-left font-medium text-slate-900">{m.label}</th>
                <td className="px-4 py-3 text-right tabular-nums text-slate-700">{formatCount(m.answers)}</td>
                <EstimateCell estimate={m.visibility} kind="share" />
                <EstimateCell estimate={m.shareOfVoice} kind="share" />
                <EstimateCell estimate={m.averagePosition} kind="number" />
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </ChartCard>
  );
}
