"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import dynamic from "next/dynamic";
import { useEffect } from "react";
import { toast } from "@/lib/browser/toast";
import { StatusBadge } from "@/components/checks/status";
import { Button } from "@/components/ui/button";
import { Badge } from "@/components/ui/card";
import { DataTable } from "@/components/ui/data-table";
import { Dialog } from "@/components/ui/dialog";
import type { Column } from "@/components/ui/table-columns";
import { cancelCaptureAction, captureDetailAction, retryCaptureAction } from "@/lib/actions/checks";
import { formatDuration, formatMicros, formatTimestamp } from "@/lib/format";
import { unwrap } from "@/lib/browser/action-result";
import { FAILED_CALLS_HELP } from "@/lib/captures/retry-policy";
import { isRetryable, isUnfinished } from "@/lib/captures/states";
import type { CaptureDetail } from "@/lib/checks/queries";

type Mention = NonNullable<CaptureDetail>["mentions"][number];
type Attempt = NonNullable<CaptureDetail>["attempts"][number];

const mentionColumns: Column<Mention>[] = [
  {
    id: "entity",
    header: "Entity",
    cell: (m) => <span className={m.kind === "brand" ? "rounded bg-emerald-100 px-1" : "rounded bg-amber-100 px-1"}>{m.name}</span>,
  },
  { id: "mentioned", header: "Mentioned", cell: (m) => (m.mentioned ? "yes" : "no") },
  { id: "times", header: "Times", numeric: true, cell: (m) => m.count },
  { id: "position", header: "Position", numeric: true, cell: (m) => m.position ?? "—" },
  {
    id: "sentiment",
    header: "Sentiment",
    cell: (m) => (m.sentiment ? <Badge tone={m.sentiment === "positive" ? "green" : m.sentiment === "negative" ? "red" : "slate"}>{m.sentiment}</Badge> : "—"),
  },
];

const attemptColumns: Column<Attempt>[] = [
  { id: "number", header: "#", cell: (a) => a.number },
  { id: "outcome", header: "Outcome", cell: (a) => a.outcome ?? "running" },
  {
    id: "reason",
    header: "Reason",
    className: "max-w-40 truncate",
    cell: (a) => (
      <span title={a.reason ?? ""}>
        {a.reason ?? "—"}
        {a.errorClass ? ` (${a.errorClass})` : ""}
      </span>
    ),
  },
  { id: "http", header: "HTTP", cell: (a) => a.httpStatus ?? "—" },
  { id: "latency", header: "Latency", cell: (a) => formatDuration(a.latencyMs) },
  { id: "tokens", header: "Tokens in/out", numeric: true, align: "left", cell: (a) => `${a.inputTokens}/${a.outputTokens}` },
  { id: "cost", header: "Cost", numeric: true, cell: (a) => `${formatMicros(a.costMicros)}${a.costIsEstimate ? " est." : ""}` },
];

// The answer's markdown renderer (react-markdown with GFM, about 40 KB compressed) loads when a
// capture is opened, not with the check and Jobs pages that list captures; the dialog starts
// loading it while it asks for the capture.
const loadAnswerMarkdown = () => import("@/components/checks/answer-markdown").then((m) => m.AnswerMarkdown);
const AnswerMarkdown = dynamic(loadAnswerMarkdown, { loading: () => <p className="text-slate-500">Loading the answer…</p> });

