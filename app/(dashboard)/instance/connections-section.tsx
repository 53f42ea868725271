"use client";
import { useState } from "react";
import { PriceSummary } from "@/components/providers/price-summary";
import { Button } from "@/components/ui/button";
import { Badge, Card } from "@/components/ui/card";
import { SectionHeading } from "@/components/ui/section-heading";
import { adapterLabel } from "@/lib/providers/labels";
import { ConnectionFormDialog } from "./connection-form-dialog";
import { TestConnectionDialog } from "./test-connection-dialog";
import type { ConnectionRow } from "./use-instance-query";

const grantedTo = (c: ConnectionRow) => (c.grantedToAll ? "every workspace" : c.grants.length === 1 ? "1 workspace" : `${c.grants.length} workspaces`);

export function ConnectionsSection({ connections }: { connections: ConnectionRow[] }) {
  const [editing, setEditing] = useState<ConnectionRow | "new" | null>(null);
  const [testing, setTesting] = useState<ConnectionRow | null>(null);

  return (
    <section aria-labelledby="connections-heading" className="space-y-3">
      <SectionHeading
        id="connections-heading"
        title="Connections"
        description="Each one is an adapter with this server's API key, a model allowlist, prices and limits. Caps, breakers and spend count across every workspace that uses it; workspaces only pick a model and a search mode."
        action={<Button onClick={() => setEditing("new")}>Add connection</Button>}
      />
      <Card className="overflow-x-auto">
        <table className="min-w-full divide-y divide-slate-200 text-sm">
          <thead className="bg-slate-50 text-left text-xs font-medium uppercase tracking-wide text-slate-500">
            <tr>
              <th scope="col" className="px-3 py-3">Name</th>
              <th scope="col" className="px-3 py-3">Adapter</th>
              <th scope="col" className="px-3 py-3">On this server</th>
              <th scope="col" className="px-3 py-3">Models</th>
              <th scope="col" className="px-3 py-3 text-right" title="Max concurrency, all workspaces together">Parallel calls</th>
              <th scope="col" className="px-3 py-3">Prices</th>
              <th scope="col" className="px-3 py-3">Granted to</th>
              <th scope="col" className="px-3 py-3"><span className="sr-only">Actions</span></th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {connections.map((c) => (
              <tr key={c.id} className="hover:bg-slate-50">
                <td className="px-3 py-3 font-medium text-slate-900">
                  <div className="flex flex-wrap items-center gap-1">
                    {c.name} {!c.enabled && <Badge>disabled</Badge>}
                  </div>
                </td>
                <td className="px-3 py-3 text-slate-700">{adapterLabel(c.adapter)}</td>
                <td className="px-3 py-3">
                  {c.configured ? (
                    <Badge tone="green">configured</Badge>
                  ) : (
                    <>
                      <Badge tone="amber">not configured</Badge>
                      {c.notConfiguredReason && <span className="mt-1 block max-w-56 text-xs text-amber-800">{c.notConfiguredReason}</span>}
                    </>
                  )}
                </td>
                <td className="px-3 py-3 font-mono text-xs text-slate-700">
                  {c.models.map((m) => (
                    <span key={m} className="block whitespace-nowrap">
                      {m}
                    </span>
                  ))}
                </td>
                <td className="px-3 py-3 text-right tabular-nums text-slate-700">{c.maxConcurrency}</td>
                <td className="px-3 py-3 text-slate-700">
                  <PriceSummary prices={c} />
                </td>
                <td className="whitespace-nowrap px-3 py-3 text-slate-700">{grantedTo(c)}</td>
                <td className="whitespace-nowrap px-3 py-3 text-right">
                  <Button variant="ghost" size="sm" onClick={() => setEditing(c)} aria-label={`Edit ${c.name}`}>
                    Edit
                  </Button>
                  <Button
                    variant="ghost"
                    size="sm"
                    disabled={!c.configured}
                    title={c.configured ? undefined : (c.notConfiguredReason ?? "This server has no API key for this adapter")}
                    onClick={() => setTesting(c)}
                    aria-label={`Test ${c.name}`}
                  >
                    Test
                  </Button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </Card>
      {connections.some((c) => !c.configured) && (
        <p className="text-xs text-amber-800">
          <strong>Not configured</strong>: this server&apos;s environment has no API key for that adapter (e.g. <code>OPENAI_API_KEY</code>, or the <code>OPENAI_COMPATIBLE_…</code> variable an
          OpenAI-compatible connection names), so checks cannot use the connection until one is set and the server restarted.
        </p>
      )}
      {testing && <TestConnectionDialog connection={testing} onClose={() => setTesting(null)} />}
      {editing && <ConnectionFormDialog connection={editing === "new" ? undefined : editing} onClose={() => setEditing(null)} />}
    </section>
  );
}
