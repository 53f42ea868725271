// The analytics filter as the browser sends it (the charts' and the export's query string), as
// zod parses it on the server. The query string itself and the day arithmetic are in
// lib/analytics/filter-query.ts (no zod, for the browser); re-exported here for the server's use.
import { z } from "zod";
import { MARKET_KEY } from "@/lib/analytics/markets";
import { addDays, daysBetween, DEFAULT_RANGE_DAYS, isoDay, lastDays, MAX_RANGE_DAYS } from "@/lib/analytics/filter-query";
import { text } from "@/lib/validation/text";
import { dayInput } from "@/lib/validation/day";

export {
  addDays,
  DAILY_BUCKETS_UP_TO_DAYS,
  daysBetween,
  DEFAULT_RANGE_DAYS,
  FILTER_PARAMS,
  filterFromSearchParams,
  filterSearchParams,
  isoDay,
  lastDays,
  MAX_RANGE_DAYS,
  RANGE_PRESETS,
  startOfUtcDay,
} from "@/lib/analytics/filter-query";

const day = dayInput();

export const analyticsFilterInput = z
  .object({
    brandId: z.uuid("Unknown brand").optional(),
    providers: z.array(z.uuid("Unknown provider")).max(100).default([]),
    tags: z.array(text({ min: 1, max: 100, label: "A tag" })).max(100).default([]),
    /** Market keys (lib/analytics/markets.ts), e.g. "DE:de". */
    markets: z.array(z.string().regex(MARKET_KEY, "Use a market like DE:de (country:language, either may be empty)")).max(100).default([]),
    /** First day shown (UTC). Defaults to 29 days before `to`. */
    from: day.optional(),
    /** Last day shown (UTC), inclusive. Defaults to today. */
    to: day.optional(),
  })
  .transform((input, ctx) => {
    const toDay = input.to ?? lastDays(1).to;
    const fromDay = input.from ?? isoDay(addDays(new Date(`${toDay}T00:00:00Z`), -(DEFAULT_RANGE_DAYS - 1)));
    const from = new Date(`${fromDay}T00:00:00Z`);
    // The filter's `to` is exclusive: the midnight after the last day.
    const to = addDays(new Date(`${toDay}T00:00:00Z`), 1);
    if (from >= to) {
      ctx.addIssue({ code: "custom", path: ["from"], message: "The start date must not be after the end date" });
      return z.NEVER;
    }
    if (daysBetween(from, to) > MAX_RANGE_DAYS) {
      ctx.addIssue({ code: "custom", path: ["from"], message: `Choose at most ${MAX_RANGE_DAYS} days` });
      return z.NEVER;
    }
    return {
      brandId: input.brandId,
      providers: [...new Set(input.providers)],
      tags: [...new Set(input.tags.map((t) => t.toLowerCase()))],
      markets: [...new Set(input.markets)],
      from,
      to,
    };
  });

export type AnalyticsFilterInput = z.input<typeof analyticsFilterInput>;
export type ParsedAnalyticsFilter = z.output<typeof analyticsFilterInput>;

export const EXPORT_FORMATS = ["csv", "json"] as const;
/** summary: one small row per capture without the answer; full: the answer and cited URLs too. */
export const EXPORT_VARIANTS = ["full", "summary"] as const;
export type ExportVariant = (typeof EXPORT_VARIANTS)[number];
