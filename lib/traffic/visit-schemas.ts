// What the visits collect endpoints read (app/api/t, app/t.gif): pure, so the routes share it.
// The REST read's query is lib/analytics/visits-query.ts, with the other range filters.
import { z } from "zod";

/** What the script sends (JSON body of POST /api/t, or the query of GET /t.gif): key, page address, referrer. */
export const visitReport = z.object({ k: z.string().max(64), u: z.string().max(4096), r: z.string().max(4096).default("") });

/**
 * Headers of every collect answer: any site may send (the key, not the origin, says whose visit
 * it is), and no cache may keep or merge them.
 */
export const COLLECT_HEADERS = {
  "access-control-allow-origin": "*",
  "access-control-allow-methods": "GET, POST, OPTIONS",
  "access-control-allow-headers": "content-type",
  "access-control-max-age": "86400",
  "cache-control": "no-store",
  // Also for sites that isolate themselves (Cross-Origin-Embedder-Policy: require-corp).
  "cross-origin-resource-policy": "cross-origin",
};
