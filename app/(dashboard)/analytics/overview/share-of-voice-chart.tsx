"use client";
import { useMemo, type ReactNode } from "react";
import { Area, CartesianGrid, ComposedChart, Line, Tooltip, XAxis, YAxis, type TooltipContentProps } from "recharts";
import { ResponsiveChart } from "@/components/charts/responsive-chart";
import { gridProps, lineDot, xAxisProps, yAxisProps } from "@/components/charts/axes";
import { ChartCard } from "@/components/charts/chart-card";
import { TooltipBox } from "@/components/charts/chart-tooltip";
import { formatBucket, formatCount, formatInterval, formatPct, sampleNote } from "@/lib/format";
import { seriesColor } from "@/components/charts/palette";
import type { AnalyticsFilterInput } from "@/lib/analytics/schemas";
import type { ChartData } from "@/lib/analytics/wire";
import { useChartQuery } from "../use-analytics-queries";
import { bucketNote } from "./bucket-note";
import { KpiDelta } from "./kpi-delta";

type ShareOfVoice = ChartData<"share-of-voice">;
type Series = { id: string; name: string; color: string };

const band = (id: string) => `${id}:band`;
const pct = (x: number | null) => (x === null ? null : Math.round(x * 1000) / 10);

/**
 * Each entity's share of all tracked mentions over time, one line each with its 95 % band (the
 * answer is the sampling unit), in the bucket the data supports; below, each entity's share over
 * the period with its interval and its change vs the previous period, coloured only beyond noise.
 */
export function ShareOfVoiceChart({ filter, empty }: { filter: AnalyticsFilterInput; empty: ReactNode }) {
  const query = useChartQuery("share-of-voice", filter);
  const sov = query.data;
  const answers = sov?.answers ?? 0;
  const { rows, series, mentions, top } = useMemo(() => shape(sov), [sov]);
  const csv = useMemo(
    () =>
      sov && {
        filename: `share-of-voice-${filter.from}-${filter.to}`,
        header: ["bucket_start", "bucket_unit", "entity", "mentions", "all_tracked_mentions", "answers", "share", "ci95_low", "ci95_high"],
        rows: sov.points
          .filter((p) => p.total > 0)
          .flatMap((p) => sov.entities.map((e) => [p.bucket, sov.unit, e.name, p.mentions[e.id] ?? 0, p.total, p.answers, p.shares[e.id]?.value ?? null, p.shares[e.id]?.low ?? null, p.shares[e.id]?.high ?? null])),
      },
    [sov, filter.from, filter.to],
  );
  return (
    <ChartCard
      title="Share of voice"
      description={
        <>
          Each entity&apos;s mentions as a share of all tracked mentions, per {sov?.unit ?? "day"}; the shaded band is each line&apos;s 95% interval. {sov && bucketNote(sov)}
        </>
      }
      sample={`${sampleNote(answers)} · ${formatCount(mentions)} mentions`}
      status={query}
      isEmpty={mentions === 0}
      empty={empty}
      csv={csv ?? undefined}
    >
      <ResponsiveChart height={240} legend={series.map((s) => ({ name: s.name, color: s.color, mark: "line" }))}>
        <ComposedChart data={rows} margin={{ top: 8, right: 16, bottom: 0, left: -8 }}>
          <CartesianGrid {...gridProps} />
          <XAxis dataKey="label" {...xAxisProps} minTickGap={24} />
          <YAxis domain={[0, top]} ticks={ticks(top)} tickFormatter={(v: number) => `${v}%`} {...yAxisProps} width={48} />
          <Tooltip content={(props) => <SovTooltip {...props} sov={sov!} series={series} />} />
          {series.map((s) => (
            <Area key={band(s.id)} type="linear" dataKey={band(s.id)} name={`${s.name} 95% interval`} stroke="none" fill={s.color} fillOpacity={0.12} tooltipType="none" connectNulls activeDot={false} isAnimationActive={false} />
          ))}
          {series.map((s) => (
            <Line key={s.id} type="linear" dataKey={s.id} name={s.name} stroke={s.color} strokeWidth={s.id === "brand" ? 2.5 : 1.75} dot={lineDot(rows.length, series.length)} activeDot={{ r: 4 }} connectNulls isAnimationActive={false} />
          ))}
        </ComposedChart>
      </ResponsiveChart>
      {sov && <PeriodShares sov={sov} series={series} />}
    </ChartCard>
  );
}

