// How far a brand's re-analysis is and, once it has run long enough to judge its pace, how long it
// has left. Pure: lib/jobs/analysis-runs.ts judges each run as it reads it; the Brands page and
// the dashboards' notice (components/reanalysis) show it.

/** A run as stored (analysis_runs). */
type Run = { status: string; total: number; done: number; startedAt: Date | null };
/** A run as the pages get it: with its progress. */
export type ReanalysisRun = Omit<Run, "startedAt"> & { error: string | null; percent: number; msLeft: number | null };

/** Waiting or running: the brand's history is part analysed with its old inputs, part with the new. */
export const isOpen = (run: Pick<ReanalysisRun, "status">) => run.status === "queued" || run.status === "running";

/**
 * Between two reads of the brands' latest runs: the brands whose run was open at the first and
 * is not at the second (`ended`, with the run as read now: completed, or failed), and the brands
 * open now, to hand to the next comparison. `wasOpen` null: the page's first read, nothing ended.
 */
export function runsEnded<Run extends Pick<ReanalysisRun, "status">>(wasOpen: ReadonlySet<string> | null, now: Record<string, Run>): { ended: Record<string, Run>; open: Set<string> } {
  const open = new Set(Object.keys(now).filter((brandId) => isOpen(now[brandId]!)));
  const ended = Object.fromEntries([...(wasOpen ?? [])].filter((brandId) => !open.has(brandId) && now[brandId]).map((brandId) => [brandId, now[brandId]!]));
  return { ended, open };
}

/**
 * How long a run goes before its pace is an estimate: a batch of answers the edit changes costs
 * ten times one it leaves alone (docs/benchmarks.md, "A brand edit's re-analysis"), so the pace
 * of its first few batches says little.
 */
export const ESTIMATE_AFTER_MS = 15_000;

/**
 * The share done (whole percent, 0–100) and the time left at the pace so far (null while the run
 * is not running, has done nothing or has run less than ESTIMATE_AFTER_MS). `total` and `done` are
 * the attempt's (each attempt counts its work again: lib/brands/reanalysis.ts runReanalysis);
 * answers recorded while it runs are done too, so `done` may pass `total`.
 */
export function reanalysisProgress(run: Run, now: number): { percent: number; msLeft: number | null } {
  const percent = run.total > 0 ? Math.min(100, Math.floor((run.done / run.total) * 100)) : 0;
  const elapsed = run.startedAt === null ? 0 : now - run.startedAt.getTime();
  if (run.status !== "running" || run.done <= 0 || elapsed < ESTIMATE_AFTER_MS) return { percent, msLeft: null };
  return { percent, msLeft: (Math.max(0, run.total - run.done) * elapsed) / run.done };
}
