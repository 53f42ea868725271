"use client";
import { usePathname, useSearchParams } from "next/navigation";
import { useMemo, useState } from "react";
import { DEFAULT_RANGE_DAYS, FILTER_PARAMS, filterFromSearchParams, filterSearchParams, RANGE_PRESETS } from "@/lib/analytics/filter-query";
import type { AnalyticsFilterInput } from "@/lib/analytics/schemas";

export type Option = { id: string; name: string };
export type FilterOptions = { brands: Option[]; providers: Option[]; tags: string[]; markets: { key: string; label: string }[] };

export type FilterChange = { brandId?: string; providers?: string[]; tags?: string[]; markets?: string[]; range?: number; from?: string; to?: string };

/**
 * The dashboards' filter lives in the address (?brand=&providers=&tags=&markets=&range= or &from=&to=),
 * so a link or a reload shows the same view; it is the TanStack Query key of every chart. Ids
 * the workspace does not have (an old link) are dropped rather than failing the page.
 */
export function useAnalyticsFilters(options: FilterOptions) {
  const params = useSearchParams();
  const pathname = usePathname();
  const live = params.toString();
  // useSearchParams catches up with history.replaceState in a transition, which can take seconds
  // on a busy page; until it has, the filter just chosen is the one in force, so its queries start
  // at once and the charts mark their numbers as the previous filter's instead of passing them
  // off as current. Navigating elsewhere (a different live address) drops the request.
  const [requested, setRequested] = useState<{ from: string; search: string } | null>(null);
  const search = requested && requested.from === live ? requested.search : live;

  const state = useMemo(() => {
    const query = new URLSearchParams(search);
    const raw = filterFromSearchParams(query);
    const brandId = options.brands.some((b) => b.id === raw.brandId) ? raw.brandId : options.brands[0]?.id;
    const providers = (raw.providers ?? []).filter((id) => options.providers.some((p) => p.id === id));
    const tags = (raw.tags ?? []).filter((t) => options.tags.includes(t));
    const markets = (raw.markets ?? []).filter((m) => options.markets.some((o) => o.key === m));
    const custom = !!(query.get("from") || query.get("to"));
    const range = Number(query.get("range"));
    const preset = custom ? null : (RANGE_PRESETS as readonly number[]).includes(range) ? range : DEFAULT_RANGE_DAYS;
    const input: AnalyticsFilterInput = { brandId, providers, tags, markets, from: raw.from, to: raw.to };
    return { input, preset };
  }, [search, options]);

  const brand = options.brands.find((b) => b.id === state.input.brandId) ?? null;

  const update = (change: FilterChange) => {
    const current = state.input;
    const brandId = change.brandId ?? current.brandId;
    const custom = change.range === undefined && (change.from !== undefined || change.to !== undefined || state.preset === null);
    const next = filterSearchParams({
      // The first brand is the default and needs no parameter.
      brandId: brandId === options.brands[0]?.id ? undefined : brandId,
      providers: change.providers ?? current.providers,
      tags: change.tags ?? current.tags,
      markets: change.markets ?? current.markets,
      ...(custom ? { from: change.from ?? current.from, to: change.to ?? current.to } : {}),
    });
    const range = custom ? null : (change.range ?? state.preset);
    if (range && range !== DEFAULT_RANGE_DAYS) next.set("range", String(range));
    // A page's own parameters (the Sources page's cited-pages domain) outlive a filter change.
    for (const [name, value] of new URLSearchParams(search)) if (!(FILTER_PARAMS as readonly string[]).includes(name)) next.append(name, value);
    const query = next.toString();
    setRequested({ from: live, search: query });
    // The App Router picks up history.replaceState in useSearchParams without asking the server
    // to render the page again, so checkboxes and buttons answer at once.
    window.history.replaceState(null, "", query ? `${pathname}?${query}` : pathname);
  };

  return { input: state.input, preset: state.preset, brand, update };
}
