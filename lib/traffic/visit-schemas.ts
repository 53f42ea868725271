// The shapes the visits endpoints read (lib/traffic/visits.ts): pure, so the OpenAPI document
// and the routes share them.
import { z } from "zod";
import { addDays, DEFAULT_RANGE_DAYS, isoDay, MAX_RANGE_DAYS } from "@/lib/analytics/schemas";

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

export const VISIT_VIEWS = ["page", "day"] as const;

const day = z.iso.date();
/**
 * GET /api/v1/traffic/visits's query: `by` page (visits per landing page, split by assistant) or
 * day (per day and assistant); `from`/`to` in UTC, default the last 30 days up to today.
 */
export const visitsQuery = z
  .object({ by: z.enum(VISIT_VIEWS).default("page"), from: day.optional(), to: day.optional() })
  .transform((q, ctx) => {
    const to = q.to ?? isoDay(new Date());
    const from = q.from ?? isoDay(addDays(new Date(`${to}T00:00:00Z`), -(DEFAULT_RANGE_DAYS - 1)));
    const days = (Date.parse(to) - Date.parse(from)) / 86_400_000;
    if (days < 0) ctx.addIssue({ code: "custom", path: ["from"], message: "from must not be after to" });
    if (days > MAX_RANGE_DAYS) ctx.addIssue({ code: "custom", path: ["from"], message: `Choose at most ${MAX_RANGE_DAYS} days` });
    return { by: q.by, from, to };
  });
