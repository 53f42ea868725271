"use client";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { toast } from "@/lib/browser/toast";
import { Button } from "@/components/ui/button";
import { useConfirm } from "@/components/ui/confirm-dialog";
import { Badge, Card, PageHeader } from "@/components/ui/card";
import { DataTable } from "@/components/ui/data-table";
import { Select } from "@/components/ui/field";
import { actionsColumn, type Column } from "@/components/ui/table-columns";
import { changeMemberRoleAction, removeMemberAction, revokeInvitationAction } from "@/lib/actions/members";
import { unwrap } from "@/lib/browser/action-result";
import { InviteForm } from "./invite-form";
import { membersKey, useMembersQuery } from "./use-members-query";
import { formatDate } from "@/lib/format";
import { ROLES, type Role } from "@/lib/permissions/roles";

type Member = NonNullable<ReturnType<typeof useMembersQuery>["data"]>["members"][number];

export function MembersPage({ canManage, canManageOwners }: { canManage: boolean; canManageOwners: boolean }) {
  const queryClient = useQueryClient();
  const [ask, confirmDialog] = useConfirm();
  const query = useMembersQuery();
  const onDone = (message: string) => async () => {
    toast.success(message);
    await queryClient.invalidateQueries({ queryKey: membersKey });
  };
  const onError = (error: Error) => toast.error(error.message);
  const changeRole = useMutation({
    mutationFn: async (input: { membershipId: string; role: Role }) => unwrap(await changeMemberRoleAction(input)),
    onSuccess: onDone("Role changed"),
    onError,
  });
  const remove = useMutation({
    mutationFn: async (membershipId: string) => unwrap(await removeMemberAction({ membershipId })),
    onSuccess: onDone("Member removed"),
    onError,
  });
  const revoke = useMutation({
    mutationFn: async (invitationId: string) => unwrap(await revokeInvitationAction({ invitationId })),
    onSuccess: onDone("Invitation revoked"),
    onError,
  });
  const editable = (m: Member) => canManage && (canManageOwners || m.role !== "owner");
  const columns: Column<Member>[] = [
    {
      id: "name",
      header: "Name",
      className: "font-medium text-slate-900",
      cell: (m) => (
        <>
          {m.user.name} {m.user.id === query.data?.me.userId && <Badge>you</Badge>}
        </>
      ),
    },
    { id: "email", header: "Email", className: "text-slate-600", cell: (m) => m.user.email },
    {
      id: "role",
      header: "Role",
      cell: (m) =>
        editable(m) ? (
          <Select
            aria-label={`Role of ${m.user.name}`}
            value={m.role}
            onChange={(e) => changeRole.mutate({ membershipId: m.id, role: e.target.value as Role })}
            className="max-w-[9rem] py-1"
          >
            {ROLES.filter((r) => canManageOwners || r !== "owner").map((r) => (
              <option key={r} value={r}>{r}</option>
            ))}
          </Select>
        ) : (
          <Badge tone={m.role === "owner" ? "blue" : "slate"}>{m.role}</Badge>
        ),
    },
    actionsColumn((m) =>
      editable(m) ? (
        <Button variant="ghost" size="sm" onClick={() => ask({ title: "Remove member?", body: `Remove ${m.user.name} from this workspace? Their API keys stop working at once.`, confirmLabel: "Remove", destructive: true }, () => remove.mutate(m.id))}>
          Remove
        </Button>
      ) : null,
    ),
  ];

  return (
    <>
      {confirmDialog}
      <PageHeader title="Members" description="Who can see and change this workspace." />
      <div className="space-y-6">
        {canManage && <InviteForm canInviteOwners={canManageOwners} />}
        <Card className="overflow-hidden">
          {query.isPending ? (
            <p className="p-6 text-sm text-slate-500">Loading members…</p>
          ) : query.isError ? (
            <p className="p-6 text-sm text-red-600">Could not load members: {query.error.message}</p>
          ) : (
            <DataTable rows={query.data.members} columns={columns} rowKey={(m) => m.id} />
          )}
        </Card>
        {!!query.data?.invitations.length && (
          <Card className="p-5">
            <h2 className="mb-3 text-sm font-semibold text-slate-900">Pending invitations</h2>
            <ul className="divide-y divide-slate-100 text-sm">
              {query.data.invitations.map((inv) => (
                <li key={inv.id} className="flex items-center justify-between py-2">
                  <span>
                    {inv.email} <Badge>{inv.role}</Badge>{" "}
                    <span className="text-xs text-slate-500">expires {formatDate(inv.expiresAt)}</span>
                  </span>
                  {canManage && (
                    <Button variant="ghost" size="sm" onClick={() => revoke.mutate(inv.id)}>
                      Revoke
                    </Button>
                  )}
                </li>
              ))}
            </ul>
          </Card>
        )}
      </div>
    </>
  );
}
