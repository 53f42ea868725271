"use client";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import {
  citedPagesAction,
  costsAction,
  overviewKpisAction,
  ownDomainAction,
  positionsAction,
  promptsAction,
  shareOfVoiceAction,
  topDomainsAction,
  visibilityAction,
} from "@/lib/actions/analytics";
import type { AnalyticsFilterInput } from "@/lib/analytics/schemas";
import { unwrap } from "@/lib/client/action-result";

// One query (and one request) per chart: a slow chart shows its own loading state and never
// holds the others. Analytics change only when checks finish; the defaults (5 s stale, refetch
// on focus) are enough, and the previous view stays on screen while a new filter loads.
export const analyticsKey = (area: string, filter: AnalyticsFilterInput, ...rest: unknown[]) => ["analytics", area, filter, ...rest] as const;

function useChartQuery<T>(area: string, filter: AnalyticsFilterInput, load: () => Promise<T>) {
  return useQuery({ queryKey: analyticsKey(area, filter), queryFn: load, placeholderData: keepPreviousData });
}

export const useKpisQuery = (filter: AnalyticsFilterInput) => useChartQuery("kpis", filter, async () => unwrap(await overviewKpisAction(filter)));
export const useVisibilityQuery = (filter: AnalyticsFilterInput) => useChartQuery("visibility", filter, async () => unwrap(await visibilityAction(filter)));
export const useShareOfVoiceQuery = (filter: AnalyticsFilterInput) => useChartQuery("share-of-voice", filter, async () => unwrap(await shareOfVoiceAction(filter)));
export const usePositionsQuery = (filter: AnalyticsFilterInput) => useChartQuery("positions", filter, async () => unwrap(await positionsAction(filter)));
export const usePromptsQuery = (filter: AnalyticsFilterInput) => useChartQuery("prompts", filter, async () => unwrap(await promptsAction(filter)));
export const useTopDomainsQuery = (filter: AnalyticsFilterInput) => useChartQuery("top-domains", filter, async () => unwrap(await topDomainsAction(filter)));
export const useOwnDomainQuery = (filter: AnalyticsFilterInput) => useChartQuery("own-domain", filter, async () => unwrap(await ownDomainAction(filter)));
export const useCostsQuery = (filter: AnalyticsFilterInput) => useChartQuery("costs", filter, async () => unwrap(await costsAction(filter)));

export function useCitedPagesQuery(filter: AnalyticsFilterInput, page: number, pageSize: number) {
  return useQuery({
    queryKey: analyticsKey("cited-pages", filter, page, pageSize),
    queryFn: async () => unwrap(await citedPagesAction({ filter, page, pageSize })),
    placeholderData: keepPreviousData,
  });
}

export type CitedPagesData = NonNullable<NonNullable<ReturnType<typeof useCitedPagesQuery>["data"]>>;
export type CostsData = NonNullable<NonNullable<ReturnType<typeof useCostsQuery>["data"]>>;
