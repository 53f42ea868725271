// "Content rendered" for the page benchmark (npm run bench -- --pages, bench/measure/pages.ts):
// every page loads its data through TanStack Query, so a page's charts and tables have their
// data once every query it observes has answered. components/content-mark.tsx then sets the
// performance mark CONTENT_MARK, once per page, after the frame that shows it.
import type { QueryClient } from "@tanstack/react-query";

export const CONTENT_MARK = "beacon:content";

/**
 * True once the page observes at least one query and every such query has answered (data or
 * error) and is not fetching. Disabled queries (a dialog's, waiting for a click) do not count.
 */
export function pageSettled(client: QueryClient): boolean {
  const observed = client
    .getQueryCache()
    .getAll()
    .filter((query) => query.getObserversCount() > 0 && !query.isDisabled());
  return observed.length > 0 && observed.every((query) => query.state.status !== "pending" && query.state.fetchStatus === "idle");
}
