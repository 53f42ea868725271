"use client";
import { useMemo, type ReactNode } from "react";
import { Bar, CartesianGrid, ComposedChart, Line, Tooltip, XAxis, YAxis, type TooltipContentProps } from "recharts";
import { ResponsiveChart } from "@/components/charts/responsive-chart";
import { barCursor, gridProps, xAxisProps, yAxisProps } from "@/components/charts/axes";
import { ChartCard } from "@/components/charts/chart-card";
import { TooltipBox } from "@/components/charts/chart-tooltip";
import { PageLink } from "@/components/charts/page-link";
import { seriesColor } from "@/components/charts/palette";
import { DataTable } from "@/components/ui/data-table";
import type { Column } from "@/components/ui/table-columns";
import type { AnyChartView, ValueFormat } from "@/lib/analytics/chart-view";
import type { PageChart } from "@/lib/analytics/charts";
import type { CsvValue } from "@/lib/analytics/csv";
import type { AnalyticsFilterInput } from "@/lib/analytics/schemas";
import { formatBucket, formatCount, formatMicros, formatPct } from "@/lib/format";
import { useChartQuery } from "./use-analytics-queries";

type Row = Record<string, unknown>;
type Unit = "day" | "week" | "month";

/**
 * The charts a page draws from their modules' views (lib/analytics/chart-view.ts), in their
 * order, each across the page's grid. `empty` says what to do when one has nothing to draw.
 */
export function PageCharts({ charts, filter, brandName, empty }: { charts: PageChart[]; filter: AnalyticsFilterInput; brandName: string; empty: (what: string) => ReactNode }) {
  return charts.map(({ chart, view }) => (
    <div key={chart} className="col-span-full">
      <SpecChart chart={chart} view={view} filter={filter} brandName={brandName} empty={empty(view.emptyWhat)} />
    </div>
  ));
}

function SpecChart({ chart, view, filter, brandName, empty }: PageChart & { filter: AnalyticsFilterInput; brandName: string; empty: ReactNode }) {
  const query = useChartQuery(chart, filter);
  const data = query.data as Row | undefined;
  const rows = useMemo(() => (data?.[view.rows] ?? []) as Row[], [data, view.rows]);
  const unit = data?.unit as Unit | undefined;
  const { sumOf, noun } = view.sample;
  const n = sumOf ? rows.reduce((sum, row) => sum + Number(row[sumOf] ?? 0), 0) : rows.length;
  const csv = data && {
    filename: `${view.csv.filename}-${filter.from}-${filter.to}`,
    header: view.csv.columns.map((c) => c.header),
    rows: rows.map((row) => view.csv.columns.map((c) => row[c.key] as CsvValue)),
  };
  const height = view.height ?? 280;
  return (
    <ChartCard
      title={view.title.replaceAll("{brand}", brandName)}
      description={view.description.replaceAll("{brand}", brandName)}
      sample={data && `${formatCount(n)} ${noun}`}
      status={query}
      isEmpty={!n}
      empty={empty}
      csv={csv}
      height={height}
    >
      {view.kind === "table" ? (
        <div className="-mx-5 -mb-5">
          <DataTable rows={rows} columns={tableColumns(view, unit)} rowKey={(row) => String(row[view.x.key])} />
        </div>
      ) : (
        <SeriesChart view={view} rows={rows} unit={unit} height={height} />
      )}
    </ChartCard>
  );
}

const NUMERIC: ValueFormat[] = ["count", "pct", "micros"];

function show(format: ValueFormat, value: unknown, row: Row, unit: Unit | undefined): ReactNode {
  if (value === null || value === undefined) return "—";
  switch (format) {
    case "count":
      return formatCount(Number(value));
    case "pct":
      return formatPct(Number(value));
    case "micros":
      return formatMicros(Number(value));
    case "bucket":
      return formatBucket(String(value), unit);
    case "page":
      return <PageLink url={String(row.url)} title={(row.title as string | null) ?? null} />;
    case "text":
      return String(value);
  }
}

function tableColumns(view: AnyChartView, unit: Unit | undefined): Column<Row>[] {
  return [view.x, ...view.series].map(({ key, label, format }) => ({
    id: key,
    header: label,
    numeric: NUMERIC.includes(format),
    // A page's title may be long: a readable minimum, wrapped past a maximum.
    className: format === "page" ? "min-w-48 max-w-xl" : "text-slate-700",
    cell: (row) => show(format, row[key], row, unit),
  }));
}

const LABEL = "__label";

function SeriesChart({ view, rows, unit, height }: { view: AnyChartView; rows: Row[]; unit: Unit | undefined; height: number }) {
  const points = useMemo(() => rows.map((row) => ({ ...row, [LABEL]: String(show(view.x.format === "page" ? "text" : view.x.format, row[view.x.key], row, unit)) })), [rows, view.x, unit]);
  const axisFormat = view.series[0]?.format ?? "count";
  return (
    <ResponsiveChart height={height} legend={view.series.length > 1 ? view.series.map((s, i) => ({ name: s.label, color: seriesColor(i), mark: view.kind === "line" ? "line" : "bar" })) : undefined}>
      <ComposedChart data={points} margin={{ top: 8, right: 16, bottom: 0, left: -8 }}>
        <CartesianGrid {...gridProps} />
        <XAxis dataKey={LABEL} {...xAxisProps} minTickGap={24} />
        <YAxis
          allowDecimals={axisFormat !== "count"}
          tickFormatter={(v: number) => String(show(axisFormat, v, {}, unit))}
          {...yAxisProps}
          width={56}
        />
        <Tooltip cursor={barCursor} content={(props) => <SeriesTooltip {...props} view={view} unit={unit} />} />
        {view.series.map((s, i) =>
          view.kind === "line" ? (
            <Line key={s.key} type="linear" dataKey={s.key} name={s.label} stroke={seriesColor(i)} strokeWidth={2} dot={false} isAnimationActive={false} />
          ) : (
            <Bar key={s.key} dataKey={s.key} name={s.label} fill={seriesColor(i)} isAnimationActive={false} />
          ),
        )}
      </ComposedChart>
    </ResponsiveChart>
  );
}

function SeriesTooltip({ active, payload, view, unit }: Pick<TooltipContentProps, "active" | "payload"> & { view: AnyChartView; unit: Unit | undefined }) {
  const row = payload?.[0]?.payload as Row | undefined;
  if (!active || !row) return null;
  const title = view.x.format === "bucket" && unit === "week" ? `Week of ${formatBucket(String(row[view.x.key]))}` : String(row[LABEL]);
  return <TooltipBox title={title} lines={view.series.map((s, i) => ({ color: seriesColor(i), label: s.label, value: show(s.format, row[s.key], row, unit) }))} />;
}
