"use client";
import { useRef, type ReactNode } from "react";
import { Card } from "@/components/ui/card";
import { CsvButton, type CsvData } from "./csv-button";
import { PrintSizeContext, usePrintSize } from "./print-size";
import { STALE_CLASSES, StaleCue } from "./stale-cue";

/** `isPlaceholderData`: the numbers shown are the previous filter's while the new ones load. */
export type ChartStatus = { isPending: boolean; isError: boolean; error?: Error | null; isPlaceholderData?: boolean };

/**
 * The frame of every chart: title, what it shows, how many answers it rests on, and the states
 * around the data (loading skeleton, guiding empty state, error, the previous filter's numbers
 * dimmed under a progress bar while the new ones load). `csv` adds a button that downloads
 * exactly the rows the chart draws.
 */
export function ChartCard({
  title,
  description,
  sample,
  status,
  isEmpty,
  empty,
  csv,
  controls,
  height = 280,
  className = "",
  children,
}: {
  title: string;
  description?: ReactNode;
  /** "n = 1,204 answers"; shown under the title. */
  sample?: ReactNode;
  status: ChartStatus;
  isEmpty?: boolean;
  /** What to do when there is nothing to draw. */
  empty?: ReactNode;
  csv?: CsvData;
  /** Options of the chart (a toggle), shown above it in every state, so an empty result can be undone. */
  controls?: ReactNode;
  height?: number;
  className?: string;
  children: ReactNode;
}) {
  const headingId = `chart-${title.toLowerCase().replace(/[^a-z0-9]+/g, "-")}`;
  const stale = !!status.isPlaceholderData && !status.isError;
  const contentRef = useRef<HTMLDivElement>(null);
  const printSize = usePrintSize(contentRef);
  return (
    <Card className={`relative flex flex-col p-5 break-inside-avoid print:shadow-none ${className}`} role="region" aria-labelledby={headingId} aria-busy={status.isPending || stale || undefined}>
      {stale && <StaleCue />}
      <div className="mb-3 flex items-start justify-between gap-3">
        <div className="min-w-0">
          <h2 id={headingId} className="text-sm font-semibold text-slate-900">{title}</h2>
          {description && <p className="mt-0.5 text-xs text-slate-500">{description}</p>}
          {sample && !status.isPending && !status.isError && <p className={`mt-0.5 text-xs font-medium text-slate-600 ${stale ? STALE_CLASSES : ""}`} data-sample>{sample}</p>}
        </div>
        {csv && !status.isPending && !status.isError && !isEmpty && <CsvButton csv={csv} label={title} />}
      </div>
      {controls}
      {status.isPending ? (
        <ChartSkeleton height={height} />
      ) : status.isError ? (
        <ChartMessage height={height} tone="error" title={`Could not load ${title.toLowerCase()}`}>{status.error?.message ?? "Please try again."}</ChartMessage>
      ) : isEmpty ? (
        <ChartMessage height={height} title="Nothing to show yet">{empty ?? "No answers match these filters."}</ChartMessage>
      ) : (
        <div ref={contentRef} className={`min-w-0 ${stale ? STALE_CLASSES : ""}`}>
          <PrintSizeContext value={printSize}>{children}</PrintSizeContext>
        </div>
      )}
    </Card>
  );
}

export function ChartSkeleton({ height }: { height: number }) {
  return (
    <div role="status" aria-label="Loading" className="flex animate-pulse items-end gap-2 rounded-md bg-slate-50 p-4" style={{ height }}>
      {[40, 65, 50, 80, 60, 75, 45, 90, 70, 55].map((h, i) => (
        <div key={i} className="flex-1 rounded-sm bg-slate-200" style={{ height: `${h}%` }} />
      ))}
    </div>
  );
}

export function ChartMessage({ height, title, tone = "empty", children }: { height: number; title: string; tone?: "empty" | "error"; children: ReactNode }) {
  return (
    <div
      role={tone === "error" ? "alert" : undefined}
      className={`flex flex-col items-center justify-center rounded-md border-2 border-dashed px-6 text-center ${tone === "error" ? "border-red-200 bg-red-50/50" : "border-slate-200"}`}
      style={{ minHeight: height }}
    >
      <p className={`text-sm font-semibold ${tone === "error" ? "text-red-700" : "text-slate-900"}`}>{title}</p>
      <div className={`mt-1 max-w-md text-sm ${tone === "error" ? "text-red-600" : "text-slate-500"}`}>{children}</div>
    </div>
  );
}
