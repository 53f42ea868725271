"use client";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { toast } from "sonner";
import { StatusBadge } from "@/components/checks/status";
import { Button } from "@/components/ui/button";
import { Badge } from "@/components/ui/card";
import { cancelCaptureAction, retryCaptureAction } from "@/lib/actions/checks";
import { canCancelCheck, type Role } from "@/lib/permissions/permissions";
import { ago, formatDuration, formatMicros, formatTimestamp, relativeTo } from "@/lib/format";
import { unwrap } from "@/lib/browser/action-result";
import { useNow } from "./time";
import { isRetryable, isUnfinished } from "@/lib/captures/states";
import { jobsKey, type AdminCaptureRow } from "./use-jobs-query";

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
  return (
    <div className="overflow-x-auto">
      <table className="min-w-full divide-y divide-slate-200 text-sm">
        <caption className="sr-only">Captures, most recently updated first</caption>
        <thead className="whitespace-nowrap bg-slate-50 text-left text-xs font-medium uppercase tracking-wide text-slate-500">
          <tr>
            <th scope="col" className="px-4 py-3">Prompt</th>
            <th scope="col" className="px-2.5 py-3">Provider</th>
            <th scope="col" className="px-2.5 py-3">Status</th>
            <th scope="col" className="px-2.5 py-3 text-right">Attempts</th>
            <th scope="col" className="px-2.5 py-3">Last error</th>
            <th scope="col" className="px-2.5 py-3 text-right">Latency</th>
            <th scope="col" className="px-2.5 py-3 text-right">Cost</th>
            <th scope="col" className="px-2.5 py-3">Updated</th>
            <th scope="col" className="px-4 py-3"><span className="sr-only">Actions</span></th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {items.map((c) => (
            <tr key={c.id} className="align-top hover:bg-slate-50">
              <td className="px-4 py-3">
                <p className="max-w-[15rem] truncate text-slate-800" title={c.prompt.text}>{c.prompt.text}</p>
                <Link href={`/checks/${c.checkId}`} className="text-xs text-brand-700 hover:underline">check {c.checkId.slice(0, 8)}</Link>
              </td>
              <td className="whitespace-nowrap px-2.5 py-3 text-slate-700">
                {c.providerConfig.name}
                <span className="block text-xs text-slate-500">sample {c.sample}</span>
              </td>
              <td className="px-2.5 py-3"><StatusCell capture={c} now={now} /></td>
              <td className="whitespace-nowrap px-2.5 py-3 text-right tabular-nums text-slate-700">{c.attemptCount}/{c.maxAttempts}</td>
              <td className="px-2.5 py-3">
                {c.lastError ? <p className="max-w-[10rem] truncate text-red-700" title={c.lastError}>{c.lastError}</p> : <span className="text-slate-400">—</span>}
              </td>
              <td className="whitespace-nowrap px-2.5 py-3 text-right tabular-nums text-slate-700">{formatDuration(c.latencyMs)}</td>
              <td className="whitespace-nowrap px-2.5 py-3 text-right tabular-nums text-slate-700">{c.costMicros ? formatMicros(c.costMicros) : "—"}</td>
              <td className="whitespace-nowrap px-2.5 py-3 text-slate-600">
                <time dateTime={new Date(c.updatedAt).toISOString()} title={formatTimestamp(c.updatedAt)}>{ago(c.updatedAt, now)}</time>
              </td>
              <td className="px-4 py-3">
                <CaptureActions capture={c} me={me} canRetry={canRetry} onView={() => onView(c.id, c.startedById)} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
