"use client";
import { useState } from "react";
import { PriceSummary } from "@/components/providers/price-summary";
import { Button } from "@/components/ui/button";
import { Badge, Card } from "@/components/ui/card";
import { DataTable } from "@/components/ui/data-table";
import { SectionHeading } from "@/components/ui/section-heading";
import { actionsColumn, type Column } from "@/components/ui/table-columns";
import { adapterLabel, type EngineChoice } from "@/lib/providers/labels";
import { ConnectionFormDialog } from "./connection-form-dialog";
import { TestConnectionDialog } from "./test-connection-dialog";
import type { ConnectionRow } from "./use-instance-query";

const grantedTo = (c: ConnectionRow) => (c.grantedToAll ? "every workspace" : c.grants.length === 1 ? "1 workspace" : `${c.grants.length} workspaces`);

export function ConnectionsSection({ connections, engines }: { connections: ConnectionRow[]; engines: EngineChoice[] }) {
  const [editing, setEditing] = useState<ConnectionRow | "new" | null>(null);
  const [testing, setTesting] = useState<ConnectionRow | null>(null);
  const columns: Column<ConnectionRow>[] = [
    {
      id: "name",
      header: "Name",
      className: "font-medium text-slate-900",
      cell: (c) => (
        <div className="flex flex-wrap items-center gap-1">
          {c.name} {!c.enabled && <Badge>disabled</Badge>}
        </div>
      ),
    },
    { id: "adapter", header: "Adapter", className: "text-slate-700", cell: (c) => adapterLabel(engines, c.adapter) },
    {
      id: "configured",
      header: "On this server",
      cell: (c) =>
        c.configured ? (
          <Badge tone="green">configured</Badge>
        ) : (
          <>
            <Badge tone="amber">not configured</Badge>
            {c.notConfiguredReason && <span className="mt-1 block max-w-56 text-xs text-amber-800">{c.notConfiguredReason}</span>}
          </>
        ),
    },
    {
      id: "models",
      header: "Models",
      className: "font-mono text-xs text-slate-700",
      cell: (c) =>
        c.models.map((m) => (
          <span key={m} className="block whitespace-nowrap">
            {m}
          </span>
        )),
    },
    { id: "parallel", header: "Parallel calls", headerTitle: "Max concurrency, all workspaces together", numeric: true, className: "text-slate-700", cell: (c) => c.maxConcurrency },
    { id: "prices", header: "Prices", className: "text-slate-700", cell: (c) => <PriceSummary prices={c} /> },
    { id: "granted", header: "Granted to", className: "whitespace-nowrap text-slate-700", cell: grantedTo },
    actionsColumn((c) => (
      <>
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
      </>
    )),
  ];

  return (
    <section aria-labelledby="connections-heading" className="space-y-3">
      <SectionHeading
        id="connections-heading"
        title="Connections"
        description="Each one is an adapter with this server's API key, a model allowlist, prices and limits. Caps, breakers and spend count across every workspace that uses it; workspaces only pick a model and a search mode."
        action={<Button onClick={() => setEditing("new")}>Add connection</Button>}
      />
      <Card className="overflow-hidden">
        <DataTable rows={connections} columns={columns} rowKey={(c) => c.id} density="dense" />
      </Card>
      {connections.some((c) => !c.configured) && (
        <p className="text-xs text-amber-800">
          <strong>Not configured</strong>: this server&apos;s environment has no API key for that adapter (e.g. <code>OPENAI_API_KEY</code>, or the <code>OPENAI_COMPATIBLE_…</code> variable an
          OpenAI-compatible connection names), so checks cannot use the connection until one is set and the server restarted.
        </p>
      )}
      {testing && <TestConnectionDialog connection={testing} onClose={() => setTesting(null)} />}
      {editing && <ConnectionFormDialog connection={editing === "new" ? undefined : editing} engines={engines} onClose={() => setEditing(null)} />}
    </section>
  );
}
