"use client";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Link } from "@/components/ui/link";
import { toast } from "@/lib/browser/toast";
import { StatusBadge } from "@/components/checks/status";
import { Button } from "@/components/ui/button";
import { Badge } from "@/components/ui/card";
import { DataTable } from "@/components/ui/data-table";
import { actionsColumn, type Column } from "@/components/ui/table-columns";
import { cancelCaptureAction, retryCaptureAction } from "@/lib/actions/checks";
import { canCancelCheck, type Role } from "@/lib/permissions/permissions";
import { ago, formatDuration, formatMicros, formatTimestamp, relativeTo } from "@/lib/format";
import { unwrap } from "@/lib/browser/action-result";
import { useNow } from "./time";
import { FAILED_CALLS_HELP } from "@/lib/captures/retry-policy";
import { isRetryable, isUnfinished } from "@/lib/captures/states";
import { jobsKey } from "./queries";
import type { AdminCaptureRow } from "./use-jobs-query";

export type Me = { userId: string; role: Role };

/** After a change: this page, the capture's own dialog and any open check page. */
export async function invalidateAfterChange(queryClient: ReturnType<typeof useQueryClient>, captureId: string) {
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: jobsKey }),
    queryClient.invalidateQueries({ queryKey: ["capture", captureId] }),
    queryClient.invalidateQueries({ queryKey: ["check"] }),
    queryClient.invalidateQueries({ queryKey: ["checks"] }),
  ]);
}

function CaptureActions({ capture, me, canRetry, onView }: { capture: AdminCaptureRow; me: Me; canRetry: boolean; onView: () => void }) {
  const queryClient = useQueryClient();
  const name = `sample ${capture.sample} of “${capture.prompt.text.slice(0, 40)}” on ${capture.providerConfig.name}`;
  const cancel = useMutation({
    mutationFn: async () => unwrap(await cancelCaptureAction({ captureId: capture.id })),
    onSuccess: async ({ aborting }) => {
      toast.success(aborting ? "Stopping the running capture" : "Capture cancelled");
      await invalidateAfterChange(queryClient, capture.id);
    },
    onError: (e) => toast.error(e.message),
  });
  const retry = useMutation({
    mutationFn: async () => unwrap(await retryCaptureAction({ captureId: capture.id })),
    onSuccess: async () => {
      toast.success("Capture queued again");
      await invalidateAfterChange(queryClient, capture.id);
    },
    onError: (e) => toast.error(e.message),
  });
  const mayCancel = isUnfinished(capture.status) && !capture.cancelRequested && canCancelCheck(me, capture);
  const mayRetry = canRetry && isRetryable(capture.status);
  return (
    <div className="flex gap-1 whitespace-nowrap">
      <Button variant="secondary" size="sm" onClick={onView} aria-label={`View ${name}`}>View</Button>
      {mayCancel && (
        <Button variant="ghost" size="sm" pending={cancel.isPending} onClick={() => cancel.mutate()} aria-label={`Cancel ${name}`}>Cancel</Button>
      )}
      {mayRetry && (
        <Button variant="ghost" size="sm" pending={retry.isPending} onClick={() => retry.mutate()} aria-label={`Retry ${name}`}>Retry</Button>
      )}
    </div>
  );
}

function StatusCell({ capture, now }: { capture: AdminCaptureRow; now: number }) {
  return (
    <div className="flex flex-col items-start gap-1">
      <StatusBadge status={capture.status} waitingFor={capture.waitingFor} />
      {capture.cancelRequested && capture.status === "running" && <Badge tone="amber">cancelling</Badge>}
      {capture.nextAttemptAt && (capture.status === "retry_wait" || capture.status === "postponed") && (
        <span className="text-xs text-slate-500">{new Date(capture.nextAttemptAt).getTime() > now ? `next try ${relativeTo(capture.nextAttemptAt, now)}` : `due ${ago(capture.nextAttemptAt, now)}`}</span>
      )}
    </div>
  );
}

export function CapturesTable({ items, me, canRetry, onView }: { items: AdminCaptureRow[]; me: Me; canRetry: boolean; onView: (captureId: string, startedById: string | null) => void }) {
  const now = useNow();
  const columns: Column<AdminCaptureRow>[] = [
    {
      id: "prompt",
      header: "Prompt",
      cell: (c) => (
        <>
          <p className="max-w-[15rem] truncate text-slate-800" title={c.prompt.text}>{c.prompt.text}</p>
          <Link href={`/checks/${c.checkId}`} className="text-xs text-brand-700 hover:underline">check {c.checkId.slice(0, 8)}</Link>
        </>
      ),
    },
    {
      id: "provider",
      header: "Provider",
      className: "whitespace-nowrap text-slate-700",
      cell: (c) => (
        <>
          {c.providerConfig.name}
          <span className="block text-xs text-slate-500">sample {c.sample}</span>
        </>
      ),
    },
    { id: "status", header: "Status", cell: (c) => <StatusCell capture={c} now={now} /> },
    {
      id: "attempts",
      header: "Attempts",
      numeric: true,
      className: "whitespace-nowrap text-slate-700",
      cell: (c) => (
        <>
          {c.attemptCount}
          <span className="block text-xs text-slate-500" title={FAILED_CALLS_HELP}>
            {c.spentAttempts}/{c.maxAttempts} failed
          </span>
        </>
      ),
    },
    {
      id: "error",
      header: "Last error",
      cell: (c) => (c.lastError ? <p className="max-w-[10rem] truncate text-red-700" title={c.lastError}>{c.lastError}</p> : <span className="text-slate-400">—</span>),
    },
    { id: "latency", header: "Latency", numeric: true, className: "whitespace-nowrap text-slate-700", cell: (c) => formatDuration(c.latencyMs) },
    { id: "cost", header: "Cost", numeric: true, className: "whitespace-nowrap text-slate-700", cell: (c) => (c.costMicros ? formatMicros(c.costMicros) : "—") },
    {
      id: "updated",
      header: "Updated",
      className: "whitespace-nowrap text-slate-600",
      cell: (c) => (
        <time dateTime={new Date(c.updatedAt).toISOString()} title={formatTimestamp(c.updatedAt)}>
          {ago(c.updatedAt, now)}
        </time>
      ),
    },
    actionsColumn((c) => <CaptureActions capture={c} me={me} canRetry={canRetry} onView={() => onView(c.id, c.startedById)} />),
  ];
  return <DataTable rows={items} columns={columns} rowKey={(c) => c.id} caption="Captures, most recently updated first" density="dense" alignTop />;
}
