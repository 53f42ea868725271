"use client";
import { useQuery } from "@tanstack/react-query";
import { instanceOverviewAction } from "@/lib/actions/instance";
import { unwrap } from "@/lib/browser/action-result";

export const instanceKey = ["instance"] as const;

/**
 * Connections with their grants, workspaces, operators and breakers. Polled while a breaker is
 * not closed, so the page shows it closing again without a reload.
 */
export function useInstanceQuery() {
  return useQuery({
    queryKey: instanceKey,
    queryFn: async () => unwrap(await instanceOverviewAction()),
    refetchInterval: (query) => (query.state.data?.breakers.some((b) => b.status !== "closed") ? 2000 : 10_000),
  });
}

export type InstanceOverview = NonNullable<ReturnType<typeof useInstanceQuery>["data"]>;
export type ConnectionRow = InstanceOverview["connections"][number];
export type WorkspaceChoice = InstanceOverview["workspaces"][number];
