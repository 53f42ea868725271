"use client";
import { useRef } from "react";
import { Card } from "@/components/ui/card";
import { Select } from "@/components/ui/field";
import { Pagination } from "@/components/ui/pagination";
import { ScrollFade, useScrollEdges } from "@/components/ui/scroll-edges";
import { formatDuration, formatMicros } from "@/lib/format";
import { captureStatusLabel, type CaptureStatus } from "@/lib/captures/states";
import type { GridCell, ProgressGrid } from "@/lib/checks/progress-state";

const cellTone: Record<CaptureStatus, string> = {
  queued: "bg-slate-100 text-slate-500",
  postponed: "bg-amber-50 text-amber-700",
  retry_wait: "bg-amber-50 text-amber-700",
  running: "bg-brand-50 text-brand-700 animate-pulse",
  succeeded: "bg-emerald-50 text-emerald-700",
  failed: "bg-red-50 text-red-700",
  cancelled: "bg-slate-100 text-slate-400 line-through",
};

const symbol: Record<CaptureStatus, string> = { queued: "·", postponed: "‖", retry_wait: "↻", running: "…", succeeded: "✓", failed: "✕", cancelled: "—" };

/** What the answer said of the brand, in words: "named #2", "not named", or nothing before an analysis is stored. */
export function brandText(capture: Pick<GridCell, "status" | "brandNamed" | "brandPosition">): string | null {
  if (capture.status !== "succeeded" || capture.brandNamed === null) return null;
  if (!capture.brandNamed) return "not named";
  return capture.brandPosition === null ? "named" : `named #${capture.brandPosition}`;
}

/** A succeeded cell shows the brand: a filled dot with its position when named, a hollow one when not. */
function BrandMark({ capture }: { capture: GridCell }) {
  if (capture.brandNamed === null) return <span aria-hidden>{symbol.succeeded}</span>;
  if (!capture.brandNamed) return <span aria-hidden className="text-slate-500">○</span>;
  return (
    <span aria-hidden className="inline-flex items-center gap-0.5 font-semibold">
      <span className="text-[10px]">●</span>
      {capture.brandPosition ?? ""}
    </span>
  );
}

function CaptureCell({ capture, onOpen }: { capture: GridCell; onOpen: () => void }) {
  const detail = [
    captureStatusLabel(capture.status, capture.waitingFor),
    brandText(capture),
    capture.attemptCount > 1 ? `${capture.attemptCount} attempts` : null,
    capture.latencyMs !== null ? formatDuration(capture.latencyMs) : null,
    capture.costMicros ? formatMicros(capture.costMicros) : null,
    capture.lastError,
  ].filter(Boolean);
  const waitsForBudget = capture.status === "postponed" && capture.waitingFor === "budget";
  return (
    <button
      type="button"
      onClick={onOpen}
      title={detail.join(" · ")}
      aria-label={`Sample ${capture.sample}: ${detail.join(", ")}`}
      className={`flex min-w-14 flex-col items-center rounded px-2 py-1 text-xs font-medium ring-1 ring-inset ring-black/5 hover:ring-brand-500 ${cellTone[capture.status] ?? ""}`}
    >
      {capture.status === "succeeded" ? <BrandMark capture={capture} /> : <span aria-hidden>{waitsForBudget ? "$" : symbol[capture.status]}</span>}
      <span className="tabular-nums text-[10px] opacity-80">{capture.latencyMs !== null ? formatDuration(capture.latencyMs) : capture.attemptCount > 1 ? `try ${capture.attemptCount}` : " "}</span>
    </button>
  );
}

/** Every symbol a cell can show, with what it means. */
const LEGEND: { mark: string; tone: CaptureStatus; meaning: string }[] = [
  { mark: "●2", tone: "succeeded", meaning: "answered, brand named (2nd of the tracked names)" },
  { mark: "○", tone: "succeeded", meaning: "answered, brand not named" },
  { mark: symbol.succeeded, tone: "succeeded", meaning: "answered, not analysed yet" },
  { mark: symbol.queued, tone: "queued", meaning: "queued" },
  { mark: symbol.running, tone: "running", meaning: "running" },
  { mark: symbol.retry_wait, tone: "retry_wait", meaning: "waiting to retry" },
  { mark: symbol.postponed, tone: "postponed", meaning: "postponed (breaker open, or waiting for a free slot)" },
  { mark: "$", tone: "postponed", meaning: "waiting for budget" },
  { mark: symbol.failed, tone: "failed", meaning: "failed" },
  { mark: symbol.cancelled, tone: "cancelled", meaning: "cancelled" },
];

