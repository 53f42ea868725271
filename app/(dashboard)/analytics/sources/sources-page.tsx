"use client";
import { PageHeader } from "@/components/ui/card";
import type { PageChart } from "@/lib/analytics/charts";
import { EmptyHint } from "../empty-hint";
import { ReanalysisNotice } from "@/components/reanalysis/reanalysis-notice";
import { FilterBar } from "../filter-bar";
import { NoBrand } from "../no-brand";
import { PageCharts } from "../spec-chart";
import { useAnalyticsFilters, type FilterOptions } from "../use-analytics-filters";
import { CategoryChart } from "./category-chart";
import { CategoryOverrides } from "./category-overrides";
import { CitedPagesTable } from "./cited-pages-table";
import { GapSourcesTable } from "./gap-sources-table";
import { OwnDomainTile } from "./own-domain-tile";
import { TopDomainsChart } from "./top-domains-chart";

/** `charts`: the charts declared for this page by their modules (lib/analytics/charts.ts `pageCharts`), after the gap sources. */
export function SourcesPage({ options, canStart, canCategorize, charts }: { options: FilterOptions; canStart: boolean; canCategorize: boolean; charts: PageChart[] }) {
  const filters = useAnalyticsFilters(options);
  const brandName = filters.brand?.name ?? "your brand";
  return (
    <>
      <PageHeader title="Sources" description={`The pages AI assistants cite when they answer your prompts, and how often they cite ${brandName}'s own sites.`} />
      {!options.brands.length ? (
        <NoBrand />
      ) : (
        <>
          <FilterBar options={options} filters={filters} />
          <ReanalysisNotice brand={filters.brand} />
          <div className="grid grid-cols-1 gap-6 lg:grid-cols-4">
            <OwnDomainTile filter={filters.input} brandName={brandName} />
            <div className="lg:col-span-3">
              <TopDomainsChart filter={filters.input} empty={<EmptyHint brandName={brandName} canStart={canStart} what="cited sources" />} />
            </div>
            <div className="lg:col-span-4">
              <CategoryChart filter={filters.input} empty={<EmptyHint brandName={brandName} canStart={canStart} what="cited sources" />} />
            </div>
            <div className="lg:col-span-4">
              <GapSourcesTable filter={filters.input} brandName={brandName} canCategorize={canCategorize} empty={<EmptyHint brandName={brandName} canStart={canStart} what="gap sources" />} />
            </div>
            <PageCharts charts={charts} filter={filters.input} brandName={brandName} empty={(what) => <EmptyHint brandName={brandName} canStart={canStart} what={what} />} />
            <div id="cited-pages" className="scroll-mt-4 lg:col-span-4">
              <CitedPagesTable filter={filters.input} empty={<EmptyHint brandName={brandName} canStart={canStart} what="cited pages" />} />
            </div>
            {canCategorize && (
              <div className="lg:col-span-4">
                <CategoryOverrides />
              </div>
            )}
          </div>
        </>
      )}
    </>
  );
}
