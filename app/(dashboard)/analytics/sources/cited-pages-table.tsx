"use client";
import { useState, type ReactNode } from "react";
import { ChartCard } from "@/components/charts/chart-card";
import { Badge } from "@/components/ui/card";
import { Pagination } from "@/components/ui/pagination";
import type { AnalyticsFilterInput } from "@/lib/analytics/schemas";
import { PageLinkCell } from "./page-link-cell";
import { useCitedPagesQuery } from "../use-analytics-queries";

const PAGE_SIZE = 20;

/** Every cited page, most cited first, a page at a time. */
export function CitedPagesTable({ filter, empty }: { filter: AnalyticsFilterInput; empty: ReactNode }) {
  // A new filter starts again at the first page.
  const filterKey = JSON.stringify(filter);
  const [paging, setPaging] = useState({ filterKey, page: 1 });
  const page = paging.filterKey === filterKey ? paging.page : 1;
  const query = useCitedPagesQuery(filter, page, PAGE_SIZE);
  const data = query.data;
  const csv = data && {
    filename: `cited-pages-${filter.from}-${filter.to}-page-${page}`,
    header: ["url", "domain", "title", "own_domain", "citations", "answers"],
    rows: data.items.map((p) => [p.url, p.domain, p.title, p.own, p.citations, p.captures]),
  };
  return (
    <ChartCard
      title="Cited pages"
      description="How often each page was cited, and in how many answers. The CSV holds the rows of this page of the table."
      sample={data && `${data.total.toLocaleString("en-US")} pages`}
      status={query}
      isEmpty={!data?.items.length}
      empty={empty}
      csv={csv ?? undefined}
      height={160}
    >
      <div className="-mx-5 -mb-5 overflow-x-auto">
        <table className="min-w-full divide-y divide-slate-200 text-sm">
          <thead className="bg-slate-50 text-left text-xs font-medium uppercase tracking-wide text-slate-500">
            <tr>
              <th scope="col" className="px-4 py-3">Page</th>
              <th scope="col" className="px-4 py-3">Domain</th>
              <th scope="col" className="px-4 py-3 text-right">Citations</th>
              <th scope="col" className="px-4 py-3 text-right">Answers</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {data?.items.map((p) => (
              <tr key={p.url} className="hover:bg-slate-50">
                <PageLinkCell url={p.url} title={p.title} />
                <td className="px-4 py-3 text-slate-700">
                  {p.domain} {p.own && <Badge tone="green">own</Badge>}
                </td>
                <td className="px-4 py-3 text-right tabular-nums text-slate-700">{p.citations}</td>
                <td className="px-4 py-3 text-right tabular-nums text-slate-700">{p.captures}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {data && <Pagination page={data.page} pageSize={data.pageSize} total={data.total} onPage={(next) => setPaging({ filterKey, page: next })} />}
      </div>
    </ChartCard>
  );
}