function Legend() {
  return (
    <div className="border-t border-slate-200 px-4 py-3">
      <ul aria-label="Legend" className="flex flex-wrap gap-x-4 gap-y-2 text-xs text-slate-600">
        {LEGEND.map((l) => (
          <li key={l.meaning} className="flex items-center gap-1.5">
            <span aria-hidden className={`inline-flex min-w-7 justify-center rounded px-1 py-0.5 font-medium ring-1 ring-inset ring-black/5 ${cellTone[l.tone].replace("animate-pulse", "").replace("line-through", "")}`}>
              {l.mark}
            </span>
            {l.meaning}
          </li>
        ))}
        <li className="text-slate-500">Below each mark: the answer&apos;s time, or the attempt it is on.</li>
      </ul>
    </div>
  );
}

/**
 * One page of the check's grid: prompts are rows, providers columns, samples the cells in each.
 * A page holds at most GRID_PAGE_CELLS cells (lib/checks/progress-state.ts), so a check of
 * thousands of captures renders, and polls, a hundred at a time.
 */
export function CheckGrid({
  grid,
  cells,
  onOpen,
  onPage,
  onMarket,
}: {
  grid: ProgressGrid;
  cells: GridCell[];
  onOpen: (captureId: string) => void;
  onPage: (page: number) => void;
  onMarket: (market: string | null) => void;
}) {
  const byCell = new Map<string, GridCell[]>();
  for (const c of cells) {
    const key = `${c.row}:${c.col}`;
    byCell.set(key, [...(byCell.get(key) ?? []), c]);
  }
  const scroller = useRef<HTMLDivElement>(null);
  const { moreRight, onScroll } = useScrollEdges(scroller);
  return (
    // The card is positioned (Card is relative) so screen-reader-only text inside the scroller
    // cannot widen the page; the table scrolls sideways inside it with the prompt column kept in view.
    <Card className="overflow-hidden">
      {grid.markets.length > 0 && (
        <div className="flex items-center gap-2 border-b border-slate-200 px-4 py-3 text-sm">
          <label htmlFor="check-market" className="text-slate-600">Market</label>
          <Select id="check-market" className="w-64 max-w-full" value={grid.market ?? ""} onChange={(e) => onMarket(e.target.value || null)}>
            <option value="">All markets ({grid.markets.reduce((sum, m) => sum + m.prompts, 0)} prompts)</option>
            {grid.markets.map((m) => (
              <option key={m.key} value={m.key}>
                {m.label} ({m.prompts} {m.prompts === 1 ? "prompt" : "prompts"})
              </option>
            ))}
          </Select>
        </div>
      )}
      <div className="relative" data-more-right={moreRight ? "" : undefined}>
        <div ref={scroller} className="relative overflow-x-auto [contain:inline-size]" onScroll={onScroll}>
          <table className="min-w-full border-separate border-spacing-0 text-sm">
            <thead className="text-left text-xs font-medium uppercase tracking-wide text-slate-500">
              <tr>
                <th scope="col" className="sticky left-0 z-10 w-[9rem] min-w-[9rem] border-b border-r border-slate-200 bg-slate-50 px-3 py-3 md:w-[16rem] md:min-w-[16rem] md:px-4 xl:w-[20rem] xl:min-w-[20rem]">
                  Prompt
                </th>
                {grid.providers.map((p, col) => (
                  <th key={col} scope="col" className="min-w-[9rem] border-b border-slate-200 bg-slate-50 px-3 py-3 text-center">
                    {p.name}
                    <span className="block text-[10px] font-normal normal-case text-slate-400">{p.model}</span>
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {grid.prompts.map((prompt, row) => (
                <tr key={`${grid.page}:${row}`}>
                  <th scope="row" className="sticky left-0 z-10 w-[9rem] min-w-[9rem] border-b border-r border-slate-100 bg-surface px-3 py-2 text-left align-top font-normal break-words text-slate-800 md:w-[16rem] md:min-w-[16rem] md:px-4 xl:w-[20rem] xl:min-w-[20rem]">
                    {prompt}
                    {grid.rowMarkets[row] && <span className="block text-xs text-slate-500">{grid.rowMarkets[row]}</span>}
                  </th>
                  {grid.providers.map((_, col) => (
                    <td key={col} className="border-b border-slate-100 px-3 py-2 align-top">
                      <div className="flex flex-wrap justify-center gap-1">
                        {(byCell.get(`${row}:${col}`) ?? []).map((c) => (
                          <CaptureCell key={c.id} capture={c} onOpen={() => onOpen(c.id)} />
                        ))}
                      </div>
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <ScrollFade show={moreRight} />
      </div>
      <Legend />
      <Pagination page={grid.page} pageSize={grid.rowsPerPage} total={grid.totalPrompts} noun="prompts" label="Prompt pages" onPage={onPage} />
    </Card>
  );
}
