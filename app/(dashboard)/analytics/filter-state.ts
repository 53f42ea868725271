// The dashboards' filter in force for an address, for the browser's filter hook
// (use-analytics-filters.ts) and the pages' server components, which preload the first chart
// requests under it (first-requests.ts). No "use client": both sides call it.
import { DEFAULT_RANGE_DAYS, filterFromSearchParams, RANGE_PRESETS } from "@/lib/analytics/filter-query";
import type { AnalyticsFilterInput } from "@/lib/analytics/schemas";

export type Option = { id: string; name: string };
export type FilterOptions = { brands: Option[]; providers: Option[]; tags: string[]; markets: { key: string; label: string }[] };

/**
 * The filter of a dashboard's address (?brand=&providers=&tags=&markets=&range= or &from=&to=)
 * and its range preset (null for custom dates). Ids the workspace does not have (an old link)
 * are dropped rather than failing the page; no brand means the first.
 */
export function filterState(query: URLSearchParams, options: FilterOptions, now = new Date()): { input: AnalyticsFilterInput; preset: number | null } {
  const raw = filterFromSearchParams(query, now);
  const brandId = options.brands.some((b) => b.id === raw.brandId) ? raw.brandId : options.brands[0]?.id;
  const providers = (raw.providers ?? []).filter((id) => options.providers.some((p) => p.id === id));
  const tags = (raw.tags ?? []).filter((t) => options.tags.includes(t));
  const markets = (raw.markets ?? []).filter((m) => options.markets.some((o) => o.key === m));
  const custom = !!(query.get("from") || query.get("to"));
  const range = Number(query.get("range"));
  const preset = custom ? null : (RANGE_PRESETS as readonly number[]).includes(range) ? range : DEFAULT_RANGE_DAYS;
  const input: AnalyticsFilterInput = { brandId, providers, tags, markets, from: raw.from, to: raw.to };
  return { input, preset };
}
