"use client";
import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { CaptureDetailDialog } from "@/components/checks/capture-detail-dialog";
import { Button } from "@/components/ui/button";
import { Card, EmptyState, PageHeader } from "@/components/ui/card";
import { Pagination } from "@/components/ui/pagination";
import { canCancelCheck } from "@/lib/permissions/permissions";
import { BreakersCard } from "./breakers-card";
import { CapturesTable, invalidateAfterChange, type Me } from "./captures-table";
import { JobFiltersBar } from "./job-filters";
import { QueueOverview } from "./queue-overview";
import { useJobFilters } from "./use-job-filters";
import { listPollsAgain } from "@/lib/admin/jobs-polling";
import { useAdminCapturesQuery } from "./use-jobs-query";

const countLabel = (n: number, filtered: boolean) => (n === 1 ? `1 capture${filtered ? " matches" : ""}` : `${n} captures${filtered ? " match" : ""}`);

export function JobsPage({ me, canRetry }: { me: Me; canRetry: boolean }) {
  const queryClient = useQueryClient();
  const { filters, rawCheckId, update } = useJobFilters();
  // A live list changes under the pointer; pausing holds it still.
  const [paused, setPaused] = useState(false);
  const query = useAdminCapturesQuery(filters, { paused });
  const [open, setOpen] = useState<{ captureId: string; startedById: string | null } | null>(null);
  const data = query.data;
  const filtered = !!(filters.status || filters.providerConfigId || filters.checkId);
  const live = !!data && listPollsAgain(data);

  const togglePaused = () => {
    if (paused) void query.refetch();
    setPaused(!paused);
  };

  const close = () => {
    // The dialog may have cancelled or retried the capture; the list does not poll when idle.
    if (open) void invalidateAfterChange(queryClient, open.captureId);
    setOpen(null);
  };

  return (
    <>
      <PageHeader title="Jobs" description="Every capture of every check in this workspace, the queue they wait in and the workers that run them. Updates every 2 seconds." />
      <QueueOverview />
      <BreakersCard />
      <JobFiltersBar filters={filters} rawCheckId={rawCheckId} onChange={update} />
      {query.isPending ? (
        <Card className="p-8 text-center text-sm text-slate-500">Loading captures…</Card>
      ) : query.isError && !data ? (
        <Card className="p-8 text-center text-sm text-red-600">
          Could not load captures: {query.error.message}{" "}
          <Button variant="secondary" size="sm" className="ml-2" onClick={() => void query.refetch()}>Try again</Button>
        </Card>
      ) : !data?.items.length ? (
        data && data.total > 0 ? (
          <EmptyState title={`Page ${data.page} is past the end`} description={`There are ${data.total} captures.`} action={<Button variant="secondary" onClick={() => update({ page: 1 })}>Go to the first page</Button>} />
        ) : (
          <EmptyState
            title={filtered ? "No captures match these filters" : "No captures yet"}
            description={filtered ? "Try another status or provider, or clear the check id." : "Captures appear here as soon as someone starts a check."}
            action={filtered && <Button variant="secondary" onClick={() => update({ status: undefined, providerConfigId: undefined, checkId: undefined })}>Clear filters</Button>}
          />
        )
      ) : (
        <Card className="overflow-hidden">
          <div className="flex min-h-11 items-center justify-between gap-3 border-b border-slate-200 px-4 py-1.5 text-xs text-slate-500">
            <span>{countLabel(data.total, filtered)}</span>
            <span className="flex items-center gap-2">
              <span role="status">
                {query.isError ? (
                  <span className="text-red-600">Refresh failed: {query.error.message}</span>
                ) : query.isPlaceholderData ? (
                  "Loading…"
                ) : paused ? (
                  "Updates paused"
                ) : live ? (
                  "Live, every 2 s"
                ) : (
                  "Nothing is running"
                )}
              </span>
              {(live || paused) && (
                <Button variant="secondary" size="sm" onClick={togglePaused}>
                  {paused ? "Resume updates" : "Pause updates"}
                </Button>
              )}
            </span>
          </div>
          <CapturesTable items={data.items} me={me} canRetry={canRetry} onView={(captureId, startedById) => setOpen({ captureId, startedById })} />
          <Pagination page={data.page} pageSize={data.pageSize} total={data.total} onPage={(page) => update({ page })} />
        </Card>
      )}
      {open && <CaptureDetailDialog captureId={open.captureId} onClose={close} canCancel={canCancelCheck(me, { startedById: open.startedById })} canRetry={canRetry} />}
    </>
  );
}
