import "server-only";
import { CHARTS, type Chart, type ChartName } from "@/lib/analytics/charts";
import { resolveFilter, type ResolvedFilter } from "@/lib/analytics/filter";
import { analyticsFilterInput, filterFromSearchParams } from "@/lib/analytics/schemas";
import { refuseOddFilterParams } from "@/lib/analytics/filter-params";
import { parseOrThrow } from "@/lib/validation/parse";
import { NotFoundError } from "@/lib/errors";

/**
 * One dashboard chart of a workspace from the filter as a query string carries it (brand,
 * providers, tags, markets, range or from/to, and the chart's own parameters), through the
 * chart's one query (lib/analytics/charts.ts): what REST v1 and the MCP server answer, number
 * for number the dashboards'. Refuses odd parameters (400 naming the field) and a brand or provider of another
 * workspace (404). Does not authorize: callers check canView first.
 */
export async function readChart(workspaceId: string, name: ChartName, params: URLSearchParams): Promise<unknown> {
  // Each entry's query takes its own params; the table as a whole is queried through the common shape.
  const chart: Chart = CHARTS[name];
  const resolved = await resolveFilterParams(workspaceId, params, Object.keys(chart.params.shape));
  const own = parseOrThrow(chart.params, Object.fromEntries([...params].filter(([key]) => key in chart.params.shape)));
  return chart.query(resolved, own);
}

/** The filter of a query string, checked against the workspace; `extra` names the caller's own parameters. */
export async function resolveFilterParams(workspaceId: string, params: URLSearchParams, extra: string[] = []): Promise<ResolvedFilter> {
  refuseOddFilterParams(params, extra);
  const resolved = await resolveFilter(workspaceId, parseOrThrow(analyticsFilterInput, filterFromSearchParams(params)));
  if (!resolved) throw new NotFoundError("This workspace tracks no brand yet: add one under Brands.");
  return resolved;
}
