"use client";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { checkProgressAction, listChecksAction } from "@/lib/actions/checks";
import { isCheckFinished, type CheckStatus } from "@/lib/captures/states";
import { unwrap } from "@/lib/client/action-result";

export const checksKey = ["checks"] as const;
export const checkKey = (id: string) => ["check", id] as const;

export const isFinished = (status: string | undefined) => !!status && isCheckFinished(status);

export type CheckFilters = { status?: CheckStatus; brandId?: string; page: number; pageSize: number };

export function useChecksQuery(filters: CheckFilters) {
  return useQuery({
    queryKey: [...checksKey, filters],
    queryFn: async () => unwrap(await listChecksAction(filters)),
    placeholderData: keepPreviousData,
    // Keep the list moving while anything on the page still runs.
    refetchInterval: (query) => (query.state.data?.items.some((c) => !isFinished(c.status)) ? 2000 : false),
  });
}

/** Polls every second while the check is unfinished and stops when it is done. */
export function useCheckQuery(checkId: string) {
  return useQuery({
    queryKey: checkKey(checkId),
    queryFn: async () => unwrap(await checkProgressAction({ checkId })),
    refetchInterval: (query) => (isFinished(query.state.data?.check.status) ? false : 1000),
  });
}

export type CheckProgressData = NonNullable<ReturnType<typeof useCheckQuery>["data"]>;
export type CheckRow = NonNullable<ReturnType<typeof useChecksQuery>["data"]>["items"][number];
