"use client";
import { useMemo, type ReactNode } from "react";
import { Bar, BarChart, CartesianGrid, Cell, LabelList, Tooltip, XAxis, YAxis, type TooltipContentProps } from "recharts";
import { ResponsiveChart } from "@/components/charts/responsive-chart";
import { barCursor, gridProps, xAxisProps, yAxisProps } from "@/components/charts/axes";
import { ChartCard } from "@/components/charts/chart-card";
import { TooltipBox } from "@/components/charts/chart-tooltip";
import { formatInterval, formatPct, sampleNote } from "@/lib/format";
import type { AnalyticsFilterInput } from "@/lib/analytics/schemas";
import { useChartQuery } from "../use-analytics-queries";

const LABELS: Record<string, string> = { "1": "1st", "2": "2nd", "3": "3rd", "4": "4th", "5+": "5th+", "not mentioned": "Not mentioned" };

type Row = { label: string; share: number; captures: number; low: number | null; high: number | null; missing: boolean };

/** Where the brand comes among the tracked entities of each answer. */
export function PositionChart({ filter, brandName, empty }: { filter: AnalyticsFilterInput; brandName: string; empty: ReactNode }) {
  const query = useChartQuery("positions", filter);
  const positions = query.data;
  const rows = useMemo<Row[]>(
    () =>
      positions?.buckets.map((b) => ({
        label: LABELS[b.bucket] ?? b.bucket,
        share: Math.round((b.value ?? 0) * 1000) / 10,
        captures: b.captures,
        low: b.low,
        high: b.high,
        missing: b.bucket === "not mentioned",
      })) ?? [],
    [positions],
  );
  const csv = positions && {
    filename: `position-distribution-${filter.from}-${filter.to}`,
    header: ["position", "answers", "share", "ci95_low", "ci95_high"],
    rows: positions.buckets.map((b) => [b.bucket, b.captures, b.value, b.low, b.high]),
  };
  return (
    <ChartCard
      title="Position distribution"
      description={`Where ${brandName} comes among the brands an answer names.`}
      sample={positions && sampleNote(positions.n)}
      status={query}
      isEmpty={!positions?.n}
      empty={empty}
      csv={csv ?? undefined}
    >
      <ResponsiveChart height={280}>
        <BarChart data={rows} margin={{ top: 20, right: 8, bottom: 0, left: -8 }}>
          <CartesianGrid {...gridProps} />
          <XAxis dataKey="label" {...xAxisProps} interval={0} />
          <YAxis tickFormatter={(v: number) => `${v}%`} {...yAxisProps} width={48} />
          <Tooltip cursor={barCursor} content={(props) => <PositionTooltip {...props} />} />
          <Bar dataKey="share" name="Share of answers" radius={[3, 3, 0, 0]} isAnimationActive={false}>
            {rows.map((r) => (
              <Cell key={r.label} fill={r.missing ? "var(--color-slate-400)" : "var(--color-brand-600)"} />
            ))}
            <LabelList dataKey="share" position="top" formatter={(v: unknown) => `${v}%`} style={{ fontSize: 11, fill: "#475569" }} />
          </Bar>
        </BarChart>
      </ResponsiveChart>
    </ChartCard>
  );
}

function PositionTooltip({ active, payload }: Pick<TooltipContentProps, "active" | "payload">) {
  const row = payload?.[0]?.payload as Row | undefined;
  if (!active || !row) return null;
  const interval = formatInterval(row.low, row.high, "share");
  return (
    <TooltipBox
      title={row.label}
      lines={[{ color: row.missing ? "var(--color-slate-400)" : "var(--color-brand-600)", label: "Answers", value: `${row.captures}`, detail: formatPct(row.share / 100) }]}
      footer={interval ? `95% interval ${interval}` : undefined}
    />
  );
}
