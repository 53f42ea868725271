// "Content rendered" for the page benchmark (npm run bench -- --pages, bench/measure/pages.ts):
// every page loads its data through TanStack Query, so a page's charts and tables have their
// data once every query it observes has answered; a chart draws once it is near the viewport
// (components/charts/responsive-chart.tsx), so the first screen is rendered when, besides, every
// chart in view has drawn. components/content-mark.tsx then sets the performance mark
// CONTENT_MARK, once per page, after the frame that shows it.
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

/**
 * True when React has rendered every chart card's answer (none is busy: the query cache tells
 * before React renders) and every chart box (`[data-chart]`, components/charts/responsive-chart.tsx)
 * that intersects the viewport has drawn its surface. Charts further down draw as they are
 * scrolled to and do not hold the first screen.
 */
export function firstScreenDrawn(doc: Document): boolean {
  if (doc.querySelector('[role="region"][aria-busy="true"]')) return false;
  const height = doc.defaultView?.innerHeight ?? 0;
  return [...doc.querySelectorAll("[data-chart]")].every((box) => {
    const { top, bottom } = box.getBoundingClientRect();
    const inView = bottom > 0 && top < height;
    return !inView || box.querySelector("svg.recharts-surface") !== null;
  });
}
