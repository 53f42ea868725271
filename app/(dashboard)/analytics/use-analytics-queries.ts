"use client";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import type { ChartName, ChartParams } from "@/lib/analytics/charts";
import { chartPath } from "@/lib/analytics/filter-query";
import type { AnalyticsFilterInput } from "@/lib/analytics/schemas";
import { takeBatchedChart } from "@/lib/browser/chart-batch";
import { freshReadHeaders } from "@/lib/browser/fresh-reads";
import type { ChartData } from "@/lib/analytics/wire";

// One query (and one GET request) per chart: a slow chart shows its own loading state and never
// holds the others. A dashboard's first charts come in one request its page preloads, whose
// answer streams chart by chart (lib/browser/chart-batch.ts), so there too none waits for
// another. Not server actions: Next.js runs a client's actions one at a time, which would queue
// the charts (and the check page's poll) behind the slowest. Analytics change only
// when checks finish; the defaults (5 s stale, refetch on focus) are enough, and the previous
// view stays on screen while a new filter loads.
export const analyticsKey = (chart: ChartName, filter: AnalyticsFilterInput, ...rest: unknown[]) => ["analytics", chart, filter, ...rest] as const;

/** GET /api/analytics/<chart>, or its line of the page's first batch; a refusal throws the route's message, which the chart shows. */
async function fetchChart<C extends ChartName>(chart: C, filter: AnalyticsFilterInput, signal: AbortSignal, own: ChartParams<C> = {}): Promise<ChartData<C>> {
  const address = chartPath(chart, filter, own);
  // A dashboard's first charts come in one batch its server component preloaded (first-requests.ts).
  const answer = (await takeBatchedChart(address)) ?? (await fetchAnswer(address, signal));
  signal.throwIfAborted();
  if (answer.status !== 200) {
    const message = (answer.body as { error?: { message?: string } } | null)?.error?.message;
    throw new Error(message ?? `The server answered ${answer.status}. Please try again.`);
  }
  return answer.body as ChartData<C>;
}

async function fetchAnswer(address: string, signal: AbortSignal): Promise<{ status: number; body: unknown }> {
  let response: Response;
  try {
    // Just after a write the charts must show, from the primary (lib/browser/fresh-reads.ts).
    response = await fetch(address, { signal, headers: { accept: "application/json", ...freshReadHeaders() } });
  } catch (error) {
    // Leaving the filter aborts the request: TanStack Query expects the abort itself.
    if (signal.aborted) throw error;
    throw new Error("No response from the server. Check your connection and try again.");
  }
  return { status: response.status, body: await response.json().catch(() => null) };
}

/** One chart's data for the filter (and the chart's own parameters, e.g. cited-pages' page), any chart of lib/analytics/charts.ts. */
export function useChartQuery<C extends ChartName>(chart: C, filter: AnalyticsFilterInput, params?: ChartParams<C>) {
  return useQuery({
    queryKey: params ? analyticsKey(chart, filter, params) : analyticsKey(chart, filter),
    queryFn: ({ signal }) => fetchChart(chart, filter, signal, params),
    placeholderData: keepPreviousData,
  });
}
