"use client";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { isOpen } from "@/lib/jobs/reanalysis-progress";
import { reanalysisQuery } from "./queries";

/** How often a page asks while a run is open: its progress bar moves about once a batch. */
const POLL_MS = 1000;

/**
 * Each brand's latest re-analysis, asked again every second while one is waiting or running.
 * `onDone(brandIds)`: called when runs this page saw open have ended (completed or failed); the
 * dashboards' charts are marked stale then, since the rollups they read changed under them.
 */
export function useReanalysisQuery(onDone?: (brandIds: string[]) => void) {
  const queryClient = useQueryClient();
  const query = useQuery({
    ...reanalysisQuery,
    refetchInterval: (q) => (Object.values(q.state.data ?? {}).some(isOpen) ? POLL_MS : false),
  });
  const open = useRef<Set<string> | null>(null);
  const done = useRef(onDone);
  useEffect(() => {
    done.current = onDone;
  });
  useEffect(() => {
    if (!query.data) return;
    const now = new Set(Object.entries(query.data).filter(([, run]) => isOpen(run)).map(([brandId]) => brandId));
    const ended = [...(open.current ?? [])].filter((brandId) => !now.has(brandId));
    open.current = now;
    if (!ended.length) return;
    void queryClient.invalidateQueries({ queryKey: ["analytics"] });
    done.current?.(ended);
  }, [query.data, queryClient]);
  return query;
}
