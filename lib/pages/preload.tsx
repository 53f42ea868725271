import "server-only";
import { headers } from "next/headers";

/**
 * `<link rel="preload" as="fetch">` for each of these GETs of the page's own data: the browser
 * starts them from the page's <head> (React hoists a preload link there from anywhere in the
 * tree), while it loads the page's scripts, and a fetch of the same address (same origin, with
 * cookies) is answered from the preload, in flight or done; Chromium reuses it whatever the
 * response's Cache-Control. Unlike streaming the answers in the page (lib/pages/prefetch.ts), the
 * server sends the page first and computes the data in the separate requests. React's
 * `preload()` from a server component sent the hint only in the RSC payload, which the browser
 * reads after the page's scripts (no earlier than the chart's own fetch), hence elements.
 *
 * Only for a document load (`Sec-Fetch-Dest: document`, which browsers send with a navigation):
 * on a client-side navigation the router fetches the page's RSC payload, the browser's query
 * cache may already hold some answers (a filter bar's coverage, a dashboard visited seconds
 * ago), and a preload the page does not use is a request wasted.
 */
export async function FetchPreloads({ paths }: { paths: string[] }) {
  if ((await headers()).get("sec-fetch-dest") !== "document") return null;
  return paths.map((path) => <link key={path} rel="preload" as="fetch" href={path} crossOrigin="anonymous" />);
}
