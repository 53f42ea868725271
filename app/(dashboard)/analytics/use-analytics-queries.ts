"use client";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { citedPagesAction, costsAction, overviewAction, sourcesAction } from "@/lib/actions/analytics";
import type { AnalyticsFilterInput } from "@/lib/analytics/schemas";
import { unwrap } from "@/lib/client/action-result";

// Analytics change only when checks finish; the defaults (5 s stale, refetch on focus) are
// enough, and the previous view stays on screen while a new filter loads.
export const analyticsKey = (area: string, filter: AnalyticsFilterInput, ...rest: unknown[]) => ["analytics", area, filter, ...rest] as const;

export function useOverviewQuery(filter: AnalyticsFilterInput) {
  return useQuery({
    queryKey: analyticsKey("overview", filter),
    queryFn: async () => unwrap(await overviewAction(filter)),
    placeholderData: keepPreviousData,
  });
}

export function useSourcesQuery(filter: AnalyticsFilterInput) {
  return useQuery({
    queryKey: analyticsKey("sources", filter),
    queryFn: async () => unwrap(await sourcesAction(filter)),
    placeholderData: keepPreviousData,
  });
}

export function useCitedPagesQuery(filter: AnalyticsFilterInput, page: number, pageSize: number) {
  return useQuery({
    queryKey: analyticsKey("cited-pages", filter, page, pageSize),
    queryFn: async () => unwrap(await citedPagesAction({ filter, page, pageSize })),
    placeholderData: keepPreviousData,
  });
}

export function useCostsQuery(filter: AnalyticsFilterInput) {
  return useQuery({
    queryKey: analyticsKey("costs", filter),
    queryFn: async () => unwrap(await costsAction(filter)),
    placeholderData: keepPreviousData,
  });
}

export type OverviewData = NonNullable<NonNullable<ReturnType<typeof useOverviewQuery>["data"]>>;
export type SourcesData = NonNullable<NonNullable<ReturnType<typeof useSourcesQuery>["data"]>>;
export type CitedPagesData = NonNullable<NonNullable<ReturnType<typeof useCitedPagesQuery>["data"]>>;
export type CostsData = NonNullable<NonNullable<ReturnType<typeof useCostsQuery>["data"]>>;
