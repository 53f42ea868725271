"use client";
import type { ComponentProps, ReactNode } from "react";
import { BarChart, CartesianGrid, Tooltip, XAxis, YAxis } from "recharts";
import { ResponsiveChart } from "@/components/charts/responsive-chart";
import { barCursor, gridProps, xAxisProps, yAxisProps } from "@/components/charts/axes";
import type { LegendItem } from "@/components/charts/legend";
import { formatAxisCount } from "@/lib/format";

/**
 * Counts per day or week (rows labelled in `label`), one stacked <Bar> per series given as
 * children, with `legend` below (the same series); recharts' default tooltip unless the chart gives its own.
 */
export function StackedBarChart({
  rows,
  height,
  legend,
  tooltip,
  children,
}: {
  rows: object[];
  height: number;
  legend: LegendItem[];
  tooltip?: ComponentProps<typeof Tooltip>["content"];
  children: ReactNode;
}) {
  return (
    <ResponsiveChart height={height} legend={legend}>
      <BarChart data={rows} margin={{ top: 8, right: 16, bottom: 0, left: -8 }}>
        <CartesianGrid {...gridProps} />
        <XAxis dataKey="label" {...xAxisProps} minTickGap={24} />
        <YAxis allowDecimals={false} tickFormatter={formatAxisCount} {...yAxisProps} width={48} />
        <Tooltip cursor={barCursor} {...(tooltip && { content: tooltip })} />
        {children}
      </BarChart>
    </ResponsiveChart>
  );
}
