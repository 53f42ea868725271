// The chart requests each dashboard makes on its first render, as addresses: its server
// component preloads them as one batch (lib/pages/preload.tsx) for its address, so the browser
// asks for the data while it loads the page's scripts instead of after hydration, and each
// chart takes its answer from the batch (lib/browser/chart-batch.ts). Keep a page's list in step
// with what its components ask for (their useChartQuery calls): tests/e2e/dashboards.test.ts
// fails a page that asks for anything the batch did not hold, or leaves some of it untaken.
// No "use client": the server calls these and the components import the shared constants.
import { chartPath, type FilterQuery } from "@/lib/analytics/filter-query";
import type { PageChart } from "@/lib/analytics/charts";
import { filterState, type FilterOptions } from "./filter-state";

/** Rows per page of the Sources page's cited pages table. */
export const CITED_PAGES_PAGE_SIZE = 20;
/** Rows per page of the Traffic page's funnel and crawled pages tables. */
export const TRAFFIC_PAGE_SIZE = 20;

/** The filter bar's answers per provider, asked without the providers chosen (filter-bar.tsx). */
const coverage = (filter: FilterQuery) => chartPath("provider-coverage", { ...filter, providers: [] });

/** A page's list for the filter its address puts in force (as the browser's hook reads it); none without a brand (the page asks for one). */
const forAddress = (query: URLSearchParams, options: FilterOptions, list: (filter: FilterQuery) => string[]) =>
  options.brands.length ? list(filterState(query, options).input) : [];

export const firstRequests = {
  /** The Overview with results (overview-page.tsx): tiles, three charts, the market table when there are markets, prompts. */
  overview: (query: URLSearchParams, options: FilterOptions) =>
    forAddress(query, options, (filter) => [
      chartPath("kpis", filter),
      chartPath("visibility", filter),
      chartPath("share-of-voice", filter),
      chartPath("positions", filter),
      ...(options.markets.length > 1 ? [chartPath("markets", filter)] : []),
      chartPath("prompts", filter),
      coverage(filter),
    ]),
  /** Sources (sources-page.tsx); the cited pages table's domain is the address's too (?domain=, use-cited-domain.ts). */
  sources: (query: URLSearchParams, options: FilterOptions, charts: PageChart[]) =>
    forAddress(query, options, (filter) => [
      chartPath("own-domain", filter),
      chartPath("top-domains", filter),
      chartPath("source-categories", filter),
      chartPath("gap-sources", filter, { includeEntityDomains: false }),
      ...charts.map(({ chart }) => chartPath(chart, filter)),
      chartPath("cited-pages", filter, { page: 1, pageSize: CITED_PAGES_PAGE_SIZE, domain: query.get("domain") || undefined }),
      coverage(filter),
    ]),
  /** Costs (costs-page.tsx): tiles, chart and table share one request. */
  costs: (query: URLSearchParams, options: FilterOptions) => forAddress(query, options, (filter) => [chartPath("costs", filter), coverage(filter)]),
  /** Traffic (traffic/traffic-page.tsx); `imported`: whether a log was ever imported (else only the visits chart). */
  traffic: (query: URLSearchParams, options: FilterOptions, imported: boolean) =>
    forAddress(query, options, (filter) => [
      ...(imported ? [chartPath("traffic-crawls", filter)] : []),
      chartPath("traffic-visits", filter),
      ...(imported
        ? [
            chartPath("traffic-funnel", filter, { page: 1, pageSize: TRAFFIC_PAGE_SIZE, list: "all" }),
            chartPath("traffic-pages", filter, { page: 1, pageSize: TRAFFIC_PAGE_SIZE }),
          ]
        : []),
      coverage(filter),
    ]),
};
