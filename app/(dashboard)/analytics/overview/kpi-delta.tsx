"use client";
import { useId } from "react";
import { judgeDelta, type Better } from "@/lib/analytics/delta-verdict";
import type { ChartData } from "@/lib/analytics/wire";
import { formatChange, formatInterval, formatPct, formatPosition, formatPValue, sampleNote } from "@/lib/format";

type Kpi = ChartData<"kpis">["visibility"];

const TONES = { good: "text-emerald-700", bad: "text-red-700", neutral: "text-slate-700", quiet: "text-slate-500" } as const;

/**
 * A tile's change vs the previous period and what it means: coloured only when its test calls it
 * beyond sampling noise, grey "within noise (p = …)" otherwise. Hovering or focusing it shows both
 * periods' n and intervals and the test behind the verdict. The change is measured on the prompts
 * answered in both periods (lib/analytics/kpis.ts comparablePrompts); when that leaves answers
 * out, the tip shows both periods on those prompts too, and `leftOut` says how many prompts.
 */
export function KpiDelta({ kpi, kind, better = "up", unit = "answers", leftOut }: { kpi: Kpi; kind: "share" | "number"; better?: Better; unit?: string; leftOut?: number }) {
  const tipId = useId();
  const verdict = judgeDelta(kpi.change, kpi.test, better);
  if (verdict.kind === "no-comparison") return <p className="mt-1 text-xs text-slate-400">No earlier data to compare</p>;
  const change = kpi.change!;
  const tone = verdict.kind !== "beyond" ? TONES.quiet : verdict.good === null ? TONES.neutral : verdict.good ? TONES.good : TONES.bad;
  const arrow = Math.abs(change) < 1e-9 ? "■" : change > 0 ? "▲" : "▼";
  const meaning =
    verdict.kind === "untested"
      ? "too few answers to test"
      : verdict.kind === "noise"
        ? `within noise (${formatPValue(verdict.p)})`
        : `beyond noise (${formatPValue(verdict.p)})`;
  const value = (v: number | null) => (kind === "share" ? formatPct(v) : formatPosition(v));
  const period = (label: string, e: Kpi["current"]) => {
    const interval = formatInterval(e.low, e.high, kind);
    return `${label}: ${value(e.value)}${interval ? ` (95% interval ${interval})` : ""}, ${sampleNote(e.n, unit)}`;
  };
  return (
    <div className="group relative mt-1">
      <button
        type="button"
        aria-describedby={tipId}
        data-delta={verdict.kind === "beyond" ? (verdict.good === null ? "beyond" : verdict.good ? "good" : "bad") : verdict.kind}
        className={`cursor-help rounded text-left text-xs font-medium underline decoration-dotted decoration-slate-300 underline-offset-2 focus-visible:outline-2 focus-visible:outline-brand-600 ${tone}`}
      >
        <span aria-hidden>{arrow}</span> {formatChange(change, kind)}
        <span className="font-normal text-slate-500"> vs previous period · </span>
        {meaning}
      </button>
      <div
        id={tipId}
        role="tooltip"
        className="pointer-events-none absolute left-0 top-full z-30 mt-1 hidden w-72 max-w-[calc(100vw-3rem)] rounded-md bg-surface p-3 text-xs text-slate-600 shadow-lg ring-1 ring-slate-200 group-hover:block group-focus-within:block"
      >
        <p>{period("Previous period", kpi.previous)}</p>
        <p className="mt-1">{period("This period", kpi.current)}</p>
        {(kpi.compared.current.n !== kpi.current.n || kpi.compared.previous.n !== kpi.previous.n) && (
          <p className="mt-1 border-t border-slate-100 pt-1" data-testid="compared-prompts">
            The change compares the prompts answered in both periods
            {leftOut ? ` (${leftOut} prompt${leftOut === 1 ? "" : "s"} answered in only one left out)` : ""}: a prompt added or archived does not read as a change.{" "}
            {period("Previous", kpi.compared.previous)}; {period("this", kpi.compared.current)}.
          </p>
        )}
        {kpi.test ? (
          <p className="mt-1 border-t border-slate-100 pt-1">
            Change {formatChange(change, kind)}, 95% interval {formatChange(kpi.test.low, kind)} to {formatChange(kpi.test.high, kind)}; {kpi.test.method}, {formatPValue(kpi.test.p)}.{" "}
            {kpi.test.beyondNoise ? "Sampling noise alone would rarely move it this much." : "Sampling noise alone moves it this much often: do not read it as a change."}
          </p>
        ) : (
          <p className="mt-1 border-t border-slate-100 pt-1">A period has too few answers for a test: read the change as a hint only.</p>
        )}
      </div>
    </div>
  );
}
