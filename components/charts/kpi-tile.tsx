import type { ReactNode } from "react";
import { Card } from "@/components/ui/card";

/**
 * One headline number with its sample size, 95 % interval and the change since the previous
 * period. `better` says which direction is good news, so the arrow is coloured accordingly.
 */
export function KpiTile({
  label,
  value,
  interval,
  n,
  change,
  changeLabel,
  better = "up",
  children,
  loading,
}: {
  label: string;
  value: ReactNode;
  interval?: string | null;
  n?: ReactNode;
  /** Signed change; null when there is nothing to compare with. */
  change?: number | null;
  changeLabel?: string;
  better?: "up" | "down" | "neither";
  children?: ReactNode;
  loading?: boolean;
}) {
  const direction = change === null || change === undefined || Math.abs(change) < 1e-9 ? "flat" : change > 0 ? "up" : "down";
  const good = better === "neither" || direction === "flat" ? null : direction === better;
  const tone = good === null ? "text-slate-500" : good ? "text-emerald-700" : "text-red-700";
  const arrow = direction === "up" ? "▲" : direction === "down" ? "▼" : "■";
  return (
    <Card role="group" aria-label={label} className="break-inside-avoid p-4 print:shadow-none">
      <p className="text-xs font-medium uppercase tracking-wide text-slate-500">{label}</p>
      {loading ? (
        <div role="status" aria-label="Loading" className="mt-2 h-12 animate-pulse rounded bg-slate-100" />
      ) : (
        <>
          <p className="mt-1 text-2xl font-semibold tabular-nums text-slate-900" data-kpi-value>{value}</p>
          <div className="mt-1 flex flex-wrap items-center gap-x-3 gap-y-0.5 text-xs text-slate-500">
            {n !== undefined && <span>{n}</span>}
            {interval && <span title="95 % confidence interval">95% CI {interval}</span>}
          </div>
          {changeLabel !== undefined && (
            <p className={`mt-1 text-xs font-medium ${tone}`}>
              {change === null || change === undefined ? (
                <span className="text-slate-400">No earlier data to compare</span>
              ) : (
                <>
                  <span aria-hidden>{arrow}</span> {changeLabel}
                  <span className="font-normal text-slate-500"> vs previous period</span>
                </>
              )}
            </p>
          )}
          {children}
        </>
      )}
    </Card>
  );
}
