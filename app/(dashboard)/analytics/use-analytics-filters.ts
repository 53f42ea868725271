"use client";
import { usePathname, useSearchParams } from "next/navigation";
import { useMemo, useState } from "react";
import { DEFAULT_RANGE_DAYS, FILTER_PARAMS, filterSearchParams } from "@/lib/analytics/filter-query";
import { filterState, type FilterOptions } from "./filter-state";

export type { FilterOptions, Option } from "./filter-state";

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

  const state = useMemo(() => filterState(new URLSearchParams(search), options), [search, options]);

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
