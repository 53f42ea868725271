// Read your writes on the dashboards with a read replica (DATABASE_READ_URL). When a page learns
// of a write its charts must show (a brand's re-analysis ended, a site readiness check finished:
// both seen on the primary by their polls), it asks its charts again at once; on a replica that
// request can come before the write is replayed and show the old numbers until the next refetch.
// For a few seconds after such an event the chart requests carry FRESH_READ_HEADER, and the chart
// route then reads the primary (withPrimaryReads, lib/db/prisma.ts). Without a replica, the
// header changes nothing.
import { FRESH_READ_HEADER } from "@/lib/analytics/filter-query";

/** Long enough for the refetches the event starts; a replica's usual lag is under a second. */
const FRESH_FOR_MS = 10_000;

let freshUntil = 0;

/** The page just learnt of a write its charts must show: their next requests read the primary. */
export function readFreshAfterWrite(now = Date.now()): void {
  freshUntil = Math.max(freshUntil, now + FRESH_FOR_MS);
}

/** The header for a chart request made now: FRESH_READ_HEADER within a while of such a write, else none. */
export function freshReadHeaders(now = Date.now()): Record<string, string> {
  return now < freshUntil ? { [FRESH_READ_HEADER]: "1" } : {};
}
