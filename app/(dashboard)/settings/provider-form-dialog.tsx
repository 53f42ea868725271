"use client";
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { toast } from "@/lib/browser/toast";
import { z } from "zod";
import { PriceSummary } from "@/components/providers/price-summary";
import { Dialog, FormActions } from "@/components/ui/dialog";
import { Field, Input, Select } from "@/components/ui/field";
import { useActionForm } from "@/components/forms/use-action-form";
import { createProviderAction, updateProviderAction } from "@/lib/actions/settings";
import { formatMicros } from "@/lib/format";
import { searchModeLabels } from "@/lib/providers/labels";
import { providerConfigInputSchema, type ProviderConfigInput } from "@/lib/providers/schemas";
import type { GrantedConnection } from "./use-granted-connections-query";
import { providersKey, type ProviderRow } from "./use-settings-queries";

const schema = z.object({ providerConfigId: z.uuid().optional(), version: z.date().optional(), config: providerConfigInputSchema });

type SearchMode = ProviderConfigInput["searchMode"];
/** `defaults`: what a new provider on a granted connection starts with (lib/connections grantedConnections). */
type Choice = { id: string; name: string; models: string[]; note?: string; defaults?: { name: string; searchMode: SearchMode } };

/**
 * The connections the select offers: the granted ones, plus (when editing) the provider's own
 * connection if it is no longer granted, so the form still shows what the provider uses.
 */
function connectionChoices(granted: GrantedConnection[], provider?: ProviderRow): Choice[] {
  const choices: Choice[] = granted.map((c) => ({
    id: c.id,
    name: c.name,
    models: c.models,
    note: c.configured ? undefined : "not configured on this server",
    defaults: { name: c.defaultProviderName, searchMode: c.defaultSearchMode },
  }));
  if (provider && !choices.some((c) => c.id === provider.connection.id)) {
    choices.push({ id: provider.connection.id, name: provider.connection.name, models: provider.connection.models, note: "no longer granted" });
  }
  return choices;
}

/**
 * `takenNames`: the workspace's provider names. A new provider is called what the workspace's
 * default providers are called on that connection ("ChatGPT"), or else the connection's name.
 */
