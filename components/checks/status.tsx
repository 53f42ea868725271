import { Badge } from "@/components/ui/card";
import { captureStatusLabel, CAPTURE_STATUSES, type CaptureStatus, type CaptureWait, type CheckStatus } from "@/lib/captures/states";

type Tone = "slate" | "blue" | "green" | "amber" | "red";
// Every status of states.ts has its tone: a new one fails to compile until it is given one.
const tones: Record<string, Tone> = {
  queued: "slate",
  postponed: "amber",
  retry_wait: "amber",
  running: "blue",
  succeeded: "green",
  completed: "green",
  completed_with_errors: "amber",
  failed: "red",
  cancelled: "slate",
} satisfies Record<CaptureStatus | CheckStatus, Tone>;

const isCaptureStatus = (status: string): status is CaptureStatus => (CAPTURE_STATUSES as readonly string[]).includes(status);

/** A check's or a capture's status; a postponed capture says what it waits for. */
export function StatusBadge({ status, waitingFor }: { status: string; waitingFor?: CaptureWait | null }) {
  const label = isCaptureStatus(status) ? captureStatusLabel(status, waitingFor) : status.replaceAll("_", " ");
  return <Badge tone={tones[status] ?? "slate"}>{label}</Badge>;
}

export type Counts = { total: number; queued: number; running: number; succeeded: number; failed: number; cancelled: number };

/** A stacked bar: succeeded, failed, cancelled, running, and what is left. */
export function ProgressBar({ counts, compact = false }: { counts: Counts; compact?: boolean }) {
  const done = counts.succeeded + counts.failed + counts.cancelled;
  const pct = (n: number) => `${counts.total ? (n / counts.total) * 100 : 0}%`;
  return (
    <div>
      <div
        role="progressbar"
        aria-valuemin={0}
        aria-valuemax={counts.total}
        aria-valuenow={done}
        aria-label={`${done} of ${counts.total} captures finished`}
        className={`flex w-full overflow-hidden rounded-full bg-slate-200 ${compact ? "h-1.5" : "h-3"}`}
      >
        <div className="bg-emerald-500 transition-all" style={{ width: pct(counts.succeeded) }} />
        <div className="bg-red-500 transition-all" style={{ width: pct(counts.failed) }} />
        <div className="bg-slate-400 transition-all" style={{ width: pct(counts.cancelled) }} />
        <div className="animate-pulse bg-brand-500 transition-all" style={{ width: pct(counts.running) }} />
      </div>
      {!compact && (
        <p className="mt-2 flex flex-wrap gap-x-4 text-xs text-slate-600">
          <span>
            <strong className="text-slate-900">{done}</strong> of {counts.total} finished
          </span>
          <span className="text-emerald-700">{counts.succeeded} succeeded</span>
          {counts.failed > 0 && <span className="text-red-700">{counts.failed} failed</span>}
          {counts.cancelled > 0 && <span>{counts.cancelled} cancelled</span>}
          {counts.running > 0 && <span className="text-brand-700">{counts.running} running</span>}
          {counts.queued > 0 && <span>{counts.queued} waiting</span>}
        </p>
      )}
    </div>
  );
}
