"use client";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { toast } from "sonner";
import { Button } from "@/components/ui/button";
import { Badge, Card, PageHeader } from "@/components/ui/card";
import { Select } from "@/components/ui/field";
import { changeMemberRoleAction, removeMemberAction, revokeInvitationAction } from "@/lib/actions/members";
import { unwrap } from "@/lib/browser/action-result";
import { InviteForm } from "./invite-form";
import { membersKey, useMembersQuery } from "./use-members-query";
import { formatDate } from "@/lib/format";
import { useConfirm } from "@/components/ui/confirm-dialog";

type Role = "owner" | "admin" | "member" | "viewer";
const roles: Role[] = ["owner", "admin", "member", "viewer"];

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
            <table className="min-w-full divide-y divide-slate-200 text-sm">
              <thead className="bg-slate-50 text-left text-xs font-medium uppercase tracking-wide text-slate-500">
                <tr>
                  <th scope="col" className="px-4 py-3">Name</th>
                  <th scope="col" className="px-4 py-3">Email</th>
                  <th scope="col" className="px-4 py-3">Role</th>
                  <th scope="col" className="px-4 py-3"><span className="sr-only">Actions</span></th>
                </tr>
              </thead>
              <tbody className="divide-y divide-slate-100">
                {query.data.members.map((m) => {
                  const editable = canManage && (canManageOwners || m.role !== "owner");
                  return (
                    <tr key={m.id}>
                      <td className="px-4 py-3 font-medium text-slate-900">
                        {m.user.name} {m.user.id === query.data.me.userId && <Badge>you</Badge>}
                      </td>
                      <td className="px-4 py-3 text-slate-600">{m.user.email}</td>
                      <td className="px-4 py-3">
                        {editable ? (
                          <Select
                            aria-label={`Role of ${m.user.name}`}
                            value={m.role}
                            onChange={(e) => changeRole.mutate({ membershipId: m.id, role: e.target.value as Role })}
                            className="max-w-[9rem] py-1"
                          >
                            {roles.filter((r) => canManageOwners || r !== "owner").map((r) => (
                              <option key={r} value={r}>{r}</option>
                            ))}
                          </Select>
                        ) : (
                          <Badge tone={m.role === "owner" ? "blue" : "slate"}>{m.role}</Badge>
                        )}
                      </td>
                      <td className="px-4 py-3 text-right">
                        {editable && (
                          <Button variant="ghost" size="sm" onClick={() => ask({ title: "Remove member?", body: `Remove ${m.user.name} from this workspace? Their API keys stop working at once.`, confirmLabel: "Remove", destructive: true }, () => remove.mutate(m.id))}>
                            Remove
                          </Button>
                        )}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
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
