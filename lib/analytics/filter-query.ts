// The analytics filter's query string (the dashboards' address, the charts' and the export's
// requests) and the day arithmetic both sides share, without zod: the browser's filter bar and
// chart queries import this, and lib/analytics/schemas.ts (the zod schema) would put zod into
// every dashboard's JavaScript (docs/architecture.md, "The browser's JavaScript").

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

/** The filter as the browser holds it: AnalyticsFilterInput (lib/analytics/schemas.ts) has this shape. */
export type FilterQuery = { brandId?: string; providers?: string[]; tags?: string[]; markets?: string[]; from?: string; to?: string };

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
export function filterFromSearchParams(params: URLSearchParams, now = new Date()): FilterQuery {
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
export function filterSearchParams(filter: FilterQuery): URLSearchParams {
  const params = new URLSearchParams();
  if (filter.brandId) params.set("brand", filter.brandId);
  if (filter.providers?.length) params.set("providers", filter.providers.join(","));
  if (filter.tags?.length) params.set("tags", filter.tags.join(","));
  if (filter.markets?.length) params.set("markets", filter.markets.join(","));
  if (filter.from) params.set("from", filter.from);
  if (filter.to) params.set("to", filter.to);
  return params;
}

/**
 * The address of one chart's GET (app/api/analytics/[chart]/route.ts) for a filter and the
 * chart's own parameters (those not undefined): what the browser's chart query asks for and what
 * a dashboard's server component preloads (app/(dashboard)/analytics/first-requests.ts), one
 * string for both, so a preload is the request the chart makes.
 */
export function chartPath(chart: string, filter: FilterQuery, own: object = {}): string {
  const params = filterSearchParams(filter);
  for (const [name, value] of Object.entries(own)) if (value !== undefined) params.set(name, String(value));
  return `${CHART_PATH_PREFIX}${chart}?${params}`;
}

/**
 * The request header a page sends with a chart GET right after it learnt of a write its charts
 * must show (lib/browser/fresh-reads.ts): the chart route then reads the primary, not the replica.
 */
export const FRESH_READ_HEADER = "x-beacon-read-primary";

/** Every chart GET's address starts so (chartPath; the batch checks its addresses by it). */
export const CHART_PATH_PREFIX = "/api/analytics/";
