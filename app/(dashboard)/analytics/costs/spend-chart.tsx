"use client";
import { useMemo } from "react";
import { Bar, BarChart, CartesianGrid, Tooltip, XAxis, YAxis, type TooltipContentProps } from "recharts";
import { ResponsiveChart } from "@/components/charts/responsive-chart";
import { barCursor, gridProps, xAxisProps, yAxisProps } from "@/components/charts/axes";
import { ChartCard } from "@/components/charts/chart-card";
import { TooltipBox } from "@/components/charts/chart-tooltip";
import { formatBucket, formatCount, formatDollarsAxis, formatDollarsExact, formatMicros } from "@/lib/format";
import { seriesColor } from "@/components/charts/palette";
import type { AnalyticsFilterInput } from "@/lib/analytics/schemas";
import type { ChartData } from "@/lib/analytics/wire";
import { useChartQuery } from "../use-analytics-queries";

type Daily = ChartData<"costs">["daily"];

/** Spend per provider per day (per week past 120 days), stacked, in dollars. */
export function SpendChart({ filter }: { filter: AnalyticsFilterInput }) {
  const query = useChartQuery("costs", filter);
  const data = query.data;
  const daily = data?.daily;
  const rows = useMemo(
    () =>
      daily?.points.map((p) => ({
        bucket: p.bucket,
        label: formatBucket(p.bucket, data!.unit),
        ...Object.fromEntries(daily.providers.map((pr) => [pr.id, (p.spentMicros[pr.id] ?? 0) / 1_000_000])),
      })) ?? [],
    [daily, data],
  );
  const csv = daily && {
    filename: `spend-per-provider-${filter.from}-${filter.to}`,
    header: ["bucket_start", "provider", "spend_usd"],
    rows: daily.points.flatMap((p) => daily.providers.map((pr) => [p.bucket, pr.name, formatDollarsExact(p.spentMicros[pr.id] ?? 0)])),
  };
  return (
    <ChartCard
      title="Spend per provider"
      description={`Cost of every attempt, accepted or not, by the ${data?.unit === "week" ? "week" : "day"} it started (UTC).`}
      sample={data && `${formatCount(data.totals.attempts)} attempts · ${formatMicros(data.totals.spentMicros)}`}
      status={query}
      isEmpty={!data?.totals.attempts}
      empty="No provider calls for these filters. Run a check, or widen the dates."
      csv={csv ?? undefined}
      height={300}
    >
      <ResponsiveChart height={300} legend={daily?.providers.map((p, i) => ({ name: p.name, color: seriesColor(i + 1), mark: "bar" }))}>
        <BarChart data={rows} margin={{ top: 8, right: 16, bottom: 0, left: -4 }}>
          <CartesianGrid {...gridProps} />
          <XAxis dataKey="label" {...xAxisProps} minTickGap={24} />
          <YAxis tickFormatter={formatDollarsAxis} {...yAxisProps} width={56} />
          <Tooltip cursor={barCursor} content={(props) => <SpendTooltip {...props} daily={daily!} unit={data!.unit} />} />
          {daily?.providers.map((p, i) => (
            <Bar key={p.id} dataKey={p.id} name={p.name} stackId="spend" fill={seriesColor(i + 1)} isAnimationActive={false} />
          ))}
        </BarChart>
      </ResponsiveChart>
    </ChartCard>
  );
}

function SpendTooltip({ active, payload, daily, unit }: Pick<TooltipContentProps, "active" | "payload"> & { daily: Daily; unit: "day" | "week" }) {
  const bucket = payload?.[0]?.payload?.bucket as string | undefined;
  const point = daily.points.find((p) => p.bucket === bucket);
  if (!active || !point) return null;
  const total = daily.providers.reduce((sum, p) => sum + (point.spentMicros[p.id] ?? 0), 0);
  const lines = daily.providers.map((p, i) => ({ color: seriesColor(i + 1), label: p.name, value: formatMicros(point.spentMicros[p.id] ?? 0) }));
  return <TooltipBox title={`${unit === "week" ? "Week of " : ""}${formatBucket(point.bucket)}`} lines={lines} footer={`Total ${formatMicros(total)}`} />;
}
