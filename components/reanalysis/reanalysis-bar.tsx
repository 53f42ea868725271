import { formatCount, formatTimeLeft } from "@/lib/format";
import type { ReanalysisRun } from "@/lib/jobs/reanalysis-progress";

/** "1,200 of 4,320 (27%), about 3 min left": a running re-analysis' progress in words, as the bar beside it. */
export const runProgress = (run: ReanalysisRun) =>
  `${formatCount(run.done)} of ${formatCount(run.total)} (${run.percent}%)${run.msLeft === null ? "" : `, ${formatTimeLeft(run.msLeft)}`}`;

/** A re-analysis' progress bar (the Brands page's and the dashboards' notice), in the colours of where it sits. */
export function ReanalysisBar({ run, className, fill }: { run: ReanalysisRun; className: string; fill: string }) {
  return (
    <div className={`h-1.5 overflow-hidden rounded-full ${className}`} role="progressbar" aria-label="Re-analysis progress" aria-valuemin={0} aria-valuemax={run.total} aria-valuenow={run.done}>
      <div className={`h-full transition-all ${fill}`} style={{ width: `${run.percent}%` }} />
    </div>
  );
}
