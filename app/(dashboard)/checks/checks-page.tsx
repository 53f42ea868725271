"use client";
import { Link } from "@/components/ui/link";
import { useState } from "react";
import { ProgressBar, StatusBadge } from "@/components/checks/status";
import { Card, EmptyState, PageHeader } from "@/components/ui/card";
import { DataTable } from "@/components/ui/data-table";
import { Select } from "@/components/ui/field";
import { Pagination } from "@/components/ui/pagination";
import type { Column } from "@/components/ui/table-columns";
import { formatMicros, formatWhen } from "@/lib/format";
import { CHECK_STATUSES as statuses } from "@/lib/captures/states";
import { FIRST_CHECKS, type CheckFilters } from "./queries";
import { useChecksQuery } from "./use-checks-query";

type CheckRow = NonNullable<ReturnType<typeof useChecksQuery>["data"]>["items"][number];

const columns: Column<CheckRow>[] = [
  {
    id: "started",
    header: "Started",
    cell: (check) => (
      <Link href={`/checks/${check.id}`} className="font-medium text-brand-700 hover:underline">
        {formatWhen(check.createdAt)}
      </Link>
    ),
  },
  { id: "brand", header: "Brand", cell: (check) => check.brand, className: "text-slate-700" },
  { id: "status", header: "Status", cell: (check) => <StatusBadge status={check.status} /> },
  {
    id: "progress",
    header: "Progress",
    headerClassName: "w-1/4",
    className: "min-w-32",
    cell: (check) => (
      <>
        <ProgressBar counts={check.counts} compact />
        <span className="text-xs text-slate-500">
          {check.counts.succeeded + check.counts.failed + check.counts.cancelled} / {check.counts.total}
        </span>
      </>
    ),
  },
  { id: "by", header: "By", cell: (check) => check.startedBy, className: "text-slate-600" },
  { id: "cost", header: "Cost", numeric: true, cell: (check) => formatMicros(check.chargedMicros || check.spentMicros), className: "text-slate-700" },
];

export function ChecksPage({ canStart, brands }: { canStart: boolean; brands: { id: string; name: string }[] }) {
  const [filters, setFilters] = useState<CheckFilters>(FIRST_CHECKS);
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
          <DataTable rows={data.items} columns={columns} rowKey={(check) => check.id} />
          <Pagination page={data.page} pageSize={data.pageSize} total={data.total} onPage={(page) => setFilters({ ...filters, page })} />
        </Card>
      )}
    </>
  );
}
