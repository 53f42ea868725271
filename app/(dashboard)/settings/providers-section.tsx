"use client";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { toast } from "@/lib/browser/toast";
import { PriceSummary } from "@/components/providers/price-summary";
import { Button } from "@/components/ui/button";
import { Badge, Card, EmptyState } from "@/components/ui/card";
import { DataTable } from "@/components/ui/data-table";
import { SectionHeading } from "@/components/ui/section-heading";
import { actionsColumn, type Column } from "@/components/ui/table-columns";
import { updateProviderAction } from "@/lib/actions/settings";
import { formatMicros } from "@/lib/format";
import { unwrap } from "@/lib/browser/action-result";
import { searchModeLabels } from "@/lib/providers/labels";
import { ProviderFormDialog } from "./provider-form-dialog";
import { useGrantedConnectionsQuery, type GrantedConnection } from "./use-granted-connections-query";
import { providersKey, useProvidersQuery, type ProviderRow } from "./use-settings-queries";

function StatusBadges({ provider }: { provider: ProviderRow }) {
  return (
    <div className="flex flex-wrap gap-1">
      {provider.enabled ? <Badge tone="green">enabled</Badge> : <Badge>disabled</Badge>}
      {!provider.granted && <Badge tone="red">not granted</Badge>}
      {provider.granted && !provider.configured && <Badge tone="amber">not configured</Badge>}
      {/* Which of the operator's changes it was (revoked, disabled, model taken off the allowlist): beacon_access_refusal's words. */}
      {provider.accessRefusal && <p className="basis-full text-xs text-red-700">{provider.accessRefusal}</p>}
    </div>
  );
}

/** Shown when operators have granted this workspace nothing but the simulators. */
function OnlySimulators() {
  return (
    <p className="rounded-md bg-brand-50 p-3 text-sm text-brand-700 ring-1 ring-brand-100">
      This workspace can use the simulated assistants only. Ask an operator to grant a real provider (OpenAI, Perplexity, Gemini or Anthropic) to this workspace.
    </p>
  );
}

export function ProvidersSection() {
  const queryClient = useQueryClient();
  const query = useProvidersQuery();
  const connections = useGrantedConnectionsQuery();
  const [editing, setEditing] = useState<ProviderRow | "new" | null>(null);
  const toggle = useMutation({
    mutationFn: async (p: ProviderRow) =>
      unwrap(
        await updateProviderAction({
          providerConfigId: p.id,
          // The row as this list read it: refused if another admin changed it since (the list then reloads).
          version: p.updatedAt,
          config: { name: p.name, connectionId: p.connection.id, model: p.model, searchMode: p.searchMode, enabled: !p.enabled },
        }),
      ),
    onSuccess: async (_, p) => {
      toast.success(p.enabled ? `${p.name} disabled` : `${p.name} enabled`);
      await queryClient.invalidateQueries({ queryKey: providersKey });
    },
    onError: async (error) => {
      toast.error(error.message);
      // Changed by another admin since the list was read: show it as it is now.
      await queryClient.invalidateQueries({ queryKey: providersKey });
    },
  });
  const limits = new Map<string, GrantedConnection>((connections.data ?? []).map((c) => [c.id, c]));
  const onlySimulators = connections.data && !connections.data.some((c) => c.adapter !== "simulator");
  const canAdd = !!connections.data?.length;
  const columns: Column<ProviderRow>[] = [
    { id: "name", header: "Name", className: "font-medium text-slate-900", cell: (p) => p.name },
    {
      id: "connection",
      header: "Connection",
      className: "text-slate-700",
      cell: (p) => {
        const limit = limits.get(p.connection.id)?.monthlySpendLimitMicros ?? null;
        return (
          <>
            <div className="flex flex-wrap items-center gap-1">
              {p.connection.name} {p.adapter === "simulator" && <Badge tone="blue">simulated</Badge>}
            </div>
            {limit !== null && <span className="block text-xs text-slate-500">up to {formatMicros(limit)} a month</span>}
          </>
        );
      },
    },
    { id: "model", header: "Model", className: "whitespace-nowrap font-mono text-xs text-slate-700", cell: (p) => p.model },
    { id: "search", header: "Search", className: "text-slate-600", cell: (p) => searchModeLabels[p.searchMode] },
    { id: "prices", header: "Prices", className: "text-slate-700", cell: (p) => <PriceSummary prices={p.prices} /> },
    { id: "status", header: "Status", cell: (p) => <StatusBadges provider={p} /> },
    actionsColumn((p) => (
      <>
        <Button variant="ghost" size="sm" onClick={() => setEditing(p)} aria-label={`Edit ${p.name}`} disabled={!connections.data}>
          Edit
        </Button>
        <Button
          variant="ghost"
          size="sm"
          onClick={() => toggle.mutate(p)}
          aria-label={`${p.enabled ? "Disable" : "Enable"} ${p.name}`}
          disabled={toggle.isPending || (!p.enabled && !p.granted)}
        >
          {p.enabled ? "Disable" : "Enable"}
        </Button>
      </>
    )),
  ];

  return (
    <section aria-labelledby="providers-heading" className="space-y-3">
      <SectionHeading
        id="providers-heading"
        title="Providers"
        description="The AI assistants this workspace's checks ask: each one a model on a connection that the instance's operators granted to it. Prices, limits and API keys belong to the connection."
        action={
          <Button onClick={() => setEditing("new")} disabled={!canAdd}>
            Add provider
          </Button>
        }
      />
      {onlySimulators && <OnlySimulators />}
      {query.isPending ? (
        <Card className="p-6 text-sm text-slate-500">Loading providers…</Card>
      ) : query.isError ? (
        <Card className="p-6 text-sm text-red-600">
          Could not load providers: {query.error.message}{" "}
          <Button variant="ghost" size="sm" onClick={() => query.refetch()}>
            Retry
          </Button>
        </Card>
      ) : !query.data.length ? (
        <EmptyState
          title="No providers yet"
          description="Add a provider to run checks. The simulated assistants need no API key."
          action={
            <Button onClick={() => setEditing("new")} disabled={!canAdd}>
              Add your first provider
            </Button>
          }
        />
      ) : (
        <Card className="overflow-hidden">
          <DataTable rows={query.data} columns={columns} rowKey={(p) => p.id} density="dense" />
        </Card>
      )}
      {query.data?.some((p) => !p.granted) && (
        <p className="text-xs text-red-700">
          <strong>Not granted</strong>: an operator took this connection back from the workspace (or disabled it), so the provider cannot be picked for a check.
        </p>
      )}
      {query.data?.some((p) => p.granted && !p.configured) && (
        <p className="text-xs text-amber-800">
          <strong>Not configured</strong>: this server has no API key for that connection, so the provider cannot be picked for a check until an operator sets one.
        </p>
      )}
      {connections.isError && <p className="text-xs text-red-600">Could not load the connections granted to this workspace: {connections.error.message}</p>}
      {editing && connections.data && (
        <ProviderFormDialog
          provider={editing === "new" ? undefined : editing}
          connections={connections.data}
          takenNames={(query.data ?? []).map((p) => p.name)}
          onClose={() => setEditing(null)}
        />
      )}
    </section>
  );
}
