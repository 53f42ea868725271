"use client";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { toast } from "sonner";
import { CaptureDetailDialog } from "@/components/checks/capture-detail-dialog";
import { ProgressBar, StatusBadge } from "@/components/checks/status";
import { Button } from "@/components/ui/button";
import { Card, PageHeader } from "@/components/ui/card";
import { cancelCheckAction, retryFailedCapturesAction } from "@/lib/actions/checks";
import { canCancelCheck, type Role } from "@/lib/auth/permissions";
import { formatMicros } from "@/lib/billing/money";
import { unwrap } from "@/lib/client/action-result";
import { captureStatusLabel } from "@/lib/captures/states";
import { formatDuration, formatWhen } from "@/lib/client/format";
import { checkKey, checksKey, isFinished, useCheckQuery, type CheckProgressData } from "../use-checks-query";

type Capture = CheckProgressData["captures"][number];

const cellTone: Record<string, string> = {
  queued: "bg-slate-100 text-slate-500",
  postponed: "bg-amber-50 text-amber-700",
  retry_wait: "bg-amber-50 text-amber-700",
  running: "bg-brand-50 text-brand-700 animate-pulse",
  succeeded: "bg-emerald-50 text-emerald-700",
  failed: "bg-red-50 text-red-700",
  cancelled: "bg-slate-100 text-slate-400 line-through",
};

const symbol: Record<string, string> = { queued: "·", postponed: "⏸", retry_wait: "↻", running: "…", succeeded: "✓", failed: "✕", cancelled: "—" };

const waitsForBudget = (capture: Capture) => capture.status === "postponed" && capture.waitingFor === "budget";

function CaptureCell({ capture, onOpen }: { capture: Capture; onOpen: () => void }) {
  const detail = [
    captureStatusLabel(capture.status, capture.waitingFor),
    capture.attemptCount > 1 ? `${capture.attemptCount} attempts` : null,
    capture.latencyMs !== null ? formatDuration(capture.latencyMs) : null,
    capture.costMicros ? formatMicros(capture.costMicros) : null,
    capture.lastError,
  ].filter(Boolean);
  return (
    <button
      type="button"
      onClick={onOpen}
      title={detail.join(" · ")}
      aria-label={`Sample ${capture.sample}: ${detail.join(", ")}`}
      className={`flex min-w-14 flex-col items-center rounded px-2 py-1 text-xs font-medium ring-1 ring-inset ring-black/5 hover:ring-brand-500 ${cellTone[capture.status] ?? ""}`}
    >
      <span aria-hidden>{waitsForBudget(capture) ? "$" : symbol[capture.status]}</span>
      <span className="tabular-nums text-[10px] opacity-80">{capture.latencyMs !== null ? formatDuration(capture.latencyMs) : capture.attemptCount > 1 ? `try ${capture.attemptCount}` : " "}</span>
    </button>
  );
}

