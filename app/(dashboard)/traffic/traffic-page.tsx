"use client";
import { PageHeader } from "@/components/ui/card";
import { FilterBar } from "../analytics/filter-bar";
import { NoBrand } from "../analytics/no-brand";
import { useAnalyticsFilters, type FilterOptions } from "../analytics/use-analytics-filters";
import { CrawledPagesTable } from "./crawled-pages-table";
import { CrawlsChart } from "./crawls-chart";
import { FunnelTable } from "./funnel-table";
import { ImportHint } from "./import-hint";

/** `imported`: whether the workspace ever imported an access log; until then the page says how. */
export function TrafficPage({ options, imported }: { options: FilterOptions; imported: boolean }) {
  const filters = useAnalyticsFilters(options);
  const brandName = filters.brand?.name ?? "your brand";
  const empty = <>No AI crawler requests to {brandName}&apos;s domains in these dates. Widen the dates, or import a newer log.</>;
  return (
    <>
      <PageHeader title="Traffic" description={`Which AI crawlers read ${brandName}'s pages, and which of those pages answers cite.`} />
      {!options.brands.length ? (
        <NoBrand />
      ) : !imported ? (
        <ImportHint />
      ) : (
        <>
          <FilterBar options={options} filters={filters} />
          <div className="grid grid-cols-1 gap-6">
            <CrawlsChart filter={filters.input} empty={empty} />
            <FunnelTable filter={filters.input} brandName={brandName} />
            <CrawledPagesTable filter={filters.input} empty={empty} />
          </div>
        </>
      )}
    </>
  );
}
