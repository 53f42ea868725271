"use client";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import type { ChartName, ChartParams } from "@/lib/analytics/charts";
import { chartPath } from "@/lib/analytics/filter-query";
import type { AnalyticsFilterInput } from "@/lib/analytics/schemas";
import type { ChartData } from "@/lib/analytics/wire";

// One query (and one GET request) per chart: a slow chart shows its own loading state and never
// holds the others. Not server actions: Next.js runs a client's actions one at a time, which
// would queue the charts (and the check page's poll) behind the slowest. Analytics change only
// when checks finish; the defaults (5 s stale, refetch on focus) are enough, and the previous
// view stays on screen while a new filter loads.
export const analyticsKey = (chart: ChartName, filter: AnalyticsFilterInput, ...rest: unknown[]) => ["analytics", chart, filter, ...rest] as const;

/** GET /api/analytics/<chart>; a refusal throws the route's message, which the chart shows. */
async function fetchChart<C extends ChartName>(chart: C, filter: AnalyticsFilterInput, signal: AbortSignal, own: ChartParams<C> = {}): Promise<ChartData<C>> {
  let response: Response;
  try {
    // A dashboard's first requests were preloaded by its server component under the same address
    // (first-requests.ts): the browser answers this fetch from that preload.
    response = await fetch(chartPath(chart, filter, own), { signal, headers: { accept: "application/json" } });
  } catch (error) {
    // Leaving the filter aborts the request: TanStack Query expects the abort itself.
    if (signal.aborted) throw error;
    throw new Error("No response from the server. Check your connection and try again.");
  }
  const body: unknown = await response.json().catch(() => null);
  if (!response.ok) {
    const message = (body as { error?: { message?: string } } | null)?.error?.message;
    throw new Error(message ?? `The server answered ${response.status}. Please try again.`);
  }
  return body as ChartData<C>;
}

/** One chart's data for the filter (and the chart's own parameters, e.g. cited-pages' page), any chart of lib/analytics/charts.ts. */
export function useChartQuery<C extends ChartName>(chart: C, filter: AnalyticsFilterInput, params?: ChartParams<C>) {
  return useQuery({
    queryKey: params ? analyticsKey(chart, filter, params) : analyticsKey(chart, filter),
    queryFn: ({ signal }) => fetchChart(chart, filter, signal, params),
    placeholderData: keepPreviousData,
  });
}
