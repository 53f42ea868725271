import type { Metadata } from "next";
import { PageHeader } from "@/components/ui/card";
import { analyticsOptions } from "@/lib/analytics/options";
import { canManageSchedules, canManageShareLinks, canRunSetup, canStartCheck } from "@/lib/permissions/permissions";
import { requirePageContext } from "@/lib/auth/session";
import { hasSchedule } from "@/lib/setup/progress";
import { toSearchParams, type PageSearchParams } from "@/lib/pages/prefetch";
import { ChartsPreload } from "@/lib/pages/preload";
import { PrefetchedQueries } from "@/components/prefetched-queries";
import { reanalysisKey } from "@/components/reanalysis/queries";
import { reanalysisByBrand } from "@/lib/jobs/analysis-runs";
import { prefetch } from "@/lib/pages/prefetch";
import { getBranding } from "@/lib/share-links/branding";
import { firstRequests } from "./analytics/first-requests";
import { OverviewPage } from "./analytics/overview/overview-page";
import { ScheduleSuggestion } from "./setup/schedule-suggestion";
import { SetupPath } from "./setup/setup-path";

export const metadata: Metadata = { title: "Overview" };

export default async function Page({ searchParams }: { searchParams: PageSearchParams }) {
  const ctx = await requirePageContext();
  const options = await analyticsOptions(ctx.workspace.id);
  if (options.brands.length && options.hasResults) {
    const preloads = firstRequests.overview(toSearchParams(await searchParams), options);
    const [branding, scheduled, reanalysis] = await Promise.all([getBranding(ctx.workspace.id), hasSchedule(ctx.workspace.id), reanalysisByBrand(ctx.workspace.id)]);
    const agency = { name: branding.agencyName, logoSrc: branding.logoType ? "/api/branding/logo" : null };
    return (
      // The re-analyses' state comes with the page: the notice asks nothing of its own unless a run is open.
      <PrefetchedQueries state={prefetch([], [{ queryKey: reanalysisKey, data: reanalysis }])}>
        <ChartsPreload charts={preloads} />
        {/* Results without a schedule: the first check was a snapshot; the next step is a trend. */}
        {!scheduled && canManageSchedules(ctx) && <ScheduleSuggestion className="mb-6" />}
        <OverviewPage title={ctx.workspace.name} options={options} canStart={canStartCheck(ctx)} canShare={canManageShareLinks(ctx)} agency={agency} />
      </PrefetchedQueries>
    );
  }

  // No results yet: the one setup path (website, suggestions, first check), as on /setup.
  return (
    <>
      <PageHeader title={ctx.workspace.name} description="Three steps from your website to the first measure of how AI assistants talk about your brand." />
      <SetupPath workspaceId={ctx.workspace.id} allowed={canRunSetup(ctx)} canManageSchedules={canManageSchedules(ctx)} />
    </>
  );
}
