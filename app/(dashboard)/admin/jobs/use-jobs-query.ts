"use client";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { isUnfinished } from "@/lib/captures/states";
import { adminCapturesQuery, jobsOverviewQuery, providersQuery, type JobFilters } from "./queries";

const POLL_MS = 2000;

/** Queue depth and worker heartbeats; always polled, the page exists to watch them. */
export function useJobsOverviewQuery() {
  return useQuery({ ...jobsOverviewQuery, refetchInterval: POLL_MS });
}

/**
 * Polls while a visible capture is unfinished, and also while the workspace has work in flight
 * at all: a view filtered to "failed" is finished by definition but gains rows as work fails.
 */
export function useAdminCapturesQuery(filters: JobFilters, { paused, workspaceBusy }: { paused: boolean; workspaceBusy: boolean }) {
  return useQuery({
    ...adminCapturesQuery(filters),
    placeholderData: keepPreviousData,
    refetchInterval: (query) => (!paused && (workspaceBusy || query.state.data?.items.some((c) => isUnfinished(c.status))) ? POLL_MS : false),
  });
}

export const isBusy = (overview: JobsOverview | undefined) => {
  const q = overview?.queue;
  return !!q && q.queued + q.retryWait + q.postponed + q.running > 0;
};

export function useProviderOptionsQuery() {
  return useQuery({
    ...providersQuery,
    select: (providers) => providers.map((p) => ({ id: p.id, name: p.name })),
  });
}

export type JobsOverview = NonNullable<ReturnType<typeof useJobsOverviewQuery>["data"]>;
export type WorkerRow = JobsOverview["workers"][number];
export type AdminCaptureRow = NonNullable<ReturnType<typeof useAdminCapturesQuery>["data"]>["items"][number];
