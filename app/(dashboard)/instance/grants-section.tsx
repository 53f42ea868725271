"use client";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { SectionHeading } from "@/components/ui/section-heading";
import { revokeConnectionAction } from "@/lib/actions/instance";
import { formatMicros } from "@/lib/format";
import { unwrap } from "@/lib/browser/action-result";
import { GrantDialog } from "./grant-dialog";
import { instanceKey, type ConnectionRow, type WorkspaceChoice } from "./use-instance-query";
import { useConfirm } from "@/components/ui/confirm-dialog";

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

  return (
    <Card className="overflow-x-auto" role="region" aria-labelledby={headingId}>
      {confirmDialog}
      <div className="flex items-center justify-between gap-3 border-b border-slate-200 px-4 py-3">
        <h3 id={headingId} className="text-sm font-semibold text-slate-900">
          {connection.name}
        </h3>
        <Button variant="secondary" size="sm" onClick={onGrant} aria-label={`Grant ${connection.name} to a workspace`}>
          Grant to a workspace
        </Button>
      </div>
      {!connection.grants.length ? (
        <p className="px-4 py-3 text-sm text-slate-500">No workspace may use it yet.</p>
      ) : (
        <table className="min-w-full text-sm">
          <thead className="bg-slate-50 text-left text-xs font-medium uppercase tracking-wide text-slate-500">
            <tr>
              <th scope="col" className="px-4 py-2">Workspace</th>
              <th scope="col" className="px-4 py-2">Monthly spend limit</th>
              <th scope="col" className="px-4 py-2"><span className="sr-only">Actions</span></th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {connection.grants.map((g) => (
              <tr key={g.workspaceId}>
                <td className="px-4 py-2 font-medium text-slate-900">
                  {g.workspace} <span className="text-xs font-normal text-slate-500">{g.slug}</span>
                </td>
                <td className="px-4 py-2 tabular-nums text-slate-700">{g.monthlySpendLimitMicros === null ? "no limit" : formatMicros(g.monthlySpendLimitMicros)}</td>
                <td className="whitespace-nowrap px-4 py-2 text-right">
                  <Button variant="ghost" size="sm" onClick={() => onChange(g)} aria-label={`Change the limit of ${g.workspace} on ${connection.name}`}>
                    Change limit
                  </Button>
                  <Button
                    variant="ghost"
                    size="sm"
                    disabled={revoke.isPending}
                    aria-label={`Revoke ${connection.name} from ${g.workspace}`}
                    onClick={() =>
                      ask({ title: "Revoke access?", body: `Revoke ${connection.name} from ${g.workspace}? Its providers on this connection are disabled and new checks cannot use them; captures already queued still run.`, confirmLabel: "Revoke", destructive: true }, () => revoke.mutate(g))
                    }
                  >
                    Revoke
                  </Button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
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
        description="Which workspaces may use each connection, and how much each may spend on it a month. Revoking a grant disables that workspace's providers on the connection: new checks cannot use them, captures already queued still run."
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
