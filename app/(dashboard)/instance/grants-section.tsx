"use client";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { toast } from "@/lib/browser/toast";
import { Button } from "@/components/ui/button";
import { useConfirm } from "@/components/ui/confirm-dialog";
import { Card } from "@/components/ui/card";
import { DataTable } from "@/components/ui/data-table";
import { SectionHeading } from "@/components/ui/section-heading";
import { actionsColumn, type Column } from "@/components/ui/table-columns";
import { revokeConnectionAction } from "@/lib/actions/instance";
import { formatMicros } from "@/lib/format";
import { unwrap } from "@/lib/browser/action-result";
import { GrantDialog } from "./grant-dialog";
import { instanceKey, type ConnectionRow, type WorkspaceChoice } from "./use-instance-query";

type Grant = ConnectionRow["grants"][number];

function ConnectionGrants({ connection, onGrant, onChange }: { connection: ConnectionRow; onGrant: () => void; onChange: (grant: Grant) => void }) {
  const queryClient = useQueryClient();
  const [ask, confirmDialog] = useConfirm();
  const revoke = useMutation({
    mutationFn: async (grant: Grant) => unwrap(await revokeConnectionAction({ connectionId: connection.id, workspaceId: grant.workspaceId })),
    onSuccess: async (_, grant) => {
      toast.success(`${connection.name} revoked from ${grant.workspace}`);
      await queryClient.invalidateQueries({ queryKey: instanceKey });
    },
    onError: (error) => toast.error(error.message),
  });
  const headingId = `grants-${connection.id}`;
  const columns: Column<Grant>[] = [
    {
      id: "workspace",
      header: "Workspace",
      className: "font-medium text-slate-900",
      cell: (g) => (
        <>
          {g.workspace} <span className="text-xs font-normal text-slate-500">{g.slug}</span>
        </>
      ),
    },
    {
      id: "limit",
      header: "Monthly spend limit",
      numeric: true,
      className: "text-slate-700",
      cell: (g) => (g.monthlySpendLimitMicros === null ? "no limit" : formatMicros(g.monthlySpendLimitMicros)),
    },
    actionsColumn((g) => (
      <>
        <Button variant="ghost" size="sm" onClick={() => onChange(g)} aria-label={`Change the limit of ${g.workspace} on ${connection.name}`}>
          Change limit
        </Button>
        <Button
          variant="ghost"
          size="sm"
          disabled={revoke.isPending}
          aria-label={`Revoke ${connection.name} from ${g.workspace}`}
          onClick={() =>
            ask({ title: "Revoke access?", body: `Revoke ${connection.name} from ${g.workspace}? Its providers on this connection are disabled and new checks cannot use them; its captures still waiting fail without a call, and calls already running finish.`, confirmLabel: "Revoke", destructive: true }, () => revoke.mutate(g))
          }
        >
          Revoke
        </Button>
      </>
    )),
  ];

  return (
    <Card className="overflow-hidden" role="region" aria-labelledby={headingId}>
      {confirmDialog}
      <div className="flex items-center justify-between gap-3 border-b border-slate-200 px-4 py-3">
        <h3 id={headingId} className="text-sm font-semibold text-slate-900">
          {connection.name}
        </h3>
        <Button variant="secondary" size="sm" onClick={onGrant} aria-label={`Grant ${connection.name} to a workspace`}>
          Grant to a workspace
        </Button>
      </div>
      <DataTable
        rows={connection.grants}
        columns={columns}
        rowKey={(g) => g.workspaceId}
        density="dense"
        empty={<p className="px-4 py-3 text-sm text-slate-500">No workspace may use it yet.</p>}
      />
    </Card>
  );
}

export function GrantsSection({ connections, workspaces }: { connections: ConnectionRow[]; workspaces: WorkspaceChoice[] }) {
  const [dialog, setDialog] = useState<{ connectionId: string; grant?: Grant } | null>(null);
  const everyone = connections.filter((c) => c.grantedToAll);
  const granted = connections.filter((c) => !c.grantedToAll);
  const open = dialog && connections.find((c) => c.id === dialog.connectionId);

  return (
    <section aria-labelledby="grants-heading" className="space-y-3">
      <SectionHeading
        id="grants-heading"
        title="Grants"
        description="Which workspaces may use each connection, and how much each may spend on it a month. Revoking a grant disables that workspace's providers on the connection: new checks cannot use them, its captures still waiting fail without a call, and calls already running finish."
      />
      {everyone.length > 0 && (
        <p className="text-sm text-slate-600">
          Every workspace may use {everyone.map((c) => c.name).join(", ")} without a grant.
        </p>
      )}
      <div className="space-y-4">
        {granted.map((c) => (
          <ConnectionGrants key={c.id} connection={c} onGrant={() => setDialog({ connectionId: c.id })} onChange={(grant) => setDialog({ connectionId: c.id, grant })} />
        ))}
      </div>
      {open && <GrantDialog connection={open} workspaces={workspaces} grant={dialog.grant} onClose={() => setDialog(null)} />}
    </section>
  );
}
