"use client";
import { HydrationBoundary, type DehydratedState } from "@tanstack/react-query";
import { useLayoutEffect, useMemo, useState, type ReactNode } from "react";

/**
 * Hands a page's prefetched queries (lib/pages/prefetch.ts), still running on the server, to the
 * browser's query cache: TanStack Query's HydrationBoundary, each query's promise held back until
 * the page has hydrated. Hydration must render what the server rendered, the loading state; an
 * answer that reached the cache during it (React may have resolved a streamed promise already, and
 * hydration may pause between components) makes part of the page differ, and React then renders
 * the whole page again from scratch, dropping what the theme script put on <html> (dark mode).
 * Held back, the queries stay fetching through hydration (they do not ask again) and get their
 * answers right after it; on the server they stay pending.
 */
export function PrefetchedQueries({ state, children }: { state: DehydratedState; children: ReactNode }) {
  const [hydrated] = useState(() => {
    let open = () => {};
    const opened = new Promise<void>((resolve) => (open = resolve));
    return { opened, open };
  });
  const later = useMemo(
    () => ({ ...state, queries: state.queries.map((query) => (query.promise ? { ...query, promise: hydrated.opened.then(() => query.promise) } : query)) }),
    [state, hydrated],
  );
  useLayoutEffect(() => hydrated.open(), [hydrated]);
  return <HydrationBoundary state={later}>{children}</HydrationBoundary>;
}
