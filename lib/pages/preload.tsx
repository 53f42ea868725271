import "server-only";
import { headers } from "next/headers";
import { batchPath } from "@/lib/analytics/batch";

/**
 * `<link rel="preload" as="fetch">` for the batch of the page's first chart GETs
 * (app/api/analytics/batch/route.ts): the browser starts it from the page's <head> (React hoists
 * a preload link there from anywhere in the tree), while it loads the page's scripts, and the
 * charts read their answers from it (lib/browser/chart-batch.ts), whose fetch of the same
 * address (same origin, with cookies) the browser answers from the preload, in flight or done.
 * One request rather than one per chart: the session is read and the filter resolved once, and
 * over HTTP/1.1 the page's scripts do not wait behind six chart requests for a connection.
 * Unlike streaming the answers in the page (lib/pages/prefetch.ts), the server sends the page
 * first and computes the data in the separate request. React's `preload()` from a server
 * component sent the hint only in the RSC payload, which the browser reads after the page's
 * scripts (no earlier than the chart's own fetch), hence an element.
 *
 * Only for a document load (`Sec-Fetch-Dest: document`, which browsers send with a navigation):
 * on a client-side navigation the router fetches the page's RSC payload, the browser's query
 * cache may already hold some answers (a filter bar's coverage, a dashboard visited seconds
 * ago), and a preload the page does not use is a request wasted.
 */
export async function ChartsPreload({ charts }: { charts: string[] }) {
  if (!charts.length || (await headers()).get("sec-fetch-dest") !== "document") return null;
  return <link rel="preload" as="fetch" href={batchPath(charts)} crossOrigin="anonymous" />;
}
