"use client";
import type { ChartData } from "@/lib/analytics/wire";
import { formatBucket, formatInterval, formatPct, sampleNote } from "@/lib/format";

type Visibility = ChartData<"visibility">;
export type Series = { id: string; name: string; color: string };

/**
 * A history of one bucket is no line: each provider's visibility as a dot on its 95 % interval,
 * and a sentence saying what a trend will need.
 */
export function SinglePoint({ visibility, point, series }: { visibility: Visibility; point: Visibility["points"][number]; series: Series[] }) {
  const when = visibility.unit === "day" ? formatBucket(point.bucket) : visibility.unit === "week" ? `the week of ${formatBucket(point.bucket)}` : formatBucket(point.bucket, "month");
  const rows = series.flatMap((s) => {
    const e = s.id === "all" ? point.all : point.byProvider[s.id];
    return e && e.n > 0 ? [{ ...s, e }] : [];
  });
  return (
    <div data-testid="single-point">
      <p className="mb-3 text-sm text-slate-600">
        All answers so far fall in one {visibility.unit} ({when}), so there is no trend to draw yet: below is that one point per provider with its 95% interval. Run checks on
        a schedule and a line appears from the second {visibility.unit} on.
      </p>
      <ul className="space-y-3">
        {rows.map(({ id, name, color, e }) => (
          <li key={id} className="grid grid-cols-[minmax(0,6rem)_1fr] items-center gap-x-3 gap-y-1 text-sm sm:grid-cols-[minmax(0,8rem)_1fr_auto]">
            <span className="truncate text-slate-700">{name}</span>
            <span className="relative h-4 rounded bg-slate-50 ring-1 ring-slate-200" aria-hidden>
              {e.low !== null && e.high !== null && (
                <span className="absolute top-1/2 h-1.5 -translate-y-1/2 rounded-full opacity-30" style={{ left: `${e.low * 100}%`, width: `${(e.high - e.low) * 100}%`, background: color }} />
              )}
              <span className="absolute top-1/2 size-3 -translate-x-1/2 -translate-y-1/2 rounded-full ring-2 ring-white" style={{ left: `${(e.value ?? 0) * 100}%`, background: color }} />
            </span>
            <span className="col-start-2 text-xs tabular-nums text-slate-600 sm:col-start-auto sm:whitespace-nowrap">
              <span className="font-medium text-slate-900">{formatPct(e.value)}</span> {formatInterval(e.low, e.high, "share")} · {sampleNote(e.n)}
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}
