"use client";
import { useMemo, type ReactNode } from "react";
import { BarStrip } from "@/components/charts/bar-strip";
import { ChartCard } from "@/components/charts/chart-card";
import { TooltipBox } from "@/components/charts/chart-tooltip";
import { formatBucket, formatCount, formatPct } from "@/lib/format";
import { seriesColor } from "@/components/charts/palette";
import type { AnalyticsFilterInput } from "@/lib/analytics/schemas";
import type { ChartData } from "@/lib/analytics/wire";
import { CATEGORY_LABELS, SOURCE_CATEGORIES, type SourceCategory } from "@/lib/sources/category-labels";
import { useChartQuery } from "../use-analytics-queries";

type Categories = ChartData<"source-categories">;

/** One colour per category, the same on every chart ("own" first, as the brand is first elsewhere). */
export const categoryColor = (category: SourceCategory) => seriesColor(SOURCE_CATEGORIES.indexOf(category));

// Eight stacked colours were hard to read (issue 19): small multiples instead, one panel per kind
// of site on one shared scale, so heights compare across panels and each shape reads alone. The
// biggest kinds get a panel each; the rest share one, so a phone shows at most six.
const PANELS = 5;
const REST = "rest";

/** `label` in full (the rest panel lists its kinds); `name` as the caption and tooltip show it. */
type Panel = { key: SourceCategory | typeof REST; label: string; name: string; color: string; citations: number; share: number; counts: number[] };

function panelsOf(data: Categories): Panel[] {
  const present = data.categories.filter((c) => c.citations > 0).sort((a, b) => b.citations - a.citations);
  const own = present.length > PANELS + 1 ? present.slice(0, PANELS) : present;
  const rest = present.slice(own.length);
  const panels: Panel[] = own.map((c) => ({
    key: c.category,
    label: CATEGORY_LABELS[c.category],
    name: CATEGORY_LABELS[c.category],
    color: categoryColor(c.category),
    citations: c.citations,
    share: c.share,
    counts: data.points.map((p) => p.counts[c.category]),
  }));
  if (rest.length) {
    panels.push({
      key: REST,
      label: `All other kinds (${rest.map((c) => CATEGORY_LABELS[c.category]).join(", ")})`,
      name: "All other kinds",
      color: "#94a3b8",
      citations: rest.reduce((sum, c) => sum + c.citations, 0),
      share: rest.reduce((sum, c) => sum + c.share, 0),
      counts: data.points.map((p) => rest.reduce((sum, c) => sum + p.counts[c.category], 0)),
    });
  }
  return panels;
}

/** Cited sources per category per day (per week past 120 days), one small chart per category. */
export function CategoryChart({ filter, empty }: { filter: AnalyticsFilterInput; empty: ReactNode }) {
  const query = useChartQuery("source-categories", filter);
  const data = query.data;
  const panels = useMemo(() => (data ? panelsOf(data) : []), [data]);
  const total = panels.reduce((sum, p) => sum + p.citations, 0);
  // The shared scale: the highest bucket of any panel.
  const yMax = Math.max(1, ...panels.flatMap((p) => p.counts));
  const unit = data?.unit === "week" ? "week" : "day";
  const csv = data && {
    filename: `source-categories-${filter.from}-${filter.to}`,
    header: ["bucket_start", "category", "citations"],
    rows: data.points.flatMap((p) => SOURCE_CATEGORIES.map((c) => [p.bucket, c, p.counts[c]])),
  };
  const first = data?.points[0]?.bucket;
  const last = data?.points.at(-1)?.bucket;
  return (
    <ChartCard
      title="Where answers come from"
      description={`Cited sources by kind of site per ${unit}, one panel per kind on the same scale (the ${PANELS} biggest; the rest together). Hover or tap a panel, or focus it and use the arrow keys, for a ${unit}'s count.`}
      sample={data && `${formatCount(total)} citations`}
      status={query}
      isEmpty={!total}
      empty={empty}
      csv={csv ?? undefined}
      height={300}
    >
      <div className="grid grid-cols-2 gap-x-4 gap-y-5 lg:grid-cols-3">
        {data &&
          panels.map((panel) => (
            <figure key={panel.key} className="min-w-0" data-category={panel.key}>
              {/* Two lines below sm: a phone's panel is ~150 px, too narrow for a long name and its numbers side by side. */}
              <figcaption className="mb-1 flex flex-wrap items-baseline gap-x-1.5 text-xs sm:flex-nowrap">
                <span className="inline-block size-2 shrink-0 rounded-full" style={{ background: panel.color }} aria-hidden />
                <span className="min-w-0 flex-1 truncate font-medium text-slate-700" title={panel.label}>{panel.name}</span>
                <span className="w-full shrink-0 tabular-nums text-slate-500 sm:ml-auto sm:w-auto">
                  {formatCount(panel.citations)} · {formatPct(panel.share)}
                </span>
              </figcaption>
              <PanelChart data={data} panel={panel} yMax={yMax} />
            </figure>
          ))}
      </div>
      {first && last && (
        <p className="mt-3 text-xs text-slate-500">
          Each panel: {formatBucket(first, data.unit)} to {formatBucket(last, data.unit)}, one bar per {unit}, 0 to {formatCount(yMax)} citations.
        </p>
      )}
    </ChartCard>
  );
}

/** A panel's bars, drawn as plain SVG (components/charts/bar-strip.tsx says why). */
function PanelChart({ data, panel, yMax }: { data: Categories; panel: Panel; yMax: number }) {
  const tooltip = (index: number) => {
    const point = data.points[index]!;
    const all = SOURCE_CATEGORIES.reduce((sum, c) => sum + point.counts[c], 0);
    const value = panel.counts[index]!;
    return (
      <TooltipBox
        title={`${data.unit === "week" ? "Week of " : ""}${formatBucket(point.bucket)}`}
        lines={[{ color: panel.color, label: panel.name, value: formatCount(value) }]}
        footer={all ? `${formatPct(value / all)} of ${formatCount(all)} citations` : "No citations"}
      />
    );
  };
  return <BarStrip values={panel.counts} max={yMax} color={panel.color} label={`${panel.label}: citations per ${data.unit === "week" ? "week" : "day"}`} height={110} tooltip={tooltip} />;
}
