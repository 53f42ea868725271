"use client";
import { useMemo } from "react";
import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis, type TooltipContentProps } from "recharts";
import { ChartCard } from "@/components/charts/chart-card";
import { TooltipBox } from "@/components/charts/chart-tooltip";
import { legendProps } from "@/components/charts/legend";
import { formatBucket, formatInterval, formatPct, sampleNote } from "@/lib/format";
import { seriesColor } from "@/components/charts/palette";
import type { AnalyticsFilterInput } from "@/lib/analytics/schemas";
import type { ChartData } from "@/lib/analytics/wire";
import { useChartQuery } from "../use-analytics-queries";

type Visibility = ChartData<"visibility">;

const ALL = "all";

/** Visibility per provider over time, one line each, plus all providers together (dashed). */
export function VisibilityChart({ filter, brandName, empty }: { filter: AnalyticsFilterInput; brandName: string; empty: React.ReactNode }) {
  const query = useChartQuery("visibility", filter);
  const visibility = query.data;
  const { rows, series, total } = useMemo(() => shape(visibility), [visibility]);
  const csv = useMemo(
    () =>
      visibility && {
        filename: `visibility-over-time-${filter.from}-${filter.to}`,
        header: ["bucket_start", "provider", "answers", "mentioning_answers", "visibility", "ci95_low", "ci95_high"],
        rows: visibility.points.flatMap((p) =>
          [...visibility.providers.map((pr) => ({ name: pr.name, e: p.byProvider[pr.id] })), { name: "All providers", e: p.all }]
            .filter(({ e }) => e && e.n > 0)
            .map(({ name, e }) => [p.bucket, name, e!.n, e!.mentioned, e!.value, e!.low, e!.high]),
        ),
      },
    [visibility, filter.from, filter.to],
  );
  return (
    <ChartCard
      title="Visibility over time"
      description={`Share of answers that mention ${brandName}, per provider and ${visibility?.unit === "week" ? "week" : "day"}. Hover a point for its sample size and 95% interval.`}
      sample={sampleNote(total)}
      status={query}
      isEmpty={total === 0}
      empty={empty}
      csv={csv ?? undefined}
      height={300}
    >
      <ResponsiveContainer width="100%" height={300}>
        <LineChart data={rows} margin={{ top: 8, right: 16, bottom: 0, left: -8 }}>
          <CartesianGrid strokeDasharray="3 3" stroke="#e2e8f0" vertical={false} />
          <XAxis dataKey="label" tick={{ fontSize: 12, fill: "#64748b" }} tickLine={false} axisLine={{ stroke: "#cbd5e1" }} minTickGap={24} />
          <YAxis domain={[0, 100]} ticks={[0, 25, 50, 75, 100]} tickFormatter={(v: number) => `${v}%`} tick={{ fontSize: 12, fill: "#64748b" }} tickLine={false} axisLine={false} width={48} />
          <Tooltip content={(props) => <VisibilityTooltip {...props} visibility={visibility!} series={series} />} />
          <Legend iconType="plainline" {...legendProps} />
          {series.map((s) => (
            <Line
              key={s.id}
              type="linear"
              dataKey={s.id}
              name={s.name}
              stroke={s.color}
              strokeWidth={s.id === ALL ? 2.5 : 1.75}
              strokeDasharray={s.id === ALL ? "5 4" : undefined}
              dot={rows.length <= 31 ? { r: 2.5 } : false}
              activeDot={{ r: 4 }}
              connectNulls
              isAnimationActive={false}
            />
          ))}
        </LineChart>
      </ResponsiveContainer>
    </ChartCard>
  );
}

function shape(visibility: Visibility | undefined) {
  if (!visibility) return { rows: [], series: [], total: 0 };
  const series = [
    ...visibility.providers.map((p, i) => ({ id: p.id, name: p.name, color: seriesColor(i + 1) })),
    ...(visibility.providers.length > 1 ? [{ id: ALL, name: "All providers", color: "#334155" }] : []),
  ];
  const rows = visibility.points.map((p) => {
    const row: Record<string, string | number | null> = { bucket: p.bucket, label: formatBucket(p.bucket, visibility.unit) };
    for (const s of series) {
      const e = s.id === ALL ? p.all : p.byProvider[s.id];
      row[s.id] = e && e.value !== null ? Math.round(e.value * 1000) / 10 : null;
    }
    return row;
  });
  const total = visibility.points.reduce((sum, p) => sum + p.all.n, 0);
  return { rows, series, total };
}

function VisibilityTooltip({ active, payload, visibility, series }: Pick<TooltipContentProps, "active" | "payload"> & { visibility: Visibility; series: { id: string; name: string; color: string }[] }) {
  const bucket = payload?.[0]?.payload?.bucket as string | undefined;
  const point = visibility.points.find((p) => p.bucket === bucket);
  if (!active || !point) return null;
  const lines = series.flatMap((s) => {
    const e = s.id === ALL ? point.all : point.byProvider[s.id];
    if (!e || e.n === 0) return [];
    const interval = formatInterval(e.low, e.high, "share");
    return [{ color: s.color, label: s.name, value: formatPct(e.value), detail: `${e.mentioned}/${e.n}${interval ? ` · ${interval}` : ""}` }];
  });
  return <TooltipBox title={`${visibility.unit === "week" ? "Week of " : ""}${formatBucket(point.bucket)}`} lines={lines} footer="mentioning / answers · 95% interval" />;
}
