"use client";
import { useMemo, type ReactNode } from "react";
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis, type TooltipContentProps } from "recharts";
import { ChartCard } from "@/components/charts/chart-card";
import { TooltipBox } from "@/components/charts/chart-tooltip";
import { formatBucket, formatCount } from "@/lib/format";
import { legendProps } from "@/components/charts/legend";
import { seriesColor } from "@/components/charts/palette";
import type { AnalyticsFilterInput } from "@/lib/analytics/schemas";
import type { ChartData } from "@/lib/analytics/wire";
import { CATEGORY_LABELS, SOURCE_CATEGORIES, type SourceCategory } from "@/lib/sources/categories";
import { useChartQuery } from "../use-analytics-queries";

type Categories = ChartData<"source-categories">;

/** One colour per category, the same on every chart ("own" first, as the brand is first elsewhere). */
export const categoryColor = (category: SourceCategory) => seriesColor(SOURCE_CATEGORIES.indexOf(category));

/** Cited sources per category, stacked per day (per week past 120 days). */
export function CategoryChart({ filter, empty }: { filter: AnalyticsFilterInput; empty: ReactNode }) {
  const query = useChartQuery("source-categories", filter);
  const data = query.data;
  const rows = useMemo(() => data?.points.map((p) => ({ bucket: p.bucket, label: formatBucket(p.bucket, data.unit), ...p.counts })) ?? [], [data]);
  const present = data?.categories.filter((c) => c.citations > 0) ?? [];
  const total = present.reduce((sum, c) => sum + c.citations, 0);
  const csv = data && {
    filename: `source-categories-${filter.from}-${filter.to}`,
    header: ["bucket_start", "category", "citations"],
    rows: data.points.flatMap((p) => SOURCE_CATEGORIES.map((c) => [p.bucket, c, p.counts[c]])),
  };
  return (
    <ChartCard
      title="Where answers come from"
      description={`Cited sources by kind of site per ${data?.unit === "week" ? "week" : "day"}: your own, competitors', review sites, forums, news, reference, social and video, documentation.`}
      sample={data && `${formatCount(total)} citations`}
      status={query}
      isEmpty={!total}
      empty={empty}
      csv={csv ?? undefined}
      height={300}
    >
      <ResponsiveContainer width="100%" height={300}>
        <BarChart data={rows} margin={{ top: 8, right: 16, bottom: 0, left: -16 }}>
          <CartesianGrid strokeDasharray="3 3" stroke="#e2e8f0" vertical={false} />
          <XAxis dataKey="label" tick={{ fontSize: 12, fill: "#64748b" }} tickLine={false} axisLine={{ stroke: "#cbd5e1" }} minTickGap={24} />
          <YAxis allowDecimals={false} tick={{ fontSize: 12, fill: "#64748b" }} tickLine={false} axisLine={false} width={48} />
          <Tooltip cursor={{ fill: "#f1f5f9" }} content={(props) => <CategoriesTooltip {...props} data={data!} />} />
          <Legend {...legendProps} />
          {present.map((c) => (
            <Bar key={c.category} dataKey={c.category} name={CATEGORY_LABELS[c.category]} stackId="categories" fill={categoryColor(c.category)} isAnimationActive={false} />
          ))}
        </BarChart>
      </ResponsiveContainer>
    </ChartCard>
  );
}

function CategoriesTooltip({ active, payload, data }: Pick<TooltipContentProps, "active" | "payload"> & { data: Categories }) {
  const bucket = payload?.[0]?.payload?.bucket as string | undefined;
  const point = data.points.find((p) => p.bucket === bucket);
  if (!active || !point) return null;
  const lines = SOURCE_CATEGORIES.map((c) => ({ color: categoryColor(c), label: CATEGORY_LABELS[c], value: point.counts[c] }))
    .filter((l) => l.value > 0)
    .sort((a, b) => b.value - a.value);
  return <TooltipBox title={`${data.unit === "week" ? "Week of " : ""}${formatBucket(point.bucket)}`} lines={lines.length ? lines : [{ color: "#cbd5e1", label: "No citations", value: "" }]} />;
}
