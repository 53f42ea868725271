import { readBodyText } from "@/lib/api/handler";
import { env } from "@/lib/config/env";
import { ApiProblem } from "@/lib/errors";
import { COLLECT_HEADERS, visitReport } from "@/lib/traffic/visit-schemas";
import { recordVisit } from "@/lib/traffic/visits";

export const dynamic = "force-dynamic";

/** Far more than the script sends (a key, two addresses of at most 4 KB each). */
const MAX_BODY_BYTES = 16 * 1024;

/** CORS preflight, for a client that posts JSON as application/json (the script's text/plain needs none). */
export function OPTIONS() {
  return new Response(null, { status: 204, headers: COLLECT_HEADERS });
}

/**
 * A page view reported by /t.js (body: `{"k","u","r"}` as text/plain or JSON; no authentication,
 * the site key says whose): 204 whether or not it was recorded, so the answer does not tell
 * whether a key exists; 400 for a body that is not that shape, 413 for one over 16 KB.
 */
export async function POST(request: Request) {
  let body: unknown = null;
  try {
    body = JSON.parse(await readBodyText(request, MAX_BODY_BYTES));
  } catch (error) {
    if (error instanceof ApiProblem) return new Response(null, { status: error.status, headers: COLLECT_HEADERS });
    // Not JSON: refused below like any other wrong shape.
  }
  const report = visitReport.safeParse(body);
  if (!report.success) return new Response(null, { status: 400, headers: COLLECT_HEADERS });
  await recordVisit({ key: report.data.k, url: report.data.u, referrer: report.data.r }, env().BEACON_VISITS_PER_MINUTE);
  return new Response(null, { status: 204, headers: COLLECT_HEADERS });
}
