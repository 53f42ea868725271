"use client";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { toast } from "@/lib/browser/toast";
import { Button } from "@/components/ui/button";
import { Badge, Card, EmptyState, PageHeader } from "@/components/ui/card";
import { DataTable } from "@/components/ui/data-table";
import { Select } from "@/components/ui/field";
import { Pagination } from "@/components/ui/pagination";
import { actionsColumn, type Column } from "@/components/ui/table-columns";
import { DELIVERY_STATUSES, type DeliveryStatus } from "@/lib/alerts/channel-schemas";
import { sendAlertDeliveryAgainAction } from "@/lib/actions/alert-channels";
import { unwrap } from "@/lib/browser/action-result";
import { formatWhen } from "@/lib/format";
import { useChannelsQuery } from "../channels/use-channels-query";
import { useDeliveriesQuery, type DeliveryLogRow } from "./use-deliveries-query";
import { AlertsNav } from "../alerts-nav";

const tones = { pending: "amber", sending: "blue", delivered: "green", failed: "red", unknown: "amber" } as const satisfies Record<DeliveryStatus, string>;
const kindLabel = { firing: "Alert", test: "Test", digest: "Digest" } as const;

function MessageSent({ row }: { row: DeliveryLogRow }) {
  const channelKind = row.channel.kind;
  const body = channelKind === "email" ? row.message.text : JSON.stringify(channelKind === "slack" ? row.message.slack : row.message.webhook, null, 2);
  return (
    <div className="space-y-2 bg-slate-50 px-4 py-3">
      <p className="text-xs font-medium text-slate-500">
        {channelKind === "email" ? `Email, subject “${row.message.subject}”` : channelKind === "slack" ? "Slack message (JSON)" : `Webhook body (JSON), webhook-id ${row.id}`}
      </p>
      <pre className="max-h-96 overflow-auto whitespace-pre-wrap rounded bg-surface p-3 text-xs text-slate-800 ring-1 ring-slate-200">{body}</pre>
    </div>
  );
}

export function DeliveriesPage() {
  const [page, setPage] = useState(1);
  const [channelId, setChannelId] = useState<string>("");
  const [status, setStatus] = useState<DeliveryStatus | "">("");
  const [open, setOpen] = useState<Set<string>>(new Set());
  const channels = useChannelsQuery();
  const query = useDeliveriesQuery({ page, channelId: channelId || undefined, status: status || undefined });
  const toggle = (id: string) => setOpen((s) => new Set(s.has(id) ? [...s].filter((x) => x !== id) : [...s, id]));
  const queryClient = useQueryClient();
  const sendAgain = useMutation({
    mutationFn: async (deliveryId: string) => unwrap(await sendAlertDeliveryAgainAction({ deliveryId })),
    onSuccess: async () => {
      toast.success("Sent again: its result appears here");
      await queryClient.invalidateQueries({ queryKey: ["alert-deliveries"] });
    },
    onError: (error: Error) => toast.error(error.message),
  });
  const columns: Column<DeliveryLogRow>[] = [
    {
      id: "when",
      header: "When",
      className: "whitespace-nowrap text-slate-600",
      cell: (row) => <span title={new Date(row.createdAt).toISOString()}>{formatWhen(row.createdAt)}</span>,
    },
    { id: "channel", header: "Channel", className: "text-slate-900", cell: (row) => row.channel.name },
    { id: "kind", header: "Kind", cell: (row) => kindLabel[row.kind] },
    { id: "subject", header: "Subject", className: "max-w-xs truncate text-slate-700", cell: (row) => <span title={row.subject}>{row.subject}</span> },
    { id: "status", header: "Status", cell: (row) => <Badge tone={tones[row.status]}>{row.status}</Badge> },
    { id: "attempts", header: "Attempts", numeric: true, cell: (row) => row.attempts },
    { id: "next", header: "Next attempt", className: "whitespace-nowrap text-slate-600", cell: (row) => (row.nextAttemptAt ? formatWhen(row.nextAttemptAt) : "—") },
    { id: "response", header: "Response", numeric: true, cell: (row) => row.responseStatus ?? "—" },
    { id: "error", header: "Last error", className: "min-w-48 max-w-xs text-xs text-red-700", cell: (row) => row.lastError ?? "" },
    actionsColumn(
      (row) => (
        <>
          {row.status === "unknown" && (
            <Button
              variant="secondary"
              size="sm"
              disabled={sendAgain.isPending}
              aria-label={`Send again: ${row.subject}`}
              title="It may have arrived already: send it again only if the receiver did not get it"
              onClick={() => sendAgain.mutate(row.id)}
            >
              Send again
            </Button>
          )}
          <Button
            variant="ghost"
            size="sm"
            aria-expanded={open.has(row.id)}
            aria-controls={`message-${row.id}`}
            aria-label={`Message sent: ${row.subject}`}
            onClick={() => toggle(row.id)}
          >
            {open.has(row.id) ? "Hide" : "Show"}
          </Button>
        </>
      ),
      "Message",
    ),
  ];

  return (
    <>
      <PageHeader title="Delivery log" tabs={<AlertsNav />} description="Every alert, test and digest sent to a channel, newest first, with what the receiver answered. Failed sends are retried with growing waits. “unknown”: the send may have arrived but was never recorded; email and Slack cannot tell a repeat, so it is sent again only when you choose." />
      <div className="mb-4 flex flex-wrap gap-3">
        <label className="flex items-center gap-2 text-sm text-slate-700">
          Channel
          <Select aria-label="Channel" value={channelId} onChange={(e) => {
              setChannelId(e.target.value);
              setPage(1);
            }} className="min-w-48">
            <option value="">All channels</option>
            {channels.data?.channels.map((c) => (
              <option key={c.id} value={c.id}>{c.name}</option>
            ))}
          </Select>
        </label>
        <label className="flex items-center gap-2 text-sm text-slate-700">
          Status
          <Select aria-label="Status" value={status} onChange={(e) => {
              setStatus(e.target.value as DeliveryStatus | "");
              setPage(1);
            }} className="min-w-36">
            <option value="">Any status</option>
            {DELIVERY_STATUSES.map((s) => (
              <option key={s} value={s}>{s}</option>
            ))}
          </Select>
        </label>
      </div>
      <Card className="overflow-hidden">
        {query.isPending ? (
          <p className="p-6 text-sm text-slate-500">Loading deliveries…</p>
        ) : query.isError ? (
          <p className="p-6 text-sm text-red-600">Could not load the delivery log: {query.error.message}</p>
        ) : !query.data.rows.length ? (
          <div className="p-6">
            <EmptyState title="Nothing sent yet" description="Alerts, tests and digests appear here once sent. Use “Send test” on the Channels tab to try a channel." />
          </div>
        ) : (
          <>
            <DataTable
              rows={query.data.rows}
              columns={columns}
              rowKey={(row) => row.id}
              label="Delivery log"
              density="dense"
              detail={(row) => (open.has(row.id) ? { id: `message-${row.id}`, content: <MessageSent row={row} /> } : null)}
            />
            <Pagination page={query.data.page} pageSize={query.data.pageSize} total={query.data.total} onPage={setPage} noun="deliveries" label="Delivery log pages" />
          </>
        )}
      </Card>
    </>
  );
}
