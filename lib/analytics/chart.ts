// What a dashboard chart is: one module per chart (lib/analytics/charts/<chart>.ts), listed once
// in lib/analytics/charts.ts, from which the chart routes (dashboards and REST v1), the OpenAPI
// description, the MCP get_numbers tool and the browser's fetch derive; a simple chart's module
// also says how it looks and where (`withView`, lib/analytics/chart-view.ts).
import "server-only";
import { z } from "zod";
import type { AnyChartView, ChartView } from "@/lib/analytics/chart-view";
import type { ResolvedFilter } from "@/lib/analytics/filter";

const noParams = z.object({});

export type Chart<S extends z.ZodObject = z.ZodObject, T = unknown, N extends string = string> = {
  /** Its address: GET /api/analytics/<name>, GET /api/v1/analytics/<name>, get_numbers { chart: name }. */
  name: N;
  /** What it answers, for API clients: the OpenAPI description and the MCP tool's. */
  description: string;
  /** Its own query-string parameters, besides the filter's (none for most charts). */
  params: S;
  /** Its one query; the answer goes out as JSON (a Date as its ISO string, a bigint as a number). */
  query(resolved: ResolvedFilter, params: z.output<S>): Promise<T>;
  /** How the generic card draws it, and on which page; none for a chart with its own component. */
  view?: AnyChartView;
};

/** A chart as defined, before any view: `withView` adds one. */
export type DefinedChart<S extends z.ZodObject, T, N extends string> = Chart<S, T, N> & {
  /**
   * The same chart, drawn by the generic card from `view`. A call of its own rather than a field
   * of `defineChart`'s argument: there, checking the view's field names would fix the answer's
   * type before TypeScript reads it from an inline query, leaving it `unknown`.
   */
  withView(view: ChartView<T>): Chart<S, T, N>;
};

/** Keeps the chart's name and answer as literal types, so the list of charts types the routes and the browser's data. */
export const defineChart = <const N extends string, T, S extends z.ZodObject = typeof noParams>(chart: {
  name: N;
  description: string;
  params?: S;
  query: (resolved: ResolvedFilter, params: z.output<S>) => Promise<T>;
}): DefinedChart<S, T, N> => {
  const defined: Chart<S, T, N> = { ...chart, params: (chart.params ?? noParams) as S };
  // The view's field names are checked against the answer here; the card reads its rows as records.
  return { ...defined, withView: (view) => ({ ...defined, view: view as unknown as AnyChartView }) };
};
