"use client";
import type { ReactNode } from "react";
import { ChartCard } from "@/components/charts/chart-card";
import { DataTable } from "@/components/ui/data-table";
import type { Column } from "@/components/ui/table-columns";
import { formatCount, formatInterval, formatPct, formatPosition, sampleNote } from "@/lib/format";
import type { AnalyticsFilterInput } from "@/lib/analytics/schemas";
import type { ChartData } from "@/lib/analytics/wire";
import { useChartQuery } from "../use-analytics-queries";

type Estimate = ChartData<"markets">[number]["visibility"];

type Market = ChartData<"markets">[number];

function EstimateCell({ estimate, kind }: { estimate: Estimate; kind: "share" | "number" }) {
  return (
    <>
      <span className="font-medium text-slate-900">{kind === "share" ? formatPct(estimate.value) : formatPosition(estimate.value, 1)}</span>
      <span className="block text-xs text-slate-500">{formatInterval(estimate.low, estimate.high, kind)}</span>
    </>
  );
}

const columns: Column<Market>[] = [
  { id: "market", header: "Market", rowHeader: true, className: "font-medium text-slate-900", cell: (m) => m.label },
  { id: "answers", header: "Answers", numeric: true, className: "text-slate-700", cell: (m) => formatCount(m.answers) },
  { id: "visibility", header: "Visibility", numeric: true, cell: (m) => <EstimateCell estimate={m.visibility} kind="share" /> },
  { id: "share-of-voice", header: "Share of voice", numeric: true, cell: (m) => <EstimateCell estimate={m.shareOfVoice} kind="share" /> },
  { id: "position", header: "Avg position", numeric: true, cell: (m) => <EstimateCell estimate={m.averagePosition} kind="number" /> },
];

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
      <DataTable rows={markets ?? []} columns={columns} rowKey={(m) => m.market} className="-mx-5" />
    </ChartCard>
  );
}
