"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Link } from "@/components/ui/link";
import { useEffect, useRef, useState } from "react";
import { toast } from "@/lib/browser/toast";
import { CaptureDetailDialog } from "@/components/checks/capture-detail-dialog";
import { ProgressBar, StatusBadge } from "@/components/checks/status";
import { Button } from "@/components/ui/button";
import { Card, PageHeader } from "@/components/ui/card";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { cancelCheckAction, estimateRetryAction, retryFailedCapturesAction } from "@/lib/actions/checks";
import { canCancelCheck, type Role } from "@/lib/permissions/permissions";
import { formatMicros, formatWhen } from "@/lib/format";
import { unwrap } from "@/lib/browser/action-result";
import { ScheduleSuggestion } from "../../setup/schedule-suggestion";
import { isOperationPending, type CheckOperationView } from "@/lib/checks/progress-state";
import { checkKey, checksKey } from "../queries";
import { isFinished, useCheckQuery } from "../use-checks-query";
import { CheckGrid } from "./check-grid";

export function CheckPage({ checkId, me, canRetry, suggestSchedule = false }: { checkId: string; me: { userId: string; role: Role }; canRetry: boolean; suggestSchedule?: boolean }) {
  const queryClient = useQueryClient();
  const [page, setPage] = useState(1);
  const [market, setMarket] = useState<string | null>(null);
  const query = useCheckQuery(checkId, page, market);
  const [open, setOpen] = useState<string | null>(null);
  const refresh = async () => {
    await queryClient.invalidateQueries({ queryKey: checkKey(checkId) });
    await queryClient.invalidateQueries({ queryKey: checksKey });
  };
  const [asking, setAsking] = useState<"cancel" | "retry" | null>(null);
  // The action only records the cancel or retry (a worker runs it); its outcome comes with a later poll.
  const awaiting = useRef<string | null>(null);
  const asked = async ({ operationId }: { operationId: string }) => {
    awaiting.current = operationId;
    setAsking(null);
    await refresh();
  };
  const cancel = useMutation({
    mutationFn: async () => unwrap(await cancelCheckAction({ checkId })),
    onSuccess: asked,
    onError: (e) => toast.error(e.message),
  });
  const retry = useMutation({
    mutationFn: async () => unwrap(await retryFailedCapturesAction({ checkId })),
    onSuccess: asked,
    onError: (e) => toast.error(e.message),
  });
  const operation = query.data?.check.operation ?? null;
  useEffect(() => {
    if (!operation || operation.id !== awaiting.current || isOperationPending(operation)) return;
    awaiting.current = null;
    if (operation.status === "failed") toast.error(operation.error ?? "That did not work.");
    else toast.success(operationOutcome(operation));
    void queryClient.invalidateQueries({ queryKey: checksKey });
  }, [operation, queryClient]);
  // Asked when the retry dialog opens, so the numbers are today's (budget spent meanwhile, captures retried by someone else).
  const retryEstimate = useQuery({
    queryKey: ["retry-estimate", checkId],
    queryFn: async () => unwrap(await estimateRetryAction({ checkId })),
    enabled: asking === "retry",
    staleTime: 0,
    gcTime: 0,
    retry: false,
  });

  if (query.isPending) return <Card className="p-8 text-center text-sm text-slate-500">Loading check…</Card>;
  if (query.isError) return <Card className="p-8 text-center text-sm text-red-600">{query.error.message}</Card>;
  const { check, grid, cells } = query.data;
  const finished = isFinished(check.status);
  const mayCancel = canCancelCheck(me, grid);
  const retryable = check.counts.failed + check.counts.cancelled;
  const pendingOperation = isOperationPending(operation) ? operation : null;
  const waitingForBudget = check.counts.waitingForBudget;

  return (
    <>
      <PageHeader
        title={`${grid.brand} check`}
        description={
          <>
            Started {formatWhen(grid.createdAt)} by {grid.startedBy} · {check.counts.total} captures · {grid.samples === 1 ? "1 sample" : `${grid.samples} samples`} each ·{" "}
            <Link href="/checks" className="text-brand-700 hover:underline">all checks</Link>
          </>
        }
        actions={
          <>
            {!finished && mayCancel && (
              <Button variant="secondary" pending={cancel.isPending} disabled={check.cancelRequested} onClick={() => setAsking("cancel")}>
                {check.cancelRequested ? "Cancelling…" : "Cancel check"}
              </Button>
            )}
            {canRetry && (
              <Link href={`/admin/jobs?checkId=${checkId}`} className="rounded-md px-3.5 py-2 text-sm font-medium text-slate-700 ring-1 ring-slate-300 hover:bg-slate-50">
                Jobs view
              </Link>
            )}
            {/* Also while the check runs: its failed captures need not wait for the rest. */}
            {canRetry && retryable > 0 && pendingOperation?.kind !== "retry" && (
              <Button pending={retry.isPending} onClick={() => setAsking("retry")}>Retry {retryable} failed/cancelled…</Button>
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
        {pendingOperation && (
          <p role="status" aria-busy className="mt-3 rounded-md bg-slate-50 px-3 py-2 text-sm text-slate-700 ring-1 ring-inset ring-slate-200">
            {pendingOperation.kind === "retry" ? "Queuing the failed and cancelled captures again…" : "Cancelling the waiting captures…"}
          </p>
        )}
        {!finished && <p className="mt-2 text-xs text-slate-500">Updates every second. You can close this tab; the check keeps running.</p>}
      </Card>
      {finished && suggestSchedule && <ScheduleSuggestion className="mb-6" />}
      <CheckGrid
        grid={grid}
        cells={cells}
        onOpen={setOpen}
        onPage={setPage}
        onMarket={(next) => {
          setMarket(next);
          setPage(1);
        }}
      />
      <ConfirmDialog
        open={asking === "cancel"}
        title="Cancel this check?"
        confirmLabel="Cancel check"
        cancelLabel="Keep running"
        destructive
        pending={cancel.isPending}
        onConfirm={() => cancel.mutate()}
        onCancel={() => setAsking(null)}
      >
        <p>Cancel this check? Running answers are kept as they are.</p>
      </ConfirmDialog>
      <ConfirmDialog
        open={asking === "retry"}
        title="Retry failed and cancelled captures?"
        confirmLabel={retryEstimate.data ? `Retry ${retryEstimate.data.captures} ${retryEstimate.data.captures === 1 ? "capture" : "captures"}` : "Retry"}
        pending={retry.isPending}
        disabled={!retryEstimate.data}
        onConfirm={() => retry.mutate()}
        onCancel={() => setAsking(null)}
      >
        {retryEstimate.isError ? (
          <p role="alert" className="text-red-600">{retryEstimate.error.message}</p>
        ) : !retryEstimate.data ? (
          <p aria-busy>Estimating the cost…</p>
        ) : (
          <RetryFacts estimate={retryEstimate.data} />
        )}
      </ConfirmDialog>
      {open && <CaptureDetailDialog captureId={open} onClose={() => setOpen(null)} canCancel={mayCancel} canRetry={canRetry} />}
    </>
  );
}

/** What a finished cancel or retry did, for its toast. Captures a retry could not run again (a paid answer, a revoked or disabled connection) were left as they were. */
function operationOutcome(operation: CheckOperationView): string {
  const result = operation.result;
  if (!result) return "Done";
  if ("retried" in result) return [`${result.retried} capture(s) queued again`, ...result.refused.map((r) => `${r.captures} not retried: ${r.reason}`)].join(" · ");
  if (!result.cancelledNow && !result.aborting) return "Nothing was left to cancel";
  return `Cancelled ${result.cancelledNow} waiting capture(s)${result.aborting ? `; stopping ${result.aborting} running` : ""}`;
}

type RetryEstimate = Awaited<ReturnType<typeof estimateRetryAction>> extends { data?: infer D } ? NonNullable<D> : never;

/** What a check's retry would run and cost, from the estimate a new check shows (lib/checks/cancel-retry.ts estimateRetry). */
function RetryFacts({ estimate }: { estimate: RetryEstimate }) {
  const left = estimate.budget.leftMicros;
  const over = left !== null && estimate.estimateMicros > left;
  return (
    <>
      <p>
        {estimate.captures} {estimate.captures === 1 ? "capture goes" : "captures go"} back to the queue, each with a fresh allowance of attempts.
      </p>
      <dl className="space-y-1.5 rounded-md bg-slate-50 p-3">
        <div className="flex justify-between gap-4"><dt className="text-slate-600">Estimated cost</dt><dd className="font-semibold tabular-nums">about {formatMicros(estimate.estimateMicros)}</dd></div>
        <div className="flex justify-between gap-4"><dt className="text-slate-600">Budget left this month</dt><dd className="tabular-nums">{left === null ? "no limit" : formatMicros(left)}</dd></div>
      </dl>
      <p className="text-xs text-slate-500">The same estimate a new check shows: a typical answer per capture. Longer answers, more searches and retried attempts cost more.</p>
      {over && <p className="rounded-md bg-amber-50 p-2 text-xs text-amber-800 ring-1 ring-amber-200">This is more than this month&apos;s budget left: the retry will be refused. Raise the budget in Settings first.</p>}
      {estimate.refused.map((r) => (
        <p key={r.reason} className="text-xs text-slate-600">{r.captures} not retried: {r.reason}</p>
      ))}
    </>
  );
}
