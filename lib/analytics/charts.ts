// Every dashboard chart, once: the chart routes (GET /api/analytics/<chart> for the dashboards,
// GET /api/v1/analytics/<chart> for REST), the OpenAPI description, the MCP get_numbers tool and
// the browser's fetch and data types (lib/analytics/wire.ts), the pages' declared charts and the
// CLI's list all derive from this array. Adding a chart: its module in lib/analytics/charts/ (with
// a view, `withView`, or its own component on a page), its line here (docs/architecture.md "Adding a
// chart"). The order is the one the API lists them in.
import "server-only";
import type { z } from "zod";
import type { Chart } from "@/lib/analytics/chart";
import type { AnyChartView, ChartPage } from "@/lib/analytics/chart-view";
import { citedPagesChart } from "@/lib/analytics/charts/cited-pages";
import { costsChart } from "@/lib/analytics/charts/costs";
import { gapSourcesChart } from "@/lib/analytics/charts/gap-sources";
import { kpisChart } from "@/lib/analytics/charts/kpis";
import { marketsChart } from "@/lib/analytics/charts/markets";
import { ownDomainChart } from "@/lib/analytics/charts/own-domain";
import { ownPagesChart } from "@/lib/analytics/charts/own-pages";
import { positionsChart } from "@/lib/analytics/charts/positions";
import { promptsChart } from "@/lib/analytics/charts/prompts";
import { providerCoverageChart } from "@/lib/analytics/charts/provider-coverage";
import { shareOfVoiceChart } from "@/lib/analytics/charts/share-of-voice";
import { sourceCategoriesChart } from "@/lib/analytics/charts/source-categories";
import { topDomainsChart } from "@/lib/analytics/charts/top-domains";
import { trafficCrawlsChart } from "@/lib/analytics/charts/traffic-crawls";
import { trafficFunnelChart } from "@/lib/analytics/charts/traffic-funnel";
import { trafficPagesChart } from "@/lib/analytics/charts/traffic-pages";
import { trafficVisitsChart } from "@/lib/analytics/charts/traffic-visits";
import { visibilityChart } from "@/lib/analytics/charts/visibility";

export type { Chart } from "@/lib/analytics/chart";

export const CHART_LIST = [
  kpisChart,
  marketsChart,
  visibilityChart,
  shareOfVoiceChart,
  positionsChart,
  promptsChart,
  topDomainsChart,
  ownDomainChart,
  costsChart,
  citedPagesChart,
  sourceCategoriesChart,
  ownPagesChart,
  gapSourcesChart,
  providerCoverageChart,
  trafficCrawlsChart,
  trafficPagesChart,
  trafficFunnelChart,
  trafficVisitsChart,
] as const;

type AnyChart = (typeof CHART_LIST)[number];

export type ChartName = AnyChart["name"];

/** Each chart by its name. */
export const CHARTS = Object.fromEntries(CHART_LIST.map((chart) => [chart.name, chart])) as { [C in AnyChart as C["name"]]: C };

// The cast restates what the array holds: TypeScript does not carry a map's keys into its result.
export const CHART_NAMES = CHART_LIST.map((chart) => chart.name) as [ChartName, ...ChartName[]];

export const isChartName = (name: string): name is ChartName => Object.hasOwn(CHARTS, name);

/** What a chart's query returns on the server. */
export type ChartResult<C extends ChartName> = Awaited<ReturnType<(typeof CHARTS)[C]["query"]>>;

/** A chart's own parameters as the browser passes them (all optional: the chart has defaults). */
export type ChartParams<C extends ChartName> = Partial<z.output<(typeof CHARTS)[C]["params"]>>;

export type ChartParam = { name: string; charts: ChartName[]; schema: z.ZodType };

/** The charts' own query-string parameters, each with the charts that take it (OpenAPI and MCP list them). */
export const CHART_PARAMS: ChartParam[] = (() => {
  const params = new Map<string, ChartParam>();
  for (const chart of CHART_LIST as readonly Chart[]) {
    for (const [name, schema] of Object.entries(chart.params.shape)) {
      const entry: ChartParam = params.get(name) ?? { name, charts: [], schema };
      entry.charts.push(chart.name as ChartName);
      params.set(name, entry);
    }
  }
  return [...params.values()];
})();

export type PageChart = { chart: ChartName; view: AnyChartView };

/** The charts a page draws from their declared view, in their order: the page's server component hands them to its client one. */
export const pageCharts = (page: ChartPage): PageChart[] =>
  (CHART_LIST as readonly Chart[])
    .flatMap((chart) => (chart.view?.page === page ? [{ chart: chart.name as ChartName, view: chart.view }] : []))
    .sort((a, b) => a.view.order - b.view.order);

/** Every chart with what it answers and its own parameters, for `npm run beacon -- charts` (docs/api.md points there and at the OpenAPI description). */
export const chartListing = (): string =>
  (CHART_LIST as readonly Chart[])
    .map((chart) => {
      const params = Object.keys(chart.params.shape);
      return `${chart.name}${params.length ? ` (?${params.map((p) => `${p}=`).join("&")})` : ""}\n    ${chart.description}`;
    })
    .join("\n");
