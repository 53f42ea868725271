"use client";
import { useMemo } from "react";
import { Area, CartesianGrid, ComposedChart, Line, Tooltip, XAxis, YAxis, type TooltipContentProps } from "recharts";
import { ResponsiveChart } from "@/components/charts/responsive-chart";
import { gridProps, lineDot, xAxisProps, yAxisProps } from "@/components/charts/axes";
import { ChartCard } from "@/components/charts/chart-card";
import { TooltipBox } from "@/components/charts/chart-tooltip";
import { formatBucket, formatInterval, formatPct, sampleNote } from "@/lib/format";
import { seriesColor } from "@/components/charts/palette";
import type { AnalyticsFilterInput } from "@/lib/analytics/schemas";
import type { ChartData } from "@/lib/analytics/wire";
import { useChartQuery } from "../use-analytics-queries";
import { bucketNote } from "./bucket-note";
import { SinglePoint, type Series } from "./single-point";

type Visibility = ChartData<"visibility">;

const ALL = "all";
const band = (id: string) => `${id}:band`;

/** Visibility per provider over time, one line each with its 95 % band, plus all providers together (dashed). */
export function VisibilityChart({ filter, brandName, empty }: { filter: AnalyticsFilterInput; brandName: string; empty: React.ReactNode }) {
  const query = useChartQuery("visibility", filter);
  const visibility = query.data;
  const { rows, series, total, filled } = useMemo(() => shape(visibility), [visibility]);
  const csv = useMemo(
    () =>
      visibility && {
        filename: `visibility-over-time-${filter.from}-${filter.to}`,
        header: ["bucket_start", "bucket_unit", "provider", "answers", "mentioning_answers", "visibility", "ci95_low", "ci95_high"],
        rows: visibility.points.flatMap((p) =>
          [...visibility.providers.map((pr) => ({ name: pr.name, e: p.byProvider[pr.id] })), { name: "All providers", e: p.all }]
            .filter(({ e }) => e && e.n > 0)
            .map(({ name, e }) => [p.bucket, visibility.unit, name, e!.n, e!.mentioned, e!.value, e!.low, e!.high]),
        ),
      },
    [visibility, filter.from, filter.to],
  );
  return (
    <ChartCard
      title="Visibility over time"
      description={
        <>
          Share of answers that mention {brandName}, per provider and {visibility?.unit ?? "day"}; the shaded band is each line&apos;s 95% interval. {visibility && bucketNote(visibility)}
        </>
      }
      sample={sampleNote(total)}
      status={query}
      isEmpty={total === 0}
      empty={empty}
      csv={csv ?? undefined}
      height={300}
    >
      {filled.length === 1 && visibility ? (
        <SinglePoint visibility={visibility} point={filled[0]!} series={series} />
      ) : (
        <ResponsiveChart height={300} legend={series.map((s) => ({ name: s.name, color: s.color, mark: "line", dashed: s.id === ALL }))}>
          <ComposedChart data={rows} margin={{ top: 8, right: 16, bottom: 0, left: -8 }}>
            <CartesianGrid {...gridProps} />
            <XAxis dataKey="label" {...xAxisProps} minTickGap={24} />
            <YAxis domain={[0, 100]} ticks={[0, 25, 50, 75, 100]} tickFormatter={(v: number) => `${v}%`} {...yAxisProps} width={48} />
            <Tooltip content={(props) => <VisibilityTooltip {...props} visibility={visibility!} series={series} />} />
            {series.map((s) => (
              <Area
                key={band(s.id)}
                type="linear"
                dataKey={band(s.id)}
                name={`${s.name} 95% interval`}
                stroke="none"
                fill={s.color}
                fillOpacity={s.id === ALL ? 0.08 : 0.12}
                tooltipType="none"
                connectNulls
                activeDot={false}
                isAnimationActive={false}
              />
            ))}
            {series.map((s) => (
              <Line
                key={s.id}
                type="linear"
                dataKey={s.id}
                name={s.name}
                stroke={s.color}
                strokeWidth={s.id === ALL ? 2.5 : 1.75}
                strokeDasharray={s.id === ALL ? "5 4" : undefined}
                dot={lineDot(rows.length, series.length)}
                activeDot={{ r: 4 }}
                connectNulls
                isAnimationActive={false}
              />
            ))}
          </ComposedChart>
        </ResponsiveChart>
      )}
    </ChartCard>
  );
}

const pct = (x: number | null) => (x === null ? null : Math.round(x * 1000) / 10);

function shape(visibility: Visibility | undefined) {
  if (!visibility) return { rows: [], series: [], total: 0, filled: [] };
  const series: Series[] = [
    ...visibility.providers.map((p, i) => ({ id: p.id, name: p.name, color: seriesColor(i + 1) })),
    ...(visibility.providers.length > 1 ? [{ id: ALL, name: "All providers", color: "var(--color-slate-700)" }] : []),
  ];
  const rows = visibility.points.map((p) => {
    const row: Record<string, string | number | null | (number | null)[]> = { bucket: p.bucket, label: formatBucket(p.bucket, visibility.unit) };
    for (const s of series) {
      const e = s.id === ALL ? p.all : p.byProvider[s.id];
      row[s.id] = e ? pct(e.value) : null;
      // Recharts draws an Area between two values when its dataKey gives [low, high].
      row[band(s.id)] = e && e.low !== null && e.high !== null ? [pct(e.low), pct(e.high)] : null;
    }
    return row;
  });
  const total = visibility.points.reduce((sum, p) => sum + p.all.n, 0);
  return { rows, series, total, filled: visibility.points.filter((p) => p.all.n > 0) };
}

function VisibilityTooltip({ active, payload, visibility, series }: Pick<TooltipContentProps, "active" | "payload"> & { visibility: Visibility; series: Series[] }) {
  const bucket = payload?.[0]?.payload?.bucket as string | undefined;
  const point = visibility.points.find((p) => p.bucket === bucket);
  if (!active || !point) return null;
  const lines = series.flatMap((s) => {
    const e = s.id === ALL ? point.all : point.byProvider[s.id];
    if (!e || e.n === 0) return [];
    const interval = formatInterval(e.low, e.high, "share");
    return [{ color: s.color, label: s.name, value: formatPct(e.value), detail: `${e.mentioned}/${e.n}${interval ? ` · ${interval}` : ""}` }];
  });
  const title = visibility.unit === "month" ? formatBucket(point.bucket, "month") : `${visibility.unit === "week" ? "Week of " : ""}${formatBucket(point.bucket)}`;
  return <TooltipBox title={title} lines={lines} footer="mentioning / answers · 95% interval" />;
}