export function CheckPage({ checkId, me, canRetry }: { checkId: string; me: { userId: string; role: Role }; canRetry: boolean }) {
  const queryClient = useQueryClient();
  const query = useCheckQuery(checkId);
  const [open, setOpen] = useState<string | null>(null);
  const refresh = async () => {
    await queryClient.invalidateQueries({ queryKey: checkKey(checkId) });
    await queryClient.invalidateQueries({ queryKey: checksKey });
  };
  const cancel = useMutation({
    mutationFn: async () => unwrap(await cancelCheckAction({ checkId })),
    onSuccess: async ({ cancelledNow, aborting }) => {
      toast.success(`Cancelled ${cancelledNow} waiting capture(s)${aborting ? `; stopping ${aborting} running` : ""}`);
      await refresh();
    },
    onError: (e) => toast.error(e.message),
  });
  const retry = useMutation({
    mutationFn: async () => unwrap(await retryFailedCapturesAction({ checkId })),
    onSuccess: async ({ retried }) => {
      toast.success(`${retried} capture(s) queued again`);
      await refresh();
    },
    onError: (e) => toast.error(e.message),
  });

  if (query.isPending) return <Card className="p-8 text-center text-sm text-slate-500">Loading check…</Card>;
  if (query.isError) return <Card className="p-8 text-center text-sm text-red-600">{query.error.message}</Card>;
  const { check, prompts, providers, captures } = query.data;
  const byCell = new Map<string, Capture[]>();
  for (const c of captures) {
    const key = `${c.promptId}:${c.providerConfigId}`;
    byCell.set(key, [...(byCell.get(key) ?? []), c]);
  }
  const finished = isFinished(check.status);
  const mayCancel = canCancelCheck(me, check);
  const retryable = check.counts.failed + check.counts.cancelled;
  const waitingForBudget = captures.filter(waitsForBudget).length;

  return (
    <>
      <PageHeader
        title={`${check.brand} check`}
        description={
          <>
            Started {formatWhen(check.createdAt)} by {check.startedBy} · {check.counts.total} captures · {check.samples} sample(s) each ·{" "}
            <Link href="/checks" className="text-brand-700 hover:underline">all checks</Link>
          </>
        }
        actions={
          <>
            {!finished && mayCancel && (
              <Button variant="secondary" pending={cancel.isPending} disabled={check.cancelRequested} onClick={() => window.confirm("Cancel this check? Running answers are kept as they are.") && cancel.mutate()}>
                {check.cancelRequested ? "Cancelling…" : "Cancel check"}
              </Button>
            )}
            {canRetry && (
              <Link href={`/admin/jobs?checkId=${checkId}`} className="rounded-md px-3.5 py-2 text-sm font-medium text-slate-700 ring-1 ring-slate-300 hover:bg-slate-50">
                Jobs view
              </Link>
            )}
            {canRetry && retryable > 0 && (finished || check.cancelRequested) && (
              <Button pending={retry.isPending} onClick={() => retry.mutate()}>Retry {retryable} failed/cancelled</Button>
            )}
          </>
        }
      />
      <Card className="mb-6 p-5">
        <div className="mb-3 flex flex-wrap items-center justify-between gap-3">
          <StatusBadge status={check.status} />
          <span className="text-sm text-slate-600">
            {finished ? "Charged" : "Spent so far"} <strong className="tabular-nums text-slate-900">{formatMicros(finished ? check.chargedMicros : check.spentMicros)}</strong>
            {!finished && check.reservedMicros > 0 && <span className="text-slate-500"> · {formatMicros(check.reservedMicros)} reserved</span>}
          </span>
        </div>
        <ProgressBar counts={check.counts} />
        {waitingForBudget > 0 && (
          <p role="status" className="mt-3 rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-800 ring-1 ring-inset ring-amber-200">
            {waitingForBudget} capture{waitingForBudget === 1 ? " is" : "s are"} waiting for budget: this month&apos;s budget cannot cover {waitingForBudget === 1 ? "its" : "their"} next
            call at its most expensive. They run as soon as calls in flight end or the budget is raised in{" "}
            <Link href="/settings" className="font-medium underline">Settings</Link>; cancel the check to stop them.
          </p>
        )}
        {!finished && <p className="mt-2 text-xs text-slate-500">Updates every second. You can close this tab; the check keeps running.</p>}
      </Card>
      <Card className="overflow-x-auto">
        <table className="min-w-full text-sm">
          <thead className="bg-slate-50 text-left text-xs font-medium uppercase tracking-wide text-slate-500">
            <tr>
              <th scope="col" className="px-4 py-3">Prompt</th>
              {providers.map((p) => (
                <th key={p.id} scope="col" className="px-3 py-3 text-center">
                  {p.name}
                  <span className="block text-[10px] font-normal normal-case text-slate-400">{p.model}</span>
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {prompts.map((prompt) => (
              <tr key={prompt.id}>
                <th scope="row" className="max-w-md px-4 py-2 text-left font-normal text-slate-800">{prompt.text}</th>
                {providers.map((provider) => (
                  <td key={provider.id} className="px-3 py-2">
                    <div className="flex justify-center gap-1">
                      {(byCell.get(`${prompt.id}:${provider.id}`) ?? []).map((c) => (
                        <CaptureCell key={c.id} capture={c} onOpen={() => setOpen(c.id)} />
                      ))}
                    </div>
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </Card>
      {open && <CaptureDetailDialog captureId={open} onClose={() => setOpen(null)} canCancel={mayCancel} canRetry={canRetry} />}
    </>
  );
}
