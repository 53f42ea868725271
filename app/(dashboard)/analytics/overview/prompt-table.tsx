"use client";
import type { ReactNode } from "react";
import { ChartCard } from "@/components/charts/chart-card";
import { DataTableView, useDataTable } from "@/components/ui/data-table";
import type { Column } from "@/components/ui/table-columns";
import { formatInterval, formatPct, formatPosition, sampleNote } from "@/lib/format";
import type { AnalyticsFilterInput } from "@/lib/analytics/schemas";
import type { ChartData } from "@/lib/analytics/wire";
import { useChartQuery } from "../use-analytics-queries";

type Row = ChartData<"prompts">[number];

const NO_ROWS: Row[] = [];

// Module-level, so the table keeps its rows (and page) across renders.
const columns: Column<Row>[] = [
  {
    id: "text",
    header: "Prompt",
    sortBy: (r) => r.text,
    className: "min-w-48 max-w-md",
    cell: (r) => (
      <>
        <p className="text-slate-900">{r.text}</p>
        {r.tags.length > 0 && <p className="mt-0.5 text-xs text-slate-500">{r.tags.join(" · ")}</p>}
      </>
    ),
  },
  { id: "n", header: "Answers", numeric: true, sortBy: (r) => r.n, sortDescFirst: true, className: "text-slate-700", cell: (r) => r.n },
  {
    id: "visibility",
    header: "Visibility",
    numeric: true,
    sortBy: (r) => r.visibility.value,
    sortDescFirst: true,
    cell: (r) => (
      <>
        <span className="font-medium text-slate-900">{formatPct(r.visibility.value)}</span>
        <span className="block text-xs text-slate-500">{formatInterval(r.visibility.low, r.visibility.high, "share")}</span>
      </>
    ),
  },
  { id: "position", header: "Avg position", numeric: true, sortBy: (r) => r.averagePosition.value, className: "text-slate-700", cell: (r) => formatPosition(r.averagePosition.value, 1) },
  {
    id: "losses",
    header: "Loses to",
    sortBy: (r) => r.losesTo?.captures ?? 0,
    sortDescFirst: true,
    className: "text-slate-700",
    cell: (r) =>
      r.losesTo ? (
        <>
          <span className="font-medium text-slate-900">{r.losesTo.name}</span>
          <span className="block text-xs text-slate-500">
            {[r.losesTo.ahead ? `ahead in ${r.losesTo.ahead}` : null, r.losesTo.instead ? `instead in ${r.losesTo.instead}` : null].filter(Boolean).join(", ")} of {r.n}
          </span>
        </>
      ) : (
        <span className="text-slate-400">No losses</span>
      ),
  },
];

/** Per prompt: answers, visibility, average position, and the competitor the brand loses to most. */
export function PromptTable({ filter, brandName, empty }: { filter: AnalyticsFilterInput; brandName: string; empty: ReactNode }) {
  const query = useChartQuery("prompts", filter);
  const prompts = query.data;
  const model = useDataTable({ rows: prompts ?? NO_ROWS, columns, rowKey: (r) => r.promptId, initialSort: { id: "n", desc: true }, pageSize: 25 });
  // The CSV holds every prompt, in the order the table is sorted.
  const rows = model.table.getPrePaginatedRowModel().rows.map((row) => row.original);
  const total = prompts?.reduce((sum, p) => sum + p.n, 0) ?? 0;
  const csv = prompts && {
    filename: `prompts-${filter.from}-${filter.to}`,
    header: ["prompt", "tags", "answers", "visibility", "ci95_low", "ci95_high", "average_position", "loses_to", "lost_answers", "brand_absent", "competitor_ahead"],
    rows: rows.map((r) => [
      r.text,
      r.tags.join(" "),
      r.n,
      r.visibility.value,
      r.visibility.low,
      r.visibility.high,
      r.averagePosition.value,
      r.losesTo?.name ?? "",
      r.losesTo?.captures ?? 0,
      r.losesTo?.instead ?? 0,
      r.losesTo?.ahead ?? 0,
    ]),
  };
  return (
    <ChartCard
      title="Prompts"
      description={`Where ${brandName} shows up, and who answers take instead: the competitor most often named ahead of ${brandName} or in its place.`}
      sample={prompts && `${sampleNote(total)} · ${prompts.length} prompts`}
      status={query}
      isEmpty={!prompts?.length}
      empty={empty}
      csv={csv ?? undefined}
      height={160}
    >
      <DataTableView model={model} alignTop noun="prompts" pagerLabel="Prompts table pages" className="-mx-5 -mb-5" />
    </ChartCard>
  );
}
