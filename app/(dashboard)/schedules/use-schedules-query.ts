"use client";
import { useQuery } from "@tanstack/react-query";
import { listSchedulesAction } from "@/lib/actions/schedules";
import { unwrap } from "@/lib/browser/action-result";

export const schedulesKey = ["schedules"] as const;

export type ScheduleRow = NonNullable<Awaited<ReturnType<typeof fetchSchedules>>>[number];

async function fetchSchedules() {
  return unwrap(await listSchedulesAction());
}

const isDue = (s: ScheduleRow) => !s.paused && new Date(s.nextRunAt).getTime() <= Date.now();

/** Refreshes quickly while a run is due (its check appears within a minute), slowly otherwise. */
export function useSchedulesQuery(initialData?: ScheduleRow[]) {
  return useQuery({
    queryKey: schedulesKey,
    queryFn: fetchSchedules,
    initialData,
    refetchInterval: (query) => (query.state.data?.some(isDue) ? 5_000 : 60_000),
  });
}
