"use client";
import { useQuery } from "@tanstack/react-query";
import { setupSuggestionAction } from "@/lib/actions/setup";
import { unwrap } from "@/lib/browser/action-result";
import { isSuggestionDone } from "@/lib/setup/schemas";

export const setupSuggestionKey = (id: string | null) => ["setup-suggestion", id] as const;

/** A first run's suggestions while the worker writes them: polled every second until they are done. */
export function useSetupSuggestionQuery(suggestionId: string | null) {
  return useQuery({
    queryKey: setupSuggestionKey(suggestionId),
    queryFn: async () => unwrap(await setupSuggestionAction({ suggestionId: suggestionId! })),
    enabled: !!suggestionId,
    refetchInterval: (q) => (isSuggestionDone(q.state.data?.status) ? false : 1000),
  });
}
