"use client";
import { useState, type ReactNode } from "react";
import { ChartCard } from "@/components/charts/chart-card";
import { Pagination } from "@/components/ui/pagination";
import type { AnalyticsFilterInput } from "@/lib/analytics/schemas";
import { PagesTable } from "./pages-table";
import { useChartQuery } from "../use-analytics-queries";
import { useCitedDomain } from "./use-cited-domain";
import { formatCount } from "@/lib/format";
import { CITED_PAGES_PAGE_SIZE } from "../first-requests";
import { displayHost } from "@/lib/analysis/host";


/** Every cited page, most cited first, a page at a time; only one domain's when the address names one (a gap source's link). */
export function CitedPagesTable({ filter, empty }: { filter: AnalyticsFilterInput; empty: ReactNode }) {
  const { domain, setDomain } = useCitedDomain();
  // A new filter or domain starts again at the first page.
  const filterKey = JSON.stringify([filter, domain]);
  const [paging, setPaging] = useState({ filterKey, page: 1 });
  const page = paging.filterKey === filterKey ? paging.page : 1;
  const query = useChartQuery("cited-pages", filter, { page, pageSize: CITED_PAGES_PAGE_SIZE, domain });
  const data = query.data;
  const csv = data && {
    filename: `cited-pages-${domain ? `${domain}-` : ""}${filter.from}-${filter.to}-page-${page}`,
    header: ["url", "domain", "title", "own_domain", "citations", "answers"],
    rows: data.items.map((p) => [p.url, p.domain, p.title, p.own, p.citations, p.captures]),
  };
  return (
    <ChartCard
      title="Cited pages"
      description="How often each page was cited, and in how many answers. The CSV holds the rows of this page of the table."
      sample={data && `${formatCount(data.total)} pages${domain ? ` on ${displayHost(domain)}` : ""}`}
      status={query}
      isEmpty={!data?.items.length}
      empty={empty}
      csv={csv ?? undefined}
      controls={
        domain && (
          <p className="mb-2 flex flex-wrap items-center gap-x-3 text-sm text-slate-700">
            <span>
              Only pages on <span className="font-medium text-slate-900">{displayHost(domain)}</span>
            </span>
            <button type="button" onClick={() => setDomain(null)} className="inline-flex min-h-11 items-center font-medium text-brand-700 underline underline-offset-2">
              Show pages of every domain
            </button>
          </p>
        )
      }
      height={160}
    >
      <div className="-mx-5 -mb-5">
        <PagesTable pages={data?.items ?? []} showDomain />
        {data && <Pagination page={data.page} pageSize={data.pageSize} total={data.total} onPage={(next) => setPaging({ filterKey, page: next })} />}
      </div>
    </ChartCard>
  );
}
