// GET /api/v1/traffic/visits's query (lib/traffic/visits.ts reads it): pure, so the OpenAPI
// document and the route share it; its range rules are the analytics filter's.
import { z } from "zod";
import { addDays, DEFAULT_RANGE_DAYS, isoDay, MAX_RANGE_DAYS } from "@/lib/analytics/schemas";
import { dayInput } from "@/lib/validation/day";

export const VISIT_VIEWS = ["page", "day"] as const;

const day = dayInput();
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
