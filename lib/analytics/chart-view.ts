// How a simple chart looks, declared in its module (lib/analytics/charts/<chart>.ts, `withView`) and
// drawn by the one generic card (app/(dashboard)/analytics/spec-chart.tsx) at its place on its
// page, so such a chart needs no component and no edit of the page. Plain data, no functions: the
// page's server component hands the views to the page's client component as props. Charts whose
// look does not fit (intervals, stacked entities, controls) keep their own components.

/**
 * The dashboard pages that draw the views declared for them, where their `PageCharts` stands
 * (after the gap sources on Sources). Another page joins with its own `PageCharts` and the list
 * from `pageCharts` (lib/analytics/charts.ts) passed by its server component; the Overview would
 * also need its shared report (lib/share-links, `SHARED_CHARTS`) to read the declared charts.
 */
export type ChartPage = "sources";

/**
 * How a value is shown: `count` 1,204; `pct` a share as 12%; `micros` money in dollars; `bucket`
 * a bucket key (`YYYY-MM-DD`) as a day, week or month after the answer's `unit`; `text` as is;
 * `page` the row's `title` linked to its `url` (the address when it has no title).
 */
export type ValueFormat = "count" | "pct" | "micros" | "bucket" | "text" | "page";

type Field<Row> = { key: keyof Row & string; label: string; format: ValueFormat };

type ViewOf<K extends string, Row> = {
  page: ChartPage;
  /** Its place among the page's declared charts, smallest first. */
  order: number;
  /** `line` or `bar`: `x` along the axis, a line or bar per series; `table`: `x` the first column, a column per series. */
  kind: "line" | "bar" | "table";
  /** In both, "{brand}" is replaced by the selected brand's name. */
  title: string;
  description: string;
  /** The answer's field holding the rows drawn. */
  rows: K;
  x: Field<Row>;
  series: Field<Row>[];
  /** Under the title: "`n` `noun`", n the number of rows, or the sum of `sumOf` over them. */
  sample: { noun: string; sumOf?: keyof Row & string };
  /** The CSV button: `<filename>-<from>-<to>.csv`, a column per entry holding the row's raw value. */
  csv: { filename: string; columns: { key: keyof Row & string; header: string }[] };
  /** What the empty state says is missing ("cited sources"); the page's hint on starting a check. */
  emptyWhat: string;
  /** Pixels; 280 unless given. */
  height?: number;
};

type RowsKey<T> = { [K in keyof T]: T[K] extends readonly object[] ? K : never }[keyof T] & string;

/** A view of a chart whose query answers `T`, its field names checked against the rows it names. */
export type ChartView<T> = { [K in RowsKey<T>]: ViewOf<K, T[K] extends readonly (infer Row)[] ? Row : never> }[RowsKey<T>];

/** Any chart's view, as the generic card reads it. */
export type AnyChartView = ViewOf<string, Record<string, unknown>>;
