"use client";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Badge, Card, EmptyState } from "@/components/ui/card";
import { formatMicros } from "@/lib/billing/money";
import { adapterLabels, ProviderFormDialog, searchModeLabels } from "./provider-form-dialog";
import { SectionHeading } from "./section-heading";
import { TestConnectionDialog } from "./test-connection-dialog";
import { useProvidersQuery, type ProviderRow } from "./use-settings-queries";

function priceSummary(p: ProviderRow) {
  return (
    <>
      <span className="whitespace-nowrap">
        {formatMicros(p.inputPricePerMTokMicros)} in · {formatMicros(p.outputPricePerMTokMicros)} out
      </span>
      <span className="block whitespace-nowrap text-xs text-slate-500">per 1M tokens</span>
      {/* Stored per search call; pricing pages quote it per 1,000 searches. */}
      {p.searchPriceMicros > 0 && <span className="block whitespace-nowrap text-xs text-slate-500">{formatMicros(p.searchPriceMicros * 1000)} / 1k searches</span>}
    </>
  );
}

export function ProvidersSection() {
  const query = useProvidersQuery();
  const [editing, setEditing] = useState<ProviderRow | "new" | null>(null);
  const [testing, setTesting] = useState<ProviderRow | null>(null);
  const unconfigured = query.data?.some((p) => !p.configured);

  return (
    <section aria-labelledby="providers-heading" className="space-y-3">
      <SectionHeading
        id="providers-heading"
        title="Providers"
        description="The AI assistants checks ask, with their prices and the limits that keep runs safe."
        action={<Button onClick={() => setEditing("new")}>Add provider</Button>}
      />
      {query.isPending ? (
        <Card className="p-6 text-sm text-slate-500">
          Loading providers…
        </Card>
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
          description="Add a provider to run checks. The simulator needs no API key."
          action={<Button onClick={() => setEditing("new")}>Add your first provider</Button>}
        />
      ) : (
        <Card className="overflow-x-auto">
          <table className="min-w-full divide-y divide-slate-200 text-sm">
            <thead className="bg-slate-50 text-left text-xs font-medium uppercase tracking-wide text-slate-500">
              <tr>
                <th scope="col" className="px-3 py-3">Name</th>
                <th scope="col" className="px-3 py-3">Adapter</th>
                <th scope="col" className="px-3 py-3">Model</th>
                <th scope="col" className="px-3 py-3">Search</th>
                <th scope="col" className="px-3 py-3 text-right" title="Max concurrency">Parallel calls</th>
                <th scope="col" className="px-3 py-3">Prices</th>
                <th scope="col" className="px-3 py-3">Status</th>
                <th scope="col" className="px-3 py-3"><span className="sr-only">Actions</span></th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {query.data.map((p) => (
                <tr key={p.id} className="hover:bg-slate-50">
                  <td className="px-3 py-3 font-medium text-slate-900">{p.name}</td>
                  <td className="px-3 py-3 text-slate-700">
                    <div className="flex flex-wrap items-center gap-1">
                      {adapterLabels[p.adapter]} {p.adapter === "simulator" && <Badge tone="blue">simulated</Badge>}
                    </div>
                  </td>
                  <td className="whitespace-nowrap px-3 py-3 font-mono text-xs text-slate-700">{p.model}</td>
                  <td className="px-3 py-3 text-slate-600">{searchModeLabels[p.searchMode]}</td>
                  <td className="px-3 py-3 text-right tabular-nums text-slate-700">{p.maxConcurrency}</td>
                  <td className="px-3 py-3 text-slate-700">{priceSummary(p)}</td>
                  <td className="px-3 py-3">
                    <div className="flex flex-wrap gap-1">
                      {p.enabled ? <Badge tone="green">enabled</Badge> : <Badge>disabled</Badge>}
                      {!p.configured && <Badge tone="amber">not configured</Badge>}
                    </div>
                  </td>
                  <td className="px-3 py-3 text-right">
                    <Button variant="ghost" size="sm" onClick={() => setEditing(p)} aria-label={`Edit ${p.name}`}>
                      Edit
                    </Button>
                    <Button variant="ghost" size="sm" disabled={!p.configured} onClick={() => setTesting(p)} aria-label={`Test connection to ${p.name}`}>
                      Test
                    </Button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </Card>
      )}
      {unconfigured && (
        <p className="text-xs text-amber-800">
          <strong>Not configured</strong>: this server has no API key for that adapter, so the provider cannot be picked for a check until an operator sets one.
        </p>
      )}
      {testing && <TestConnectionDialog provider={testing} onClose={() => setTesting(null)} />}
      {editing && <ProviderFormDialog provider={editing === "new" ? undefined : editing} onClose={() => setEditing(null)} />}
    </section>
  );
}
