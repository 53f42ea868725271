import type { Metadata } from "next";
import { pageCharts } from "@/lib/analytics/charts";
import { analyticsOptions } from "@/lib/analytics/options";
import { canCategorizeSources, canStartCheck } from "@/lib/permissions/permissions";
import { requirePageContext } from "@/lib/auth/session";
import { PrefetchedQueries } from "@/components/prefetched-queries";
import { reanalysisKey } from "@/components/reanalysis/queries";
import { reanalysisByBrand } from "@/lib/jobs/analysis-runs";
import { prefetch, toSearchParams, type PageSearchParams } from "@/lib/pages/prefetch";
import { ChartsPreload } from "@/lib/pages/preload";
import { firstRequests } from "../first-requests";
import { sourceCategoriesQuery } from "./queries";
import { SourcesPage } from "./sources-page";

export const metadata: Metadata = { title: "Sources" };

export default async function Page({ searchParams }: { searchParams: PageSearchParams }) {
  const ctx = await requirePageContext();
  const [options, reanalysis] = await Promise.all([analyticsOptions(ctx.workspace.id), reanalysisByBrand(ctx.workspace.id)]);
  const charts = pageCharts("sources");
  const preloads = firstRequests.sources(toSearchParams(await searchParams), options, charts);
  const canCategorize = canCategorizeSources(ctx);
  // The category overrides (admins) are a server action: started here, streamed with the page;
  // the re-analyses' state, read above, comes with it.
  const first = prefetch(canCategorize && options.brands.length ? [sourceCategoriesQuery] : [], [{ queryKey: reanalysisKey, data: reanalysis }]);
  return (
    <PrefetchedQueries state={first}>
      <ChartsPreload charts={preloads} />
      <SourcesPage options={options} canStart={canStartCheck(ctx)} canCategorize={canCategorize} charts={charts} />
    </PrefetchedQueries>
  );
}