export function ProviderFormDialog({ provider, connections, takenNames, onClose }: { provider?: ProviderRow; connections: GrantedConnection[]; takenNames: string[]; onClose: () => void }) {
  const queryClient = useQueryClient();
  const formRef = useRef<HTMLFormElement>(null);
  const choices = connectionChoices(connections, provider);
  const first = choices[0];
  const defaultName = (c: Choice) => c.defaults?.name ?? c.name;
  const nameFor = (c: Choice) => (takenNames.includes(defaultName(c)) ? c.name : defaultName(c));
  const [connectionId, setConnectionId] = useState(provider?.connection.id ?? first?.id ?? "");
  const [model, setModel] = useState(provider?.model ?? first?.models[0] ?? "");
  const [name, setName] = useState(provider?.name ?? (first ? nameFor(first) : ""));
  // A new provider is named after its connection until the admin types a name of their own.
  const [nameTouched, setNameTouched] = useState(!!provider);
  const [searchMode, setSearchMode] = useState<SearchMode>(provider?.searchMode ?? (first?.defaults?.searchMode ?? "auto"));
  const [enabled, setEnabled] = useState(provider?.enabled ?? true);
  const form = useActionForm(
    schema,
    async ({ providerConfigId, version, config }) => (providerConfigId ? updateProviderAction({ providerConfigId, version, config }) : createProviderAction(config)),
    {
      onSuccess: async () => {
        toast.success(provider ? "Provider saved" : "Provider added");
        await queryClient.invalidateQueries({ queryKey: providersKey });
        onClose();
      },
      reloadOnConflict: providersKey,
    },
  );
  const error = (path: string) => form.error(`config.${path}`) ?? form.error(path);

  // Take keyboard users to the first problem after a rejected save.
  useEffect(() => {
    formRef.current?.querySelector<HTMLElement>("[aria-invalid=true]")?.focus();
  }, [form.errors]);

  const choice = choices.find((c) => c.id === connectionId);
  const granted = connections.find((c) => c.id === connectionId);
  const models = choice ? (choice.models.includes(model) || !model ? choice.models : [model, ...choice.models]) : [];

  const pickConnection = (id: string) => {
    const next = choices.find((c) => c.id === id);
    setConnectionId(id);
    if (!next) return;
    setModel(next.models[0] ?? "");
    if (!nameTouched) setName(nameFor(next));
    if (!provider) setSearchMode(next.defaults?.searchMode ?? "auto");
  };

  return (
    <Dialog open onClose={onClose} title={provider ? `Edit ${provider.name}` : "Add a provider"}>
      <form
        ref={formRef}
        noValidate
        className="space-y-4"
        onSubmit={(event) => {
          event.preventDefault();
          // As opened: a save after another admin's change is refused instead of undoing it.
          form.submit({ providerConfigId: provider?.id, version: provider?.updatedAt, config: { name, connectionId, model, searchMode, enabled } });
        }}
      >
        <Field id="provider-connection" label="Connection" hint="Set up by the instance's operators: credentials, prices and limits come with it." error={error("connectionId")}>
          <Select id="provider-connection" value={connectionId} onChange={(e) => pickConnection(e.target.value)} invalid={!!error("connectionId")}>
            {choices.map((c) => (
              <option key={c.id} value={c.id}>
                {c.note ? `${c.name} (${c.note})` : c.name}
              </option>
            ))}
          </Select>
        </Field>
        {granted && (
          <div className="rounded-md bg-slate-50 p-3 text-xs text-slate-600 ring-1 ring-slate-200">
            <p className="font-medium text-slate-700">Prices on {granted.name}</p>
            <p className="mt-1 text-slate-700">
              <PriceSummary prices={granted.prices} />
            </p>
            {granted.monthlySpendLimitMicros !== null && <p className="mt-1">This workspace may spend up to {formatMicros(granted.monthlySpendLimitMicros)} a month on it.</p>}
          </div>
        )}
        <Field id="provider-model" label="Model" hint="The models the connection allows" error={error("model")}>
          <Select id="provider-model" value={model} onChange={(e) => setModel(e.target.value)} invalid={!!error("model")}>
            {models.map((m) => (
              <option key={m} value={m}>
                {choice?.models.includes(m) ? m : `${m} (no longer offered)`}
              </option>
            ))}
          </Select>
        </Field>
        <Field
          id="provider-searchMode"
          label="Web search"
          hint={granted?.adapter === "openai_compatible" ? "No web search on this connection: the setting is ignored, and sources appear only when its server reports them." : undefined}
          error={error("searchMode")}
        >
          <Select id="provider-searchMode" value={searchMode} onChange={(e) => setSearchMode(e.target.value as SearchMode)}>
            {Object.entries(searchModeLabels).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </Select>
        </Field>
        <Field id="provider-name" label="Name" hint="What checks, charts and the REST API call it" error={error("name")}>
          <Input
            id="provider-name"
            value={name}
            onChange={(e) => {
              setName(e.target.value);
              setNameTouched(true);
            }}
            maxLength={60}
            autoComplete="off"
            invalid={!!error("name")}
          />
        </Field>
        <div className="flex items-center gap-2">
          <input id="provider-enabled" type="checkbox" checked={enabled} onChange={(e) => setEnabled(e.target.checked)} className="size-4 accent-brand-600" />
          <label htmlFor="provider-enabled" className="text-sm text-slate-700">
            Enabled: offer this provider when starting a check
          </label>
        </div>
        <FormActions onCancel={onClose} pending={form.pending} submitLabel={provider ? "Save" : "Add provider"} className="border-t border-slate-200 pt-4" />
      </form>
    </Dialog>
  );
}
