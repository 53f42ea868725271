"use client";
import type { ReactNode } from "react";
import { ChartCard } from "@/components/charts/chart-card";
import type { AnalyticsFilterInput } from "@/lib/analytics/schemas";
import { PagesTable } from "./pages-table";
import { useChartQuery } from "../use-analytics-queries";

/** The brand's own pages cited most (top 20). */
export function OwnPagesTable({ filter, brandName, empty }: { filter: AnalyticsFilterInput; brandName: string; empty: ReactNode }) {
  const query = useChartQuery("own-pages", filter);
  const data = query.data;
  const csv = data && {
    filename: `own-pages-${filter.from}-${filter.to}`,
    header: ["url", "domain", "title", "citations", "answers"],
    rows: data.items.map((p) => [p.url, p.domain, p.title, p.citations, p.captures]),
  };
  return (
    <ChartCard
      title={`${brandName}'s pages cited most`}
      description="Pages on your own domains that answers cite, with how often and in how many answers."
      sample={data && `${data.items.length} pages`}
      status={query}
      isEmpty={!data?.items.length}
      empty={empty}
      csv={csv ?? undefined}
      height={160}
    >
      <div className="-mx-5 -mb-5">
        <PagesTable pages={data?.items ?? []} />
      </div>
    </ChartCard>
  );
}
