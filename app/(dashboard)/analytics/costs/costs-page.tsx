"use client";
import { PageHeader } from "@/components/ui/card";
import { FilterBar } from "../filter-bar";
import { NoBrand } from "../no-brand";
import { useAnalyticsFilters, type FilterOptions } from "../use-analytics-filters";
import { CostTiles } from "./cost-tiles";
import { ProviderCostsTable } from "./provider-costs-table";
import { SpendChart } from "./spend-chart";

export function CostsPage({ options, canSetBudget }: { options: FilterOptions; canSetBudget: boolean }) {
  const filters = useAnalyticsFilters(options);
  const brandName = filters.brand?.name ?? "your brand";
  return (
    <>
      <PageHeader
        title="Costs"
        description={`What the provider calls for ${brandName} cost, by the day each attempt started. Attempts without an accepted answer that were charged are the retry waste; those that failed before the provider did any work cost nothing.`}
      />
      {!options.brands.length ? (
        <NoBrand />
      ) : (
        <>
          <FilterBar options={options} filters={filters} />
          <CostTiles filter={filters.input} canSetBudget={canSetBudget} />
          <div className="grid grid-cols-1 gap-6">
            <SpendChart filter={filters.input} />
            <ProviderCostsTable filter={filters.input} />
          </div>
        </>
      )}
    </>
  );
}
