"use client";
import type { ReactNode } from "react";
import { ChartCard } from "@/components/charts/chart-card";
import type { AnalyticsFilterInput } from "@/lib/analytics/schemas";
import { PageLinkCell } from "./page-link-cell";
import { useOwnPagesQuery } from "../use-analytics-queries";

/** The brand's own pages cited most (top 20). */
export function OwnPagesTable({ filter, brandName, empty }: { filter: AnalyticsFilterInput; brandName: string; empty: ReactNode }) {
  const query = useOwnPagesQuery(filter);
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
      <div className="-mx-5 -mb-5 overflow-x-auto">
        <table className="min-w-full divide-y divide-slate-200 text-sm">
          <thead className="bg-slate-50 text-left text-xs font-medium uppercase tracking-wide text-slate-500">
            <tr>
              <th scope="col" className="px-4 py-3">Page</th>
              <th scope="col" className="px-4 py-3 text-right">Citations</th>
              <th scope="col" className="px-4 py-3 text-right">Answers</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {data?.items.map((p) => (
              <tr key={p.url} className="hover:bg-slate-50">
                <PageLinkCell url={p.url} title={p.title} />
                <td className="px-4 py-3 text-right tabular-nums text-slate-700">{p.citations}</td>
                <td className="px-4 py-3 text-right tabular-nums text-slate-700">{p.captures}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </ChartCard>
  );
}
