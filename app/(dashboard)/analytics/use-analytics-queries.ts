"use client";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import type { ChartName } from "@/lib/analytics/charts";
import { filterSearchParams, type AnalyticsFilterInput } from "@/lib/analytics/schemas";
import type { ChartData } from "@/lib/analytics/wire";

// One query (and one GET request) per chart: a slow chart shows its own loading state and never
// holds the others. Not server actions: Next.js runs a client's actions one at a time, which
// would queue the charts (and the check page's poll) behind the slowest. Analytics change only
// when checks finish; the defaults (5 s stale, refetch on focus) are enough, and the previous
// view stays on screen while a new filter loads.
export const analyticsKey = (chart: ChartName, filter: AnalyticsFilterInput, ...rest: unknown[]) => ["analytics", chart, filter, ...rest] as const;

/** GET /api/analytics/<chart>; a refusal throws the route's message, which the chart shows. */
async function fetchChart<C extends ChartName>(chart: C, filter: AnalyticsFilterInput, signal: AbortSignal, extra: Record<string, number> = {}): Promise<ChartData<C>> {
  const params = filterSearchParams(filter);
  for (const [name, value] of Object.entries(extra)) params.set(name, String(value));
  let response: Response;
  try {
    response = await fetch(`/api/analytics/${chart}?${params}`, { signal, headers: { accept: "application/json" } });
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

function useChartQuery<C extends ChartName>(chart: C, filter: AnalyticsFilterInput) {
  return useQuery({
    queryKey: analyticsKey(chart, filter),
    queryFn: ({ signal }) => fetchChart(chart, filter, signal),
    placeholderData: keepPreviousData,
  });
}

export const useKpisQuery = (filter: AnalyticsFilterInput) => useChartQuery("kpis", filter);
export const useMarketsQuery = (filter: AnalyticsFilterInput) => useChartQuery("markets", filter);
export const useVisibilityQuery = (filter: AnalyticsFilterInput) => useChartQuery("visibility", filter);
export const useShareOfVoiceQuery = (filter: AnalyticsFilterInput) => useChartQuery("share-of-voice", filter);
export const usePositionsQuery = (filter: AnalyticsFilterInput) => useChartQuery("positions", filter);
export const usePromptsQuery = (filter: AnalyticsFilterInput) => useChartQuery("prompts", filter);
export const useTopDomainsQuery = (filter: AnalyticsFilterInput) => useChartQuery("top-domains", filter);
export const useOwnDomainQuery = (filter: AnalyticsFilterInput) => useChartQuery("own-domain", filter);
export const useCostsQuery = (filter: AnalyticsFilterInput) => useChartQuery("costs", filter);

export function useCitedPagesQuery(filter: AnalyticsFilterInput, page: number, pageSize: number) {
  return useQuery({
    queryKey: analyticsKey("cited-pages", filter, page, pageSize),
    queryFn: ({ signal }) => fetchChart("cited-pages", filter, signal, { page, pageSize }),
    placeholderData: keepPreviousData,
  });
}

export const useSourceCategoriesQuery = (filter: AnalyticsFilterInput) => useChartQuery("source-categories", filter);
export const useOwnPagesQuery = (filter: AnalyticsFilterInput) => useChartQuery("own-pages", filter);
/** Answers per provider whatever providers are chosen: keyed without them, so ticking one does not ask again. */
export const useProviderCoverageQuery = (filter: AnalyticsFilterInput) => useChartQuery("provider-coverage", { ...filter, providers: [] });
export const useGapSourcesQuery = (filter: AnalyticsFilterInput) => useChartQuery("gap-sources", filter);
