"use client";
import type { ComponentProps, ReactNode } from "react";
import { BarChart, CartesianGrid, Legend, Tooltip, XAxis, YAxis } from "recharts";
import { ResponsiveChart } from "@/components/charts/responsive-chart";
import { barCursor, gridProps, xAxisProps, yAxisProps } from "@/components/charts/axes";
import { legendProps } from "@/components/charts/legend";
import { formatAxisCount } from "@/lib/format";

/**
 * Counts per day or week (rows labelled in `label`), one stacked <Bar> per series given as
 * children, with the legend below; recharts' default tooltip unless the chart gives its own.
 */
export function StackedBarChart({ rows, height, tooltip, children }: { rows: object[]; height: number; tooltip?: ComponentProps<typeof Tooltip>["content"]; children: ReactNode }) {
  return (
    <ResponsiveChart height={height}>
      <BarChart data={rows} margin={{ top: 8, right: 16, bottom: 0, left: -8 }}>
        <CartesianGrid {...gridProps} />
        <XAxis dataKey="label" {...xAxisProps} minTickGap={24} />
        <YAxis allowDecimals={false} tickFormatter={formatAxisCount} {...yAxisProps} width={48} />
        <Tooltip cursor={barCursor} {...(tooltip && { content: tooltip })} />
        <Legend {...legendProps} />
        {children}
      </BarChart>
    </ResponsiveChart>
  );
}
