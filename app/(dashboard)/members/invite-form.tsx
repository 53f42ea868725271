"use client";
import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { toast } from "@/lib/browser/toast";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Field, Input, Select } from "@/components/ui/field";
import { useActionForm } from "@/components/forms/use-action-form";
import { inviteMemberAction } from "@/lib/actions/members";
import { inviteSchema } from "@/lib/workspaces/schemas";
import { membersKey } from "./use-members-query";

export function InviteForm({ canInviteOwners }: { canInviteOwners: boolean }) {
  const queryClient = useQueryClient();
  const [link, setLink] = useState<{ email: string; url: string } | null>(null);
  const form = useActionForm(inviteSchema, inviteMemberAction, {
    onSuccess: async (invitation) => {
      setLink({ email: invitation.email, url: invitation.link });
      await queryClient.invalidateQueries({ queryKey: membersKey });
    },
  });

  return (
    <Card className="p-5">
      <h2 className="mb-3 text-sm font-semibold text-slate-900">Invite someone</h2>
      <form
        noValidate
        className="flex flex-wrap items-start gap-3"
        onSubmit={(event) => {
          event.preventDefault();
          const data = new FormData(event.currentTarget);
          form.submit({ email: String(data.get("email")), role: String(data.get("role")) as "member" });
        }}
      >
        <div className="min-w-64 flex-1">
          <Field id="invite-email" label="Email" error={form.error("email")}>
            <Input id="invite-email" name="email" type="email" placeholder="colleague@company.com" invalid={!!form.error("email")} />
          </Field>
        </div>
        <Field id="invite-role" label="Role" error={form.error("role")}>
          <Select id="invite-role" name="role" defaultValue="member">
            <option value="viewer">Viewer: sees results</option>
            <option value="member">Member: edits prompts, runs checks</option>
            <option value="admin">Admin: manages members and settings</option>
            {canInviteOwners && <option value="owner">Owner</option>}
          </Select>
        </Field>
        <Button type="submit" className="mt-6" pending={form.pending}>
          Create invite link
        </Button>
      </form>
      {link && (
        <div className="mt-4 rounded-md bg-emerald-50 p-3 text-sm ring-1 ring-emerald-200" role="status">
          <p className="text-emerald-800">
            Send this link to <strong>{link.email}</strong>. It works once, for 7 days, and is shown only now.
          </p>
          <div className="mt-2 flex gap-2">
            <Input readOnly value={link.url} aria-label="Invitation link" onFocus={(e) => e.currentTarget.select()} />
            <Button
              type="button"
              variant="secondary"
              onClick={async () => {
                await navigator.clipboard.writeText(link.url).then(
                  () => toast.success("Link copied"),
                  () => toast.error("Could not copy; select the link and copy it by hand"),
                );
              }}
            >
              Copy
            </Button>
          </div>
        </div>
      )}
    </Card>
  );
}
