import "server-only";
import { z } from "zod";
import { costsDashboard } from "@/lib/analytics/costs";
import type { ResolvedFilter } from "@/lib/analytics/filter";
import { overviewKpis } from "@/lib/analytics/kpis";
import { marketComparison } from "@/lib/analytics/market-comparison";
import { promptPerformance } from "@/lib/analytics/prompts";
import { providerCoverage } from "@/lib/analytics/provider-coverage";
import { citedPagesParams } from "@/lib/analytics/schemas";
import { categoriesOverTime, gapSources, ownPagesCited } from "@/lib/analytics/source-categories";
import { citedPages, ownDomainRate, topDomainsOverTime } from "@/lib/analytics/sources";
import { positionDistribution, shareOfVoiceOverTime } from "@/lib/analytics/trends";
import { trendParams } from "@/lib/analytics/trend-buckets";
import { visibilityOverTime } from "@/lib/analytics/visibility-trend";

const noParams = z.object({});

export type Chart<S extends z.ZodObject = z.ZodObject, T = unknown> = {
  /** The chart's own query parameters, besides the filter's. */
  params: S;
  query(resolved: ResolvedFilter, params: z.output<S>): Promise<T>;
};

const chart = <T, S extends z.ZodObject = typeof noParams>(query: (resolved: ResolvedFilter, params: z.output<S>) => Promise<T>, params?: S): Chart<S, T> => ({
  params: (params ?? noParams) as S,
  query,
});

/**
 * Every dashboard chart by the name in its address (GET /api/analytics/<name>): one query each,
 * so each chart is its own request. Adding a chart is one line here.
 */
export const CHARTS = {
  kpis: chart((r) => overviewKpis(r.filter)),
  markets: chart((r) => marketComparison(r.filter)),
  visibility: chart(visibilityOverTime, trendParams),
  "share-of-voice": chart(shareOfVoiceOverTime),
  positions: chart(positionDistribution),
  prompts: chart((r) => promptPerformance(r.filter)),
  "top-domains": chart((r) => topDomainsOverTime(r.filter)),
  "own-domain": chart((r) => ownDomainRate(r.filter)),
  costs: chart((r) => costsDashboard(r)),
  "cited-pages": chart((r, p) => citedPages(r.filter, p.page, p.pageSize), citedPagesParams),
  "source-categories": chart(categoriesOverTime),
  "own-pages": chart(ownPagesCited),
  "gap-sources": chart(gapSources),
  "provider-coverage": chart(providerCoverage),
};

export type ChartName = keyof typeof CHARTS;

export const isChartName = (name: string): name is ChartName => Object.hasOwn(CHARTS, name);

/** What a chart's query returns on the server. */
export type ChartResult<C extends ChartName> = Awaited<ReturnType<(typeof CHARTS)[C]["query"]>>;
