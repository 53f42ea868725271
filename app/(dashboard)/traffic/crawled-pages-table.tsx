"use client";
import { useState, type ReactNode } from "react";
import { ChartCard } from "@/components/charts/chart-card";
import { PageLink } from "@/components/charts/page-link";
import { DataTable } from "@/components/ui/data-table";
import { Pagination } from "@/components/ui/pagination";
import type { Column } from "@/components/ui/table-columns";
import type { AnalyticsFilterInput } from "@/lib/analytics/schemas";
import type { ChartData } from "@/lib/analytics/wire";
import { formatBucket, formatCount } from "@/lib/format";
import { useChartQuery } from "../analytics/use-analytics-queries";
import { TRAFFIC_PAGE_SIZE } from "../analytics/first-requests";


type Crawled = ChartData<"traffic-pages">["items"][number];

const columns: Column<Crawled>[] = [
  { id: "page", header: "Page", className: "min-w-48 max-w-xl", cell: (p) => <PageLink url={`https://${p.domain}${p.path}`} title={null} /> },
  { id: "hits", header: "Requests", numeric: true, cell: (p) => formatCount(p.hits) },
  { id: "errors", header: "Errors", numeric: true, className: "text-slate-700", cell: (p) => formatCount(p.errors) },
  { id: "crawlers", header: "Crawlers", numeric: true, className: "text-slate-700", cell: (p) => p.crawlers },
  { id: "last", header: "Last crawled", className: "whitespace-nowrap text-slate-700", cell: (p) => formatBucket(p.lastCrawled) },
];

/** The pages AI crawlers requested most in the range, a page of them at a time. */
export function CrawledPagesTable({ filter, empty }: { filter: AnalyticsFilterInput; empty: ReactNode }) {
  // A new filter starts again at the first page.
  const filterKey = JSON.stringify(filter);
  const [paging, setPaging] = useState({ filterKey, page: 1 });
  const page = paging.filterKey === filterKey ? paging.page : 1;
  const query = useChartQuery("traffic-pages", filter, { page, pageSize: TRAFFIC_PAGE_SIZE });
  const data = query.data;
  const csv = data && {
    filename: `traffic-pages-${filter.from}-${filter.to}-page-${page}`,
    header: ["domain", "path", "requests", "errors", "crawlers", "last_crawled"],
    rows: data.items.map((p) => [p.domain, p.path, p.hits, p.errors, p.crawlers, p.lastCrawled]),
  };
  return (
    <ChartCard
      title="Top crawled pages"
      description="Requests by AI crawlers per page; errors are the requests your site answered with a 4xx or 5xx. The CSV holds this page of the table."
      sample={data && `${formatCount(data.total)} pages`}
      status={query}
      isEmpty={!data?.items.length}
      empty={empty}
      csv={csv ?? undefined}
      height={160}
    >
      <div className="-mx-5 -mb-5">
        <DataTable rows={data?.items ?? []} columns={columns} rowKey={(p) => `${p.domain}${p.path}`} label="Top crawled pages" />
        {data && <Pagination page={data.page} pageSize={data.pageSize} total={data.total} onPage={(next) => setPaging({ filterKey, page: next })} noun="pages" label="Crawled pages pagination" />}
      </div>
    </ChartCard>
  );
}
