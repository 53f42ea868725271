import type { ReactNode } from "react";
import { Card } from "@/components/ui/card";

/**
 * One headline number with its sample size, 95 % interval and, in `delta`, the change since the
 * previous period (the Overview's tiles say there whether it is beyond noise).
 */
export function KpiTile({
  label,
  value,
  interval,
  n,
  delta,
  children,
  loading,
}: {
  label: string;
  value: ReactNode;
  interval?: string | null;
  n?: ReactNode;
  delta?: ReactNode;
  children?: ReactNode;
  loading?: boolean;
}) {
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
          {delta}
          {children}
        </>
      )}
    </Card>
  );
}
