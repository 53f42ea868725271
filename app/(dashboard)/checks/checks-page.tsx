"use client";
import Link from "next/link";
import { useState } from "react";
import { ProgressBar, StatusBadge } from "@/components/checks/status";
import { Card, EmptyState, PageHeader } from "@/components/ui/card";
import { Select } from "@/components/ui/field";
import { Pagination } from "@/components/ui/pagination";
import { formatMicros, formatWhen } from "@/lib/format";
import { CHECK_STATUSES as statuses } from "@/lib/captures/states";
import { useChecksQuery, type CheckFilters } from "./use-checks-query";

export function ChecksPage({ canStart, brands }: { canStart: boolean; brands: { id: string; name: string }[] }) {
  const [filters, setFilters] = useState<CheckFilters>({ page: 1, pageSize: 20 });
  const query = useChecksQuery(filters);
  const data = query.data;
  const newCheck = (
    <Link href="/checks/new" className="rounded-md bg-brand-600 px-3.5 py-2 text-sm font-medium text-white shadow-sm hover:bg-brand-700 dark:hover:bg-brand-500">
      New check
    </Link>
  );
  return (
    <>
      <PageHeader title="Checks" description="Each check asks the chosen prompts to the chosen AI providers. Closing the tab never stops one." actions={canStart && newCheck} />
      <div className="mb-4 flex flex-wrap gap-3">
        <label htmlFor="check-status" className="sr-only">Status</label>
        <Select id="check-status" className="max-w-[14rem]" value={filters.status ?? ""} onChange={(e) => setFilters({ ...filters, page: 1, status: (e.target.value || undefined) as CheckFilters["status"] })}>
          <option value="">All statuses</option>
          {statuses.map((s) => (
            <option key={s} value={s}>{s.replaceAll("_", " ")}</option>
          ))}
        </Select>
        {brands.length > 1 && (
          <>
            <label htmlFor="check-brand" className="sr-only">Brand</label>
            <Select id="check-brand" className="max-w-[14rem]" value={filters.brandId ?? ""} onChange={(e) => setFilters({ ...filters, page: 1, brandId: e.target.value || undefined })}>
              <option value="">All brands</option>
              {brands.map((b) => (
                <option key={b.id} value={b.id}>{b.name}</option>
              ))}
            </Select>
          </>
        )}
      </div>
      {query.isPending ? (
        <Card className="p-8 text-center text-sm text-slate-500">Loading checks…</Card>
      ) : query.isError ? (
        <Card className="p-8 text-center text-sm text-red-600">Could not load checks: {query.error.message}</Card>
      ) : !data?.items.length ? (
        <EmptyState
          title={filters.status || filters.brandId ? "No checks match" : "No checks yet"}
          description="Run your prompts against ChatGPT, Perplexity, Gemini and Claude to see how they talk about your brand."
          action={canStart && !filters.status && newCheck}
        />
      ) : (
        <Card className="overflow-hidden">
          <table className="min-w-full divide-y divide-slate-200 text-sm">
            <thead className="bg-slate-50 text-left text-xs font-medium uppercase tracking-wide text-slate-500">
              <tr>
                <th scope="col" className="px-4 py-3">Started</th>
                <th scope="col" className="px-4 py-3">Brand</th>
                <th scope="col" className="px-4 py-3">Status</th>
                <th scope="col" className="w-1/4 px-4 py-3">Progress</th>
                <th scope="col" className="px-4 py-3">By</th>
                <th scope="col" className="px-4 py-3 text-right">Cost</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {data.items.map((check) => {
                const done = check.counts.succeeded + check.counts.failed + check.counts.cancelled;
                return (
                  <tr key={check.id} className="hover:bg-slate-50">
                    <td className="px-4 py-3">
                      <Link href={`/checks/${check.id}`} className="font-medium text-brand-700 hover:underline">
                        {formatWhen(check.createdAt)}
                      </Link>
                    </td>
                    <td className="px-4 py-3 text-slate-700">{check.brand}</td>
                    <td className="px-4 py-3"><StatusBadge status={check.status} /></td>
                    <td className="px-4 py-3">
                      <ProgressBar counts={check.counts} compact />
                      <span className="text-xs text-slate-500">{done} / {check.counts.total}</span>
                    </td>
                    <td className="px-4 py-3 text-slate-600">{check.startedBy}</td>
                    <td className="px-4 py-3 text-right tabular-nums text-slate-700">{formatMicros(check.chargedMicros || check.spentMicros)}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
          <Pagination page={data.page} pageSize={data.pageSize} total={data.total} onPage={(page) => setFilters({ ...filters, page })} />
        </Card>
      )}
    </>
  );
}
