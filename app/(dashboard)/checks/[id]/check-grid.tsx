"use client";
import { Card } from "@/components/ui/card";
import { DataTable } from "@/components/ui/data-table";
import { Select } from "@/components/ui/field";
import { Pagination } from "@/components/ui/pagination";
import type { Column } from "@/components/ui/table-columns";
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

type GridRow = { index: number; prompt: string; market: string | undefined };

const symbol: Record<CaptureStatus, string> = { queued: "·", postponed: "⏸", retry_wait: "↻", running: "…", succeeded: "✓", failed: "✕", cancelled: "—" };

function CaptureCell({ capture, onOpen }: { capture: GridCell; onOpen: () => void }) {
  const detail = [
    captureStatusLabel(capture.status, capture.waitingFor),
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
      <span aria-hidden>{waitsForBudget ? "$" : symbol[capture.status]}</span>
      <span className="tabular-nums text-[10px] opacity-80">{capture.latencyMs !== null ? formatDuration(capture.latencyMs) : capture.attemptCount > 1 ? `try ${capture.attemptCount}` : " "}</span>
    </button>
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
  // The prompt column stays in view while the providers scroll sideways (phones, many samples).
  const rows: GridRow[] = grid.prompts.map((prompt, index) => ({ index, prompt, market: grid.rowMarkets[index] }));
  const columns: Column<GridRow>[] = [
    {
      id: "prompt",
      header: "Prompt",
      rowHeader: true,
      className: "min-w-48 max-w-md font-normal text-slate-800",
      cell: (row) => (
        <>
          {row.prompt}
          {row.market && <span className="block text-xs text-slate-500">{row.market}</span>}
        </>
      ),
    },
    ...grid.providers.map(
      (p, col): Column<GridRow> => ({
        id: `provider-${col}`,
        header: (
          <>
            {p.name}
            <span className="block text-[10px] font-normal normal-case text-slate-400">{p.model}</span>
          </>
        ),
        align: "center",
        cell: (row) => (
          <div className="flex justify-center gap-1">
            {(byCell.get(`${row.index}:${col}`) ?? []).map((c) => (
              <CaptureCell key={c.id} capture={c} onOpen={() => onOpen(c.id)} />
            ))}
          </div>
        ),
      }),
    ),
  ];
  return (
    <Card className="overflow-hidden">
      {grid.markets.length > 0 && (
        <div className="flex items-center gap-2 border-b border-slate-200 px-4 py-3 text-sm">
          <label htmlFor="check-market" className="text-slate-600">Market</label>
          <Select id="check-market" className="w-64" value={grid.market ?? ""} onChange={(e) => onMarket(e.target.value || null)}>
            <option value="">All markets ({grid.markets.reduce((sum, m) => sum + m.prompts, 0)} prompts)</option>
            {grid.markets.map((m) => (
              <option key={m.key} value={m.key}>
                {m.label} ({m.prompts} {m.prompts === 1 ? "prompt" : "prompts"})
              </option>
            ))}
          </Select>
        </div>
      )}
      <DataTable rows={rows} columns={columns} rowKey={(row) => `${grid.page}:${row.index}`} density="dense" />
      <Pagination page={grid.page} pageSize={grid.rowsPerPage} total={grid.totalPrompts} noun="prompts" label="Prompt pages" onPage={onPage} />
    </Card>
  );
}
