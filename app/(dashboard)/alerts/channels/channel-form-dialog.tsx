"use client";
import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { toast } from "@/lib/browser/toast";
import { z } from "zod";
import { useActionForm } from "@/components/forms/use-action-form";
import { Dialog, FormActions } from "@/components/ui/dialog";
import { Field, Input, Select, Textarea } from "@/components/ui/field";
import { createAlertChannelAction, updateAlertChannelAction } from "@/lib/actions/alert-channels";
import { CHANNEL_KINDS, MAX_EMAIL_RECIPIENTS, channelInputSchema, type ChannelKind } from "@/lib/alerts/channel-schemas";
import { channelsKey, type ChannelRow } from "./use-channels-query";

const schema = z.intersection(z.object({ channelId: z.uuid().optional(), version: z.date().optional() }), channelInputSchema);
const kindLabels: Record<ChannelKind, string> = { email: "Email", slack: "Slack", webhook: "Webhook" };

export function ChannelFormDialog({
  channel,
  smtpConfigured,
  onClose,
  onSecret,
}: {
  channel?: ChannelRow;
  smtpConfigured: boolean;
  onClose: () => void;
  onSecret: (name: string, secret: string) => void;
}) {
  const queryClient = useQueryClient();
  const [kind, setKind] = useState<ChannelKind>(channel?.kind ?? "email");
  const [name, setName] = useState(channel?.name ?? "");
  const [to, setTo] = useState(channel?.to.join(", ") ?? "");
  // A Slack URL is never sent back to the browser (its path is the credential): editing needs it again.
  const [url, setUrl] = useState(channel?.kind === "webhook" ? (channel.url ?? "") : "");

  const form = useActionForm(
    schema,
    async (input) => {
      if (input.channelId) return updateAlertChannelAction({ ...input, channelId: input.channelId });
      const { channelId: _omit, version: _none, ...create } = input;
      return createAlertChannelAction(create);
    },
    {
      onSuccess: async (data) => {
        toast.success(channel ? "Channel saved" : "Channel created");
        await queryClient.invalidateQueries({ queryKey: channelsKey });
        onClose();
        if (data.secret) onSecret(data.channel.name, data.secret);
      },
      reloadOnConflict: channelsKey,
    },
  );

  return (
    <Dialog open onClose={onClose} title={channel ? `Edit ${channel.name}` : "New channel"}>
      <form
        noValidate
        className="space-y-4"
        onSubmit={(event) => {
          event.preventDefault();
          // As opened: a save after another admin's change is refused instead of undoing it.
          const base = { channelId: channel?.id, version: channel?.updatedAt, name };
          form.submit(kind === "email" ? { ...base, kind, to } : { ...base, kind, url });
        }}
      >
        <Field id="channel-kind" label="Kind" error={form.error("kind")}>
          <Select id="channel-kind" value={kind} disabled={!!channel} onChange={(e) => setKind(e.target.value as ChannelKind)}>
            {CHANNEL_KINDS.map((k) => (
              <option key={k} value={k}>
                {kindLabels[k]}
              </option>
            ))}
          </Select>
        </Field>
        <Field id="channel-name" label="Name" error={form.error("name")}>
          <Input id="channel-name" value={name} onChange={(e) => setName(e.target.value)} placeholder="Marketing team" invalid={!!form.error("name")} />
        </Field>
        {kind === "email" ? (
          <Field
            id="channel-to"
            label="Email addresses"
            hint={smtpConfigured ? `Up to ${MAX_EMAIL_RECIPIENTS}, separated by commas.` : "SMTP is not configured on this server (SMTP_URL): you can save this channel, but emails fail until the operator sets it."}
            error={form.error("to")}
          >
            <Textarea id="channel-to" rows={3} value={to} onChange={(e) => setTo(e.target.value)} placeholder="ann@example.com, ben@example.com" invalid={!!form.error("to")} />
          </Field>
        ) : (
          <Field
            id="channel-url"
            label={kind === "slack" ? "Slack incoming webhook URL" : "Webhook URL"}
            hint={
              kind === "slack"
                ? `From Slack: Apps → Incoming Webhooks → Add to Slack. Starts with https://hooks.slack.com/.${channel ? " Enter it again: it is not shown after saving." : ""}`
                : "An https URL on a public address. Requests are signed per Standard Webhooks; the secret is shown once after saving."
            }
            error={form.error("url")}
          >
            <Input id="channel-url" type="url" value={url} onChange={(e) => setUrl(e.target.value)} placeholder={kind === "slack" ? "https://hooks.slack.com/services/…" : "https://example.com/hooks/beacon"} invalid={!!form.error("url")} />
          </Field>
        )}
        <FormActions onCancel={onClose} pending={form.pending} submitLabel={channel ? "Save" : "Create channel"} />
      </form>
    </Dialog>
  );
}
