"use client";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { readFreshAfterWrite } from "@/lib/browser/fresh-reads";
import { isOpen, runsEnded, type ReanalysisRun } from "@/lib/jobs/reanalysis-progress";
import { reanalysisQuery } from "./queries";

/** How often a page asks while a run is open: its progress bar moves about once a batch. */
const POLL_MS = 1000;

/**
 * Each brand's deciding re-analysis (its open run, else its latest), asked again every second while one is waiting or running.
 * `onEnded(runs)`: called with the runs this page saw open that have ended, by brand id, each
 * completed or failed; the dashboards' charts are marked stale then either way, since the rollups
 * they read changed under them.
 */
export function useReanalysisQuery(onEnded?: (runs: Record<string, ReanalysisRun>) => void) {
  const queryClient = useQueryClient();
  const query = useQuery({
    ...reanalysisQuery,
    refetchInterval: (q) => (Object.values(q.state.data ?? {}).some(isOpen) ? POLL_MS : false),
  });
  const open = useRef<Set<string> | null>(null);
  const ended = useRef(onEnded);
  useEffect(() => {
    ended.current = onEnded;
  });
  useEffect(() => {
    if (!query.data) return;
    const { ended: closed, open: now } = runsEnded(open.current, query.data);
    open.current = now;
    if (!Object.keys(closed).length) return;
    // The run's end was read on the primary; a read replica may not have its last batches yet.
    readFreshAfterWrite();
    void queryClient.invalidateQueries({ queryKey: ["analytics"] });
    ended.current?.(closed);
  }, [query.data, queryClient]);
  return query;
}
