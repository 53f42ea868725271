"use client";
import { PreparedBy } from "@/components/shell/prepared-by";
import { PageHeader } from "@/components/ui/card";
import { ReanalysisNotice } from "@/components/reanalysis/reanalysis-notice";
import { PrintButton } from "@/components/ui/print-button";
import { EmptyHint } from "../empty-hint";
import { FilterBar } from "../filter-bar";
import { useAnalyticsFilters, type FilterOptions } from "../use-analytics-filters";
import { ExportLinks } from "./export-links";
import { KpiTiles } from "./kpi-tiles";
import { MarketTable } from "./market-table";
import { PositionChart } from "./position-chart";
import { PromptTable } from "./prompt-table";
import { ShareButton } from "./share-button";
import { ShareOfVoiceChart } from "./share-of-voice-chart";
import { VisibilityChart } from "./visibility-chart";

/** The Overview's dashboards: headline numbers, trends and prompts for the filter in the address. */
export function OverviewPage({
  title,
  options,
  canStart,
  canShare,
  agency,
}: {
  title: string;
  options: FilterOptions;
  canStart: boolean;
  canShare: boolean;
  agency: { name: string | null; logoSrc: string | null };
}) {
  const filters = useAnalyticsFilters(options);
  const brandName = filters.brand?.name ?? "your brand";
  const empty = <EmptyHint brandName={brandName} canStart={canStart} />;
  return (
    <>
      <div className="hidden print:mb-4 print:block">
        <PreparedBy name={agency.name} logoSrc={agency.logoSrc} />
      </div>
      <PageHeader
        title={title}
        description={`How AI assistants talk about ${brandName}: every number counts answers from succeeded captures and shows its sample size and 95% interval.`}
        actions={
          <>
            <ExportLinks filter={filters.input} />
            <PrintButton />
            {canShare && <ShareButton filters={filters} />}
          </>
        }
      />
      <div className="print:hidden">
        <FilterBar options={options} filters={filters} />
      </div>
      <ReanalysisNotice brand={filters.brand} />
      <p className="mb-4 hidden text-sm text-slate-600 print:block">
        {filters.brand?.name} · {filters.input.from} – {filters.input.to} (UTC)
        {filters.input.providers?.length ? ` · ${filters.input.providers.length} provider(s)` : " · all providers"}
      </p>
      <KpiTiles filter={filters.input} />
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-2 print:block print:space-y-6">
        <div className="lg:col-span-2">
          <VisibilityChart filter={filters.input} brandName={brandName} empty={empty} />
        </div>
        <ShareOfVoiceChart filter={filters.input} empty={empty} />
        <PositionChart filter={filters.input} brandName={brandName} empty={empty} />
        {options.markets.length > 1 && (
          <div className="lg:col-span-2">
            <MarketTable filter={filters.input} brandName={brandName} empty={empty} />
          </div>
        )}
        <div className="lg:col-span-2">
          <PromptTable filter={filters.input} brandName={brandName} empty={empty} />
        </div>
      </div>
    </>
  );
}
