"use client";
import { keepPreviousData, useQuery, useQueryClient } from "@tanstack/react-query";
import { checkProgressAction } from "@/lib/actions/checks";
import { isCheckFinished } from "@/lib/captures/states";
import { applyProgress, pollsAgain, type ProgressState } from "@/lib/checks/progress-state";
import { ActionFailure, unwrap } from "@/lib/browser/action-result";
import { checkPageKey, checkProgressQuery, checksQuery, type CheckFilters } from "./queries";

export const isFinished = (status: string | undefined) => !!status && isCheckFinished(status);

export function useChecksQuery(filters: CheckFilters) {
  return useQuery({
    ...checksQuery(filters),
    placeholderData: keepPreviousData,
    // Keep the list moving while anything on the page still runs.
    refetchInterval: (query) => (query.state.data?.items.some((c) => !isFinished(c.status)) ? 2000 : false),
  });
}

/**
 * One page of the check's grid, polled every second while the check is unfinished (or a cancel
 * or retry of it is still to run). The first page comes with the page (checkProgressQuery,
 * prefetched by its server component); each poll sends the version of the state this page
 * already holds and gets what changed since then (lib/checks/progress.ts); a version the server
 * refuses is dropped for a full answer.
 */
export function useCheckQuery(checkId: string, page: number, market: string | null = null) {
  const queryClient = useQueryClient();
  return useQuery({
    queryKey: checkPageKey(checkId, page, market),
    queryFn: async (): Promise<ProgressState> => {
      const held = queryClient.getQueryData<ProgressState>(checkPageKey(checkId, page, market));
      try {
        return applyProgress(held, unwrap(await checkProgressAction({ checkId, page, market, version: held?.version })));
      } catch (error) {
        if (!held || !(error instanceof ActionFailure) || error.code !== "invalid_version") throw error;
        return checkProgressQuery(checkId, page, market).queryFn();
      }
    },
    placeholderData: keepPreviousData,
    refetchInterval: (query) => (!query.state.data || pollsAgain(query.state.data.check) ? 1000 : false),
  });
}

export type CheckRow = NonNullable<ReturnType<typeof useChecksQuery>["data"]>["items"][number];
