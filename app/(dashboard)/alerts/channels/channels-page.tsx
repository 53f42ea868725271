"use client";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Link } from "@/components/ui/link";
import { useState } from "react";
import { toast } from "@/lib/browser/toast";
import { Button } from "@/components/ui/button";
import { useConfirm } from "@/components/ui/confirm-dialog";
import { Badge, Card, EmptyState, PageHeader } from "@/components/ui/card";
import { AlertsNav } from "../alerts-nav";
import { DataTable } from "@/components/ui/data-table";
import { actionsColumn, type Column } from "@/components/ui/table-columns";
import { deleteAlertChannelAction, rotateWebhookSecretAction, sendTestAlertAction } from "@/lib/actions/alert-channels";
import { unwrap } from "@/lib/browser/action-result";
import { ChannelFormDialog } from "./channel-form-dialog";
import { SecretDialog } from "./secret-dialog";
import { channelsKey, useChannelsQuery, type ChannelRow } from "./use-channels-query";

const kindLabel = { email: "Email", slack: "Slack", webhook: "Webhook" } as const;

function target(c: ChannelRow): string {
  return c.kind === "email" ? c.to.join(", ") : (c.url ?? "");
}

export function ChannelsPage() {
  const queryClient = useQueryClient();
  const [ask, confirmDialog] = useConfirm();
  const query = useChannelsQuery();
  const [editing, setEditing] = useState<ChannelRow | "new" | null>(null);
  const [secret, setSecret] = useState<{ name: string; secret: string } | null>(null);
  const onError = (error: Error) => toast.error(error.message);

  const sendTest = useMutation({
    mutationFn: async (channelId: string) => unwrap(await sendTestAlertAction({ channelId })),
    onSuccess: async () => {
      toast.success("Test message queued: its result appears in the delivery log");
      await queryClient.invalidateQueries({ queryKey: ["alert-deliveries"] });
    },
    onError,
  });
  const remove = useMutation({
    mutationFn: async (channelId: string) => unwrap(await deleteAlertChannelAction({ channelId })),
    onSuccess: async () => {
      toast.success("Channel deleted");
      await queryClient.invalidateQueries({ queryKey: channelsKey });
    },
    onError,
  });
  const rotate = useMutation({
    mutationFn: async (c: ChannelRow) => ({ name: c.name, ...unwrap(await rotateWebhookSecretAction({ channelId: c.id })) }),
    onSuccess: (data) => setSecret(data),
    onError,
  });

  const smtpConfigured = query.data?.smtpConfigured ?? true;
  const columns: Column<ChannelRow>[] = [
    { id: "name", header: "Name", className: "font-medium text-slate-900", cell: (c) => c.name },
    { id: "kind", header: "Kind", cell: (c) => <Badge>{kindLabel[c.kind]}</Badge> },
    { id: "target", header: "Sends to", className: "max-w-md truncate text-slate-600", cell: (c) => <span title={target(c)}>{target(c)}</span> },
    actionsColumn((c) => (
      <>
        <Button variant="secondary" size="sm" aria-label={`Send a test to ${c.name}`} pending={sendTest.isPending && sendTest.variables === c.id} onClick={() => sendTest.mutate(c.id)}>
          Send test
        </Button>{" "}
        <Button variant="ghost" size="sm" aria-label={`Edit ${c.name}`} onClick={() => setEditing(c)}>
          Edit
        </Button>
        {c.kind === "webhook" && (
          <Button
            variant="ghost"
            size="sm"
            aria-label={`Rotate the signing secret of ${c.name}`}
            onClick={() => ask({ title: "Rotate signing secret?", body: `Make a new signing secret for ${c.name}? The current one stops working at once.`, confirmLabel: "Rotate secret", destructive: true }, () => rotate.mutate(c))}
          >
            Rotate secret
          </Button>
        )}
        <Button
          variant="ghost"
          size="sm"
          aria-label={`Delete ${c.name}`}
          onClick={() => ask({ title: "Delete channel?", body: `Delete ${c.name}? Rules stop sending to it and its delivery log goes too.`, confirmLabel: "Delete", destructive: true }, () => remove.mutate(c.id))}
        >
          Delete
        </Button>
      </>
    )),
  ];
  return (
    <>
      {confirmDialog}
      <PageHeader
        title="Alert channels"
        tabs={<AlertsNav />}
        description="Where alerts and the weekly digest (Mondays, 08:00 UTC, to email channels) are sent."
        actions={<Button onClick={() => setEditing("new")}>New channel</Button>}
      />
      {!smtpConfigured && (
        <p role="note" className="mb-4 rounded-md bg-amber-50 px-4 py-3 text-sm text-amber-800 ring-1 ring-amber-200">
          SMTP is not configured on this server (SMTP_URL): email channels can be saved, but their messages fail until the operator sets it.
        </p>
      )}
      <Card className="overflow-hidden">
        {query.isPending ? (
          <p className="p-6 text-sm text-slate-500">Loading channels…</p>
        ) : query.isError ? (
          <p className="p-6 text-sm text-red-600">Could not load channels: {query.error.message}</p>
        ) : !query.data.channels.length ? (
          <div className="p-6">
            <EmptyState title="No channels yet" description="Add an email list, a Slack incoming webhook or a signed webhook, then send it a test." />
          </div>
        ) : (
          <DataTable rows={query.data.channels} columns={columns} rowKey={(c) => c.id} label="Alert channels" />
        )}
      </Card>
      <p className="mt-3 text-sm text-slate-500">
        See what was sent and what receivers answered in the <Link href="/alerts/deliveries" className="text-brand-700 underline">delivery log</Link>.
      </p>
      {editing && (
        <ChannelFormDialog
          channel={editing === "new" ? undefined : editing}
          smtpConfigured={smtpConfigured}
          onClose={() => setEditing(null)}
          onSecret={(name, value) => setSecret({ name, secret: value })}
        />
      )}
      {secret && <SecretDialog channelName={secret.name} secret={secret.secret} onClose={() => setSecret(null)} />}
    </>
  );
}