/** One capture: its answer (streaming in while it runs), sources, searches, attempts and history. */
export function CaptureDetailDialog({ captureId, onClose, canCancel, canRetry }: { captureId: string; onClose: () => void; canCancel: boolean; canRetry: boolean }) {
  const queryClient = useQueryClient();
  useEffect(() => void loadAnswerMarkdown(), []);
  const query = useQuery({
    queryKey: ["capture", captureId],
    queryFn: async () => unwrap(await captureDetailAction({ captureId })),
    refetchInterval: (q) => (q.state.data && !isUnfinished(q.state.data.status) ? false : 1000),
  });
  const afterChange = async (message: string) => {
    toast.success(message);
    await queryClient.invalidateQueries({ queryKey: ["capture", captureId] });
    await queryClient.invalidateQueries({ queryKey: ["check"] });
  };
  const cancel = useMutation({
    mutationFn: async () => unwrap(await cancelCaptureAction({ captureId })),
    onSuccess: () => afterChange("Cancelling capture"),
    onError: (e) => toast.error(e.message),
  });
  const retry = useMutation({
    mutationFn: async () => unwrap(await retryCaptureAction({ captureId })),
    onSuccess: () => afterChange("Capture queued again"),
    onError: (e) => toast.error(e.message),
  });
  const c = query.data;

  return (
    <Dialog open size="xl" onClose={onClose} title={c ? `${c.provider.name} · sample ${c.sample}` : "Capture"}>
      {query.isPending ? (
        <p className="text-sm text-slate-500">Loading…</p>
      ) : query.isError ? (
        <p className="text-sm text-red-600">{query.error.message}</p>
      ) : c ? (
        <div className="max-h-[70vh] space-y-5 overflow-y-auto pr-1 text-sm">
          <div className="flex flex-wrap items-center gap-2">
            <StatusBadge status={c.status} waitingFor={c.waitingFor} />
            <span className="text-slate-500">
              {c.model} · search {c.searchMode} · <span title={FAILED_CALLS_HELP}>
                {c.attemptCount === 1 ? "1 attempt" : `${c.attemptCount} attempts`} · failed calls {c.spentAttempts} of {c.maxAttempts}
              </span>
            </span>
            {c.costMicros > 0 && <span className="text-slate-500">· {formatMicros(c.costMicros)}</span>}
            {c.latencyMs !== null && <span className="text-slate-500">· {formatDuration(c.latencyMs)}</span>}
          </div>
          {c.events.some((e) => e.kind === "capture_retried") && <p className="text-xs text-slate-500">Retried by hand. {FAILED_CALLS_HELP}</p>}
          <p className="rounded-md bg-slate-50 p-3 text-slate-800">“{c.prompt.text}”</p>
          {c.promptTextNow !== null && <p className="text-xs text-slate-500">Asked as above; the prompt has since been reworded to “{c.promptTextNow}”.</p>}
          {c.lastError && <p className="rounded-md bg-red-50 p-3 text-red-700">{c.lastError}</p>}
          <section>
            <h3 className="mb-1 font-semibold text-slate-900">
              Answer {c.answerIsPartial && <Badge tone="amber">{c.status === "running" ? "streaming" : "partial"}</Badge>}
            </h3>
            {c.analysisTruncated && (
              <p className="mb-2 text-xs text-amber-700">Only the start of this very long answer was analysed: mentions and links further on are not counted.</p>
            )}
            {c.answerText ? (
              <AnswerMarkdown text={c.answerText} entities={c.entities} />
            ) : c.noAnswer ? (
              <p className="rounded-md bg-slate-50 p-3 text-slate-700">
                The engine showed no answer for this query (for Google: no AI Overview on the results page). This is a result, not an error: it counts in
                visibility as an answer that names no brand.
              </p>
            ) : (
              <p className="text-slate-500">No answer yet.</p>
            )}
          </section>
          {c.mentions.length > 0 && (
            <section>
              <h3 className="mb-1 font-semibold text-slate-900">Mentions</h3>
              <DataTable rows={c.mentions} columns={mentionColumns} rowKey={(m) => m.name} density="compact" />
            </section>
          )}
          {c.citations.length > 0 && (
            <section>
              <h3 className="mb-1 font-semibold text-slate-900">Sources ({c.citations.length})</h3>
              <ul className="space-y-1">
                {c.citations.map((s) => (
                  <li key={s.url} className="flex items-center gap-2">
                    <a href={s.url} target="_blank" rel="noreferrer noopener" className="truncate text-brand-700 hover:underline">{s.title ?? s.url}</a>
                    <Badge>{s.domain}</Badge>
                    {s.isOwnDomain && <Badge tone="green">own</Badge>}
                    {!s.citedInText && <Badge>retrieved only</Badge>}
                  </li>
                ))}
              </ul>
            </section>
          )}
          {c.searchQueries.length > 0 && (
            <section>
              <h3 className="mb-1 font-semibold text-slate-900">The model searched for</h3>
              <ul className="list-inside list-disc text-slate-700">{c.searchQueries.map((q) => <li key={q}>{q}</li>)}</ul>
            </section>
          )}
          <section>
            <h3 className="mb-1 font-semibold text-slate-900">Attempts</h3>
            <DataTable rows={c.attempts} columns={attemptColumns} rowKey={(a) => String(a.number)} density="compact" />
          </section>
          {c.events.length > 0 && (
            <section>
              <h3 className="mb-1 font-semibold text-slate-900">History</h3>
              <ul className="space-y-0.5 text-xs text-slate-600">
                {c.events.map((e, i) => <li key={i}>{formatTimestamp(e.at)}: {e.kind.replaceAll("_", " ")} by {e.by}</li>)}
              </ul>
            </section>
          )}
          <div className="flex justify-end gap-2 border-t border-slate-100 pt-3">
            {canCancel && isUnfinished(c.status) && !c.cancelRequested && (
              <Button variant="secondary" pending={cancel.isPending} onClick={() => cancel.mutate()}>Cancel capture</Button>
            )}
            {canRetry && isRetryable(c.status) && (
              <Button pending={retry.isPending} onClick={() => retry.mutate()}>Retry</Button>
            )}
          </div>
        </div>
      ) : null}
    </Dialog>
  );
}
