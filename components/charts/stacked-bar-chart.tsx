"use client";
import type { ComponentProps } from "react";
import { Bar, BarChart, CartesianGrid, Tooltip, XAxis, YAxis } from "recharts";
import { ResponsiveChart } from "@/components/charts/responsive-chart";
import { barCursor, gridProps, xAxisProps, yAxisProps } from "@/components/charts/axes";
import { PALE_OPACITY, type LegendItem } from "@/components/charts/legend";
import { formatAxisCount } from "@/lib/format";

/**
 * One stacked series: its rows' key, its name (legend and tooltip), its colour; `pale` draws it
 * at PALE_OPACITY with a dashed outline (a crawler's unverified requests); `inLegend: false`
 * keeps a series without data out of the legend.
 */
export type StackedSeries = { key: string; name: string; color: string; pale?: boolean; inLegend?: boolean };

/**
 * Counts per day or week (rows labelled in `label`), one stacked <Bar> per series, with their
 * legend below drawn from the same list; recharts' default tooltip unless the chart gives its own.
 */
export function StackedBarChart({
  rows,
  height,
  series,
  tooltip,
}: {
  rows: object[];
  height: number;
  series: StackedSeries[];
  tooltip?: ComponentProps<typeof Tooltip>["content"];
}) {
  const legend: LegendItem[] = series.filter((s) => s.inLegend !== false).map((s) => ({ name: s.name, color: s.color, mark: "bar", pale: s.pale }));
  return (
    <ResponsiveChart height={height} legend={legend}>
      <BarChart data={rows} margin={{ top: 8, right: 16, bottom: 0, left: -8 }}>
        <CartesianGrid {...gridProps} />
        <XAxis dataKey="label" {...xAxisProps} minTickGap={24} />
        <YAxis allowDecimals={false} tickFormatter={formatAxisCount} {...yAxisProps} width={48} />
        <Tooltip cursor={barCursor} {...(tooltip && { content: tooltip })} />
        {series.map((s) => (
          <Bar
            key={s.key}
            dataKey={s.key}
            name={s.name}
            stackId="stack"
            fill={s.color}
            {...(s.pale && { fillOpacity: PALE_OPACITY, stroke: s.color, strokeDasharray: "3 2" })}
            isAnimationActive={false}
          />
        ))}
      </BarChart>
    </ResponsiveChart>
  );
}
