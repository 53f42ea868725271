"use client";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Fragment, useState } from "react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { Badge, Card, EmptyState, PageHeader } from "@/components/ui/card";
import { Select } from "@/components/ui/field";
import { Pagination } from "@/components/ui/pagination";
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
      <Card className="overflow-x-auto">
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
            <table className="min-w-full divide-y divide-slate-200 text-sm" aria-label="Delivery log">
              <thead className="bg-slate-50 text-left text-xs font-medium uppercase tracking-wide text-slate-500">
                <tr>
                  <th scope="col" className="px-3 py-3">When</th>
                  <th scope="col" className="px-3 py-3">Channel</th>
                  <th scope="col" className="px-3 py-3">Kind</th>
                  <th scope="col" className="px-3 py-3">Subject</th>
                  <th scope="col" className="px-3 py-3">Status</th>
                  <th scope="col" className="px-3 py-3">Attempts</th>
                  <th scope="col" className="px-3 py-3">Next attempt</th>
                  <th scope="col" className="px-3 py-3">Response</th>
                  <th scope="col" className="px-3 py-3">Last error</th>
                  <th scope="col" className="px-3 py-3"><span className="sr-only">Message</span></th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {query.data.rows.map((row) => (
                  <Fragment key={row.id}>
                    <tr>
                      <td className="whitespace-nowrap px-3 py-2 text-slate-600" title={new Date(row.createdAt).toISOString()}>{formatWhen(row.createdAt)}</td>
                      <td className="px-3 py-2 text-slate-900">{row.channel.name}</td>
                      <td className="px-3 py-2">{kindLabel[row.kind]}</td>
                      <td className="max-w-xs truncate px-3 py-2 text-slate-700" title={row.subject}>{row.subject}</td>
                      <td className="px-3 py-2"><Badge tone={tones[row.status]}>{row.status}</Badge></td>
                      <td className="px-3 py-2 tabular-nums">{row.attempts}</td>
                      <td className="whitespace-nowrap px-3 py-2 text-slate-600">{row.nextAttemptAt ? formatWhen(row.nextAttemptAt) : "—"}</td>
                      <td className="px-3 py-2 tabular-nums">{row.responseStatus ?? "—"}</td>
                      <td className="max-w-xs px-3 py-2 text-xs text-red-700">{row.lastError ?? ""}</td>
                      <td className="whitespace-nowrap px-3 py-2 text-right">
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
                      </td>
                    </tr>
                    {open.has(row.id) && (
                      <tr id={`message-${row.id}`}>
                        <td colSpan={10} className="p-0">
                          <MessageSent row={row} />
                        </td>
                      </tr>
                    )}
                  </Fragment>
                ))}
              </tbody>
            </table>
            <Pagination page={query.data.page} pageSize={query.data.pageSize} total={query.data.total} onPage={setPage} noun="deliveries" label="Delivery log pages" />
          </>
        )}
      </Card>
    </>
  );
}
