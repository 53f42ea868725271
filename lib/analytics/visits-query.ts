// GET /api/v1/traffic/visits's query (lib/traffic/visits.ts reads it): pure, so the OpenAPI
// document and the route share it; its range rules are the analytics filter's.
import { z } from "zod";
import { addDays, DEFAULT_RANGE_DAYS, isoDay, MAX_RANGE_DAYS } from "@/lib/analytics/schemas";
import { dayInput } from "@/lib/validation/day";

export const VISIT_VIEWS = ["page", "day"] as const;

const day = dayInput();
/** Pages of visits per landing page (`by=page`): the default and the largest page. */
export const VISIT_PAGES = { default: 100, max: 1000 } as const;

/**
 * GET /api/v1/traffic/visits's query: `by` page (visits per landing page, split by assistant, most
 * visited first, a page of them at a time) or day (per day and assistant); `from`/`to` in UTC,
 * default the last 30 days up to today.
 */
export const visitsQuery = z
  .object({
    by: z.enum(VISIT_VIEWS).default("page"),
    from: day.optional(),
    to: day.optional(),
    page: z.coerce.number().int().min(1).max(100_000).optional(),
    pageSize: z.coerce.number().int().min(1).max(VISIT_PAGES.max).optional(),
  })
  .transform((q, ctx) => {
    if (q.by === "day" && (q.page !== undefined || q.pageSize !== undefined)) {
      ctx.addIssue({ code: "custom", path: [q.page !== undefined ? "page" : "pageSize"], message: "by=day answers every day at once; page and pageSize are for by=page" });
    }
    const to = q.to ?? isoDay(new Date());
    const from = q.from ?? isoDay(addDays(new Date(`${to}T00:00:00Z`), -(DEFAULT_RANGE_DAYS - 1)));
    // Both ends count, as in the analytics filter (whose `to` is the midnight after the last day).
    const days = (Date.parse(to) - Date.parse(from)) / 86_400_000 + 1;
    if (days < 1) ctx.addIssue({ code: "custom", path: ["from"], message: "from must not be after to" });
    if (days > MAX_RANGE_DAYS) ctx.addIssue({ code: "custom", path: ["from"], message: `Choose at most ${MAX_RANGE_DAYS} days` });
    return { by: q.by, from, to, page: q.page ?? 1, pageSize: q.pageSize ?? VISIT_PAGES.default };
  });
