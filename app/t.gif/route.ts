import { env } from "@/lib/config/env";
import { PIXEL_GIF } from "@/lib/traffic/script";
import { COLLECT_HEADERS, visitReport } from "@/lib/traffic/visit-schemas";
import { recordVisit } from "@/lib/traffic/visits";

export const dynamic = "force-dynamic";

/**
 * The pixel fallback of /t.js, for browsers without sendBeacon: the same fields in the query
 * (`?k=&u=&r=`). Always the 1x1 GIF, recorded or not (an image request cannot read a status
 * anyway, and the answer must not tell whether a key exists).
 */
export async function GET(request: Request) {
  const report = visitReport.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (report.success) await recordVisit({ key: report.data.k, url: report.data.u, referrer: report.data.r }, env().BEACON_VISITS_PER_MINUTE);
  return new Response(new Uint8Array(PIXEL_GIF), { status: 200, headers: { ...COLLECT_HEADERS, "content-type": "image/gif" } });
}
