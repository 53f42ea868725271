"use client";
import { useMemo, type ReactNode } from "react";
import { Area, AreaChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis, type TooltipContentProps } from "recharts";
import { ChartCard } from "@/components/charts/chart-card";
import { TooltipBox } from "@/components/charts/chart-tooltip";
import { legendProps } from "@/components/charts/legend";
import { formatBucket, formatCount, formatPct, sampleNote } from "@/lib/format";
import { seriesColor } from "@/components/charts/palette";
import type { AnalyticsFilterInput } from "@/lib/analytics/schemas";
import type { ChartData } from "@/lib/analytics/wire";
import { useChartQuery } from "../use-analytics-queries";

type ShareOfVoice = ChartData<"share-of-voice">;

/**
 * Brand and competitors as stacked shares of all tracked mentions, per bucket. Buckets without
 * any mention are left out rather than drawn as a collapse to zero.
 */
export function ShareOfVoiceChart({ filter, empty }: { filter: AnalyticsFilterInput; empty: ReactNode }) {
  const query = useChartQuery("share-of-voice", filter);
  const sov = query.data;
  const answers = sov?.answers ?? 0;
  const { rows, series, mentions } = useMemo(() => shape(sov), [sov]);
  const csv = useMemo(
    () =>
      sov && {
        filename: `share-of-voice-${filter.from}-${filter.to}`,
        header: ["bucket_start", "entity", "mentions", "all_tracked_mentions", "share"],
        rows: sov.points.filter((p) => p.total > 0).flatMap((p) => sov.entities.map((e) => [p.bucket, e.name, p.mentions[e.id] ?? 0, p.total, p.shares[e.id] ?? null])),
      },
    [sov, filter.from, filter.to],
  );
  return (
    <ChartCard
      title="Share of voice"
      description="Each entity's mentions as a share of all tracked mentions."
      sample={`${sampleNote(answers)} · ${formatCount(mentions)} mentions`}
      status={query}
      isEmpty={mentions === 0}
      empty={empty}
      csv={csv ?? undefined}
    >
      <ResponsiveContainer width="100%" height={280}>
        <AreaChart data={rows} margin={{ top: 8, right: 16, bottom: 0, left: -8 }}>
          <CartesianGrid strokeDasharray="3 3" stroke="#e2e8f0" vertical={false} />
          <XAxis dataKey="label" tick={{ fontSize: 12, fill: "#64748b" }} tickLine={false} axisLine={{ stroke: "#cbd5e1" }} minTickGap={24} />
          <YAxis domain={[0, 100]} ticks={[0, 25, 50, 75, 100]} tickFormatter={(v: number) => `${v}%`} tick={{ fontSize: 12, fill: "#64748b" }} tickLine={false} axisLine={false} width={48} />
          <Tooltip content={(props) => <SovTooltip {...props} sov={sov!} series={series} />} />
          <Legend {...legendProps} />
          {series.map((s) => (
            <Area key={s.id} type="linear" dataKey={s.id} name={s.name} stackId="sov" stroke={s.color} fill={s.color} fillOpacity={s.id === "brand" ? 0.75 : 0.45} isAnimationActive={false} />
          ))}
        </AreaChart>
      </ResponsiveContainer>
    </ChartCard>
  );
}

function shape(sov: ShareOfVoice | undefined) {
  if (!sov) return { rows: [], series: [], mentions: 0 };
  const series = sov.entities.map((e, i) => ({ id: e.id, name: e.name, color: seriesColor(i) }));
  const rows = sov.points
    .filter((p) => p.total > 0)
    .map((p) => ({
      bucket: p.bucket,
      label: formatBucket(p.bucket, sov.unit),
      ...Object.fromEntries(series.map((s) => [s.id, Math.round((p.shares[s.id] ?? 0) * 1000) / 10])),
    }));
  return { rows, series, mentions: sov.points.reduce((sum, p) => sum + p.total, 0) };
}

function SovTooltip({ active, payload, sov, series }: Pick<TooltipContentProps, "active" | "payload"> & { sov: ShareOfVoice; series: { id: string; name: string; color: string }[] }) {
  const bucket = payload?.[0]?.payload?.bucket as string | undefined;
  const point = sov.points.find((p) => p.bucket === bucket);
  if (!active || !point) return null;
  const lines = [...series].reverse().map((s) => ({ color: s.color, label: s.name, value: formatPct(point.shares[s.id]), detail: `${point.mentions[s.id] ?? 0}` }));
  return <TooltipBox title={`${sov.unit === "week" ? "Week of " : ""}${formatBucket(point.bucket)}`} lines={lines} footer={`share · mentions (of ${point.total})`} />;
}