/** Each entity over the whole period: its share, interval and change, judged as the Overview's tiles judge theirs. */
function PeriodShares({ sov, series }: { sov: ShareOfVoice; series: Series[] }) {
  return (
    // On paper the card is the page's full width: two entities a row keep the Overview on three pages.
    <ul aria-label="Share of voice over the period" className="mt-3 space-y-2 border-t border-slate-100 pt-3 print:grid print:grid-cols-2 print:gap-x-8 print:gap-y-2 print:space-y-0">
      {series.map((s) => {
        const period = sov.period[s.id];
        if (!period) return null;
        const interval = formatInterval(period.current.low, period.current.high, "share");
        return (
          <li key={s.id} data-entity={s.name} className="grid grid-cols-[minmax(0,1fr)_auto] items-baseline gap-x-3 text-sm">
            <span className="flex min-w-0 items-center gap-2 text-slate-700">
              <span className="size-2.5 shrink-0 rounded-full" style={{ background: s.color }} aria-hidden />
              <span className="truncate">{s.name}</span>
            </span>
            <span className="text-right tabular-nums">
              <span className="font-medium text-slate-900">{formatPct(period.current.value)}</span>
              {interval && <span className="ml-1 text-xs text-slate-500">{interval}</span>}
            </span>
            <div className="col-span-2">
              {/* A competitor gaining share is the brand's loss: for them, down is the good direction. */}
              <KpiDelta kpi={period} kind="share" better={s.id === "brand" ? "up" : "down"} />
            </div>
          </li>
        );
      })}
    </ul>
  );
}

/** Four or five even ticks up to `top`. */
const ticks = (top: number) => {
  const step = top <= 40 ? 10 : top <= 60 ? 20 : 25;
  return Array.from({ length: Math.floor(top / step) + 1 }, (_, i) => i * step);
};

/**
 * The y axis ends a little above the highest band (at a tick), not at 100 %: four entities near
 * 25 % each would otherwise be drawn as one flat, tangled line.
 */
function axisTop(rows: Record<string, unknown>[]): number {
  let max = 0;
  for (const row of rows) for (const v of Object.values(row)) for (const x of Array.isArray(v) ? v : [v]) if (typeof x === "number") max = Math.max(max, x);
  if (max >= 75) return 100;
  const step = max <= 40 ? 10 : 20;
  return Math.max(step, Math.ceil((max + 1) / step) * step);
}

function shape(sov: ShareOfVoice | undefined) {
  if (!sov) return { rows: [], series: [], mentions: 0, top: 100 };
  const series: Series[] = sov.entities.map((e, i) => ({ id: e.id, name: e.name, color: seriesColor(i) }));
  const rows = sov.points
    .filter((p) => p.total > 0)
    .map((p) => {
      const row: Record<string, string | number | null | (number | null)[]> = { bucket: p.bucket, label: formatBucket(p.bucket, sov.unit) };
      for (const s of series) {
        const e = p.shares[s.id];
        row[s.id] = e ? pct(e.value) : null;
        // Recharts draws an Area between two values when its dataKey gives [low, high].
        row[band(s.id)] = e && e.low !== null && e.high !== null ? [pct(e.low), pct(e.high)] : null;
      }
      return row;
    });
  return { rows, series, mentions: sov.points.reduce((sum, p) => sum + p.total, 0), top: axisTop(rows) };
}

function SovTooltip({ active, payload, sov, series }: Pick<TooltipContentProps, "active" | "payload"> & { sov: ShareOfVoice; series: Series[] }) {
  const bucket = payload?.[0]?.payload?.bucket as string | undefined;
  const point = sov.points.find((p) => p.bucket === bucket);
  if (!active || !point) return null;
  const lines = series.map((s) => {
    const e = point.shares[s.id];
    const interval = e ? formatInterval(e.low, e.high, "share") : null;
    return { color: s.color, label: s.name, value: formatPct(e?.value), detail: `${point.mentions[s.id] ?? 0}${interval ? ` · ${interval}` : ""}` };
  });
  const title = sov.unit === "month" ? formatBucket(point.bucket, "month") : `${sov.unit === "week" ? "Week of " : ""}${formatBucket(point.bucket)}`;
  return <TooltipBox title={title} lines={lines} footer={`mentions (of ${point.total}) · 95% interval · ${sampleNote(point.answers)}`} />;
}
