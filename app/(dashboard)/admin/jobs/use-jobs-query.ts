"use client";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { listPollsAgain } from "@/lib/admin/jobs-polling";
import { adminCapturesQuery, jobsOverviewQuery, providersQuery, type JobFilters } from "./queries";

const POLL_MS = 2000;

/** Queue depth and worker heartbeats; always polled, the page exists to watch them. */
export function useJobsOverviewQuery() {
  return useQuery({ ...jobsOverviewQuery, refetchInterval: POLL_MS });
}

/**
 * Polls while the workspace has work to end or a shown capture is unfinished (listPollsAgain,
 * from the answer itself: the server reads whether work is left before the rows), unless paused.
 */
export function useAdminCapturesQuery(filters: JobFilters, { paused }: { paused: boolean }) {
  return useQuery({
    ...adminCapturesQuery(filters),
    placeholderData: keepPreviousData,
    refetchInterval: (query) => (!paused && !!query.state.data && listPollsAgain(query.state.data) ? POLL_MS : false),
  });
}

export function useProviderOptionsQuery() {
  return useQuery({
    ...providersQuery,
    select: (providers) => providers.map((p) => ({ id: p.id, name: p.name })),
  });
}

export type JobsOverview = NonNullable<ReturnType<typeof useJobsOverviewQuery>["data"]>;
export type WorkerRow = JobsOverview["workers"][number];
export type AdminCaptureRow = NonNullable<ReturnType<typeof useAdminCapturesQuery>["data"]>["items"][number];
