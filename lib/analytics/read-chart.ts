import "server-only";
import { CHARTS, type Chart, type ChartName } from "@/lib/analytics/charts";
import { resolveFilter, type ResolvedFilter } from "@/lib/analytics/filter";
import { analyticsFilterInput, filterFromSearchParams, type ParsedAnalyticsFilter } from "@/lib/analytics/schemas";
import { refuseOddFilterParams } from "@/lib/analytics/filter-params";
import { parseOrThrow } from "@/lib/validation/parse";
import { NotFoundError } from "@/lib/errors";

/** Resolves a parsed filter against the workspace (resolveFilter, or a request's shared one: sharedFilters). */
export type FilterResolver = (workspaceId: string, input: ParsedAnalyticsFilter) => Promise<ResolvedFilter | null>;

/**
 * A resolver that reads each distinct filter once: one request that answers several charts of one
 * page (the dashboards' batch, a share link's report) looks its brand and providers up once, not
 * once per chart. Keep it for one request only: it does not see later edits.
 */
export function sharedFilters(): FilterResolver {
  const seen = new Map<string, Promise<ResolvedFilter | null>>();
  return (workspaceId, input) => {
    const key = JSON.stringify([workspaceId, input]);
    let resolved = seen.get(key);
    if (!resolved) seen.set(key, (resolved = resolveFilter(workspaceId, input)));
    return resolved;
  };
}

/**
 * One dashboard chart of a workspace from the filter as a query string carries it (brand,
 * providers, tags, markets, range or from/to, and the chart's own parameters), through the
 * chart's one query (lib/analytics/charts.ts): what REST v1 and the MCP server answer, number
 * for number the dashboards'. Refuses odd parameters (400 naming the field) and a brand or provider of another
 * workspace (404). Does not authorize: callers check canView first.
 */
export async function readChart(workspaceId: string, name: ChartName, params: URLSearchParams, resolve: FilterResolver = resolveFilter): Promise<unknown> {
  // Each entry's query takes its own params; the table as a whole is queried through the common shape.
  const chart: Chart = CHARTS[name];
  const resolved = await resolveFilterParams(workspaceId, params, Object.keys(chart.params.shape), resolve);
  const own = parseOrThrow(chart.params, Object.fromEntries([...params].filter(([key]) => key in chart.params.shape)));
  return chart.query(resolved, own);
}

/** The filter of a query string, checked against the workspace; `extra` names the caller's own parameters. */
export async function resolveFilterParams(workspaceId: string, params: URLSearchParams, extra: string[] = [], resolve: FilterResolver = resolveFilter): Promise<ResolvedFilter> {
  refuseOddFilterParams(params, extra);
  const resolved = await resolve(workspaceId, parseOrThrow(analyticsFilterInput, filterFromSearchParams(params)));
  if (!resolved) throw new NotFoundError("This workspace tracks no brand yet: add one under Brands.");
  return resolved;
}
