// The analytics filter as the browser sends it (the charts' and the export's query string) and
// the date arithmetic both sides share. No server-only code: the filter bar uses it too.
import { z } from "zod";
import { MARKET_KEY } from "@/lib/analytics/markets";
import { text } from "@/lib/validation/text";

export const MAX_RANGE_DAYS = 400;
export const DEFAULT_RANGE_DAYS = 30;
/** Longer ranges are bucketed by ISO week (Monday) instead of by day. */
export const DAILY_BUCKETS_UP_TO_DAYS = 120;

const DAY_MS = 86_400_000;

/** YYYY-MM-DD of a date, in UTC (the dashboards count days in UTC). */
export const isoDay = (date: Date) => date.toISOString().slice(0, 10);
export const addDays = (date: Date, days: number) => new Date(date.getTime() + days * DAY_MS);
export const startOfUtcDay = (date: Date) => new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()));
export const daysBetween = (from: Date, to: Date) => Math.round((to.getTime() - from.getTime()) / DAY_MS);

/** The inclusive day range of the last `days` days, today (UTC) included. */
export function lastDays(days: number, now = new Date()): { from: string; to: string } {
  const today = startOfUtcDay(now);
  return { from: isoDay(addDays(today, -(days - 1))), to: isoDay(today) };
}

const day = z.iso.date("Use a date like 2025-01-31");

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

export const RANGE_PRESETS = [7, 30, 90] as const;

/** The query-string parameters of the filter (filterFromSearchParams). */
export const FILTER_PARAMS = ["brand", "providers", "tags", "markets", "range", "from", "to"] as const;

const listParam = (params: URLSearchParams, name: string) =>
  params
    .getAll(name)
    .flatMap((v) => v.split(","))
    .map((v) => v.trim())
    .filter(Boolean);

/**
 * The filter as it appears in a query string (the dashboards' address and the export link):
 * `brand`, `providers`, `tags` and `markets` (comma-separated or repeated), and either `range` (7, 30, 90
 * days up to today) or `from` / `to` (inclusive days, UTC).
 */
export function filterFromSearchParams(params: URLSearchParams, now = new Date()): AnalyticsFilterInput {
  const range = Number(params.get("range"));
  const custom = params.get("from") || params.get("to");
  const days = !custom && (RANGE_PRESETS as readonly number[]).includes(range) ? range : DEFAULT_RANGE_DAYS;
  const dates = custom ? { from: params.get("from") || undefined, to: params.get("to") || undefined } : lastDays(days, now);
  return {
    brandId: params.get("brand") || undefined,
    providers: listParam(params, "providers"),
    tags: listParam(params, "tags"),
    markets: listParam(params, "markets"),
    ...dates,
  };
}

/** The query string of a filter, the inverse of filterFromSearchParams. */
export function filterSearchParams(filter: { brandId?: string; providers?: string[]; tags?: string[]; markets?: string[]; from?: string; to?: string }): URLSearchParams {
  const params = new URLSearchParams();
  if (filter.brandId) params.set("brand", filter.brandId);
  if (filter.providers?.length) params.set("providers", filter.providers.join(","));
  if (filter.tags?.length) params.set("tags", filter.tags.join(","));
  if (filter.markets?.length) params.set("markets", filter.markets.join(","));
  if (filter.from) params.set("from", filter.from);
  if (filter.to) params.set("to", filter.to);
  return params;
}
