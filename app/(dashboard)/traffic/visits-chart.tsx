"use client";
import Link from "next/link";
import { useMemo } from "react";
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { ChartCard } from "@/components/charts/chart-card";
import { legendProps } from "@/components/charts/legend";
import { seriesColor } from "@/components/charts/palette";
import type { AnalyticsFilterInput } from "@/lib/analytics/schemas";
import { formatBucket, formatCount } from "@/lib/format";
import { useChartQuery } from "../analytics/use-analytics-queries";

// The assistants drawn one by one; the rest stack as "Other assistants", so the legend stays readable.
const DRAWN = 7;
const OTHER = "Other assistants";

/**
 * Visits that assistants sent to the brand's pages per day (per week past 120 days), a stack per
 * assistant, from the visits script. Without a site key the empty state says where to make one.
 */
export function VisitsChart({ filter, brandName, hasSiteKey }: { filter: AnalyticsFilterInput; brandName: string; hasSiteKey: boolean }) {
  const query = useChartQuery("traffic-visits", filter);
  const data = query.data;
  const drawn = useMemo(() => {
    const assistants = data?.assistants ?? [];
    return assistants.length > DRAWN + 1 ? [...assistants.slice(0, DRAWN).map((a) => a.assistant), OTHER] : assistants.map((a) => a.assistant);
  }, [data]);
  const rows = useMemo(() => {
    if (!data) return [];
    const series = new Set(drawn);
    const byBucket = new Map(data.buckets.map((bucket) => [bucket, { label: formatBucket(bucket, data.unit) } as Record<string, string | number>]));
    for (const row of data.rows) {
      const point = byBucket.get(row.bucket);
      if (!point) continue;
      const key = series.has(row.assistant) ? row.assistant : OTHER;
      point[key] = Number(point[key] ?? 0) + row.visits;
    }
    return [...byBucket.values()];
  }, [data, drawn]);
  const total = data?.assistants.reduce((sum, a) => sum + a.visits, 0) ?? 0;
  const csv = data && {
    filename: `traffic-visits-${filter.from}-${filter.to}`,
    header: ["bucket_start", "assistant", "visits"],
    rows: data.rows.map((r) => [r.bucket, r.assistant, r.visits]),
  };
  const settings = (
    <Link href="/settings?tab=site-key" className="font-medium text-brand-700 underline underline-offset-2 hover:text-brand-800">
      Settings → Visits script
    </Link>
  );
  const empty = hasSiteKey ? (
    <>No visit from an assistant reached {brandName}&apos;s pages in these dates. Check that the visits script from {settings} is on your pages.</>
  ) : (
    <>Add the visits script to your site to count the people assistants send you: create a site key and copy the snippet in {settings}.</>
  );
  return (
    <ChartCard
      title="AI visits"
      description={`People that ChatGPT, Perplexity, Gemini and other assistants sent to ${brandName}'s pages, per ${data?.unit === "week" ? "week" : "day"} and assistant (from the visits script: the referrer or utm_source names the assistant).`}
      sample={data && `${formatCount(total)} visits`}
      status={query}
      isEmpty={!total}
      empty={empty}
      csv={csv ?? undefined}
      height={260}
    >
      <ResponsiveContainer width="100%" height={260}>
        <BarChart data={rows} margin={{ top: 8, right: 16, bottom: 0, left: -16 }}>
          <CartesianGrid strokeDasharray="3 3" stroke="#e2e8f0" vertical={false} />
          <XAxis dataKey="label" tick={{ fontSize: 12, fill: "#64748b" }} tickLine={false} axisLine={{ stroke: "#cbd5e1" }} minTickGap={24} />
          <YAxis allowDecimals={false} tick={{ fontSize: 12, fill: "#64748b" }} tickLine={false} axisLine={false} width={48} />
          <Tooltip cursor={{ fill: "#f1f5f9" }} />
          <Legend {...legendProps} />
          {drawn.map((name, i) => (
            <Bar key={name} dataKey={name} name={name} stackId="visits" fill={seriesColor(i)} isAnimationActive={false} />
          ))}
        </BarChart>
      </ResponsiveContainer>
    </ChartCard>
  );
}
