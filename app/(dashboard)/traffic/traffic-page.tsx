"use client";
import { PageHeader } from "@/components/ui/card";
import { FilterBar } from "../analytics/filter-bar";
import { NoBrand } from "../analytics/no-brand";
import { useAnalyticsFilters, type FilterOptions } from "../analytics/use-analytics-filters";
import { CrawledPagesTable } from "./crawled-pages-table";
import { CrawlsChart } from "./crawls-chart";
import { FunnelTable } from "./funnel-table";
import { ImportHint } from "./import-hint";
import { ReadinessCard } from "./readiness-card";
import { VisitsChart } from "./visits-chart";

/**
 * `imported`: whether the workspace ever imported an access log; until then the crawler charts give
 * way to how to import one. `hasSiteKey`: whether the visits script can report yet.
 * `canCheckReadiness`: the "Check site readiness" button (admins).
 */
export function TrafficPage(props: { options: FilterOptions; imported: boolean; hasSiteKey: boolean; canCheckReadiness: boolean }) {
  const { options, imported, hasSiteKey, canCheckReadiness } = props;
  const filters = useAnalyticsFilters(options);
  const brandName = filters.brand?.name ?? "your brand";
  const empty = <>No AI crawler requests to {brandName}&apos;s domains in these dates. Widen the dates, or import a newer log.</>;
  return (
    <>
      <PageHeader title="Traffic" description={`Which AI crawlers read ${brandName}'s pages, which of those pages answers cite, and whom assistants send there.`} />
      {!options.brands.length ? (
        <NoBrand />
      ) : (
        <>
          {!imported && (
            <div className="mb-6">
              <ImportHint />
            </div>
          )}
          <FilterBar options={options} filters={filters} />
          <div className="grid grid-cols-1 gap-6">
            {imported && <CrawlsChart filter={filters.input} empty={empty} />}
            <VisitsChart filter={filters.input} brandName={brandName} hasSiteKey={hasSiteKey} />
            {imported && <FunnelTable filter={filters.input} brandName={brandName} />}
            {imported && <CrawledPagesTable filter={filters.input} empty={empty} />}
            <ReadinessCard canCheck={canCheckReadiness} />
          </div>
        </>
      )}
    </>
  );
}
