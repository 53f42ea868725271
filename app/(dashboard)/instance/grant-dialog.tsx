"use client";
import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { toast } from "@/lib/browser/toast";
import { Dialog, FormActions } from "@/components/ui/dialog";
import { Field, Input, Select } from "@/components/ui/field";
import { useActionForm } from "@/components/forms/use-action-form";
import { grantConnectionAction } from "@/lib/actions/instance";
import { formatDecimal, parseDecimal } from "@/lib/validation/decimal";
import { grantInputSchema } from "@/lib/providers/schemas";
import { instanceKey, type ConnectionRow, type WorkspaceChoice } from "./use-instance-query";

type Grant = ConnectionRow["grants"][number];

// The form takes dollars and cents; grants store micro-dollars.
const MICROS_PER_CENT = 10_000;

/** Grants a connection to a workspace, or (with `grant`) changes that grant's monthly limit. */
export function GrantDialog({ connection, workspaces, grant, onClose }: { connection: ConnectionRow; workspaces: WorkspaceChoice[]; grant?: Grant; onClose: () => void }) {
  const queryClient = useQueryClient();
  const choices = grant ? workspaces.filter((w) => w.id === grant.workspaceId) : workspaces.filter((w) => !connection.grants.some((g) => g.workspaceId === w.id));
  const [limitError, setLimitError] = useState<string>();
  const form = useActionForm(grantInputSchema, grantConnectionAction, {
    onSuccess: async () => {
      toast.success(grant ? "Limit changed" : `${connection.name} granted`);
      await queryClient.invalidateQueries({ queryKey: instanceKey });
      onClose();
    },
    reloadOnConflict: instanceKey,
  });
  const error = (field: string) => (field === "monthlySpendLimitMicros" && limitError) || form.error(field);

  return (
    <Dialog open onClose={onClose} title={grant ? `${connection.name} for ${grant.workspace}` : `Grant ${connection.name}`}>
      {!choices.length ? (
        <p className="text-sm text-slate-600">Every workspace already has this connection.</p>
      ) : (
        <form
          noValidate
          className="space-y-4"
          onSubmit={(event) => {
            event.preventDefault();
            const data = new FormData(event.currentTarget);
            const text = String(data.get("limit")).trim().replace(/^\$/, "");
            const parsed = text ? parseDecimal(text, 2) : null;
            setLimitError(parsed?.error);
            form.submit({
              connectionId: connection.id,
              workspaceId: grant?.workspaceId ?? String(data.get("workspaceId")),
              monthlySpendLimitMicros: parsed ? parsed.value * MICROS_PER_CENT : null,
              // The grant as this dialog read it: another operator's grant, revoke or limit since refuses the save.
              expected: grant ? { monthlySpendLimitMicros: grant.monthlySpendLimitMicros } : null,
            });
          }}
        >
          <Field id="grant-workspace" label="Workspace" error={error("workspaceId")}>
            <Select id="grant-workspace" name="workspaceId" defaultValue={choices[0]?.id} disabled={!!grant} invalid={!!error("workspaceId")}>
              {choices.map((w) => (
                <option key={w.id} value={w.id}>
                  {w.name} ({w.slug})
                </option>
              ))}
            </Select>
          </Field>
          <Field
            id="grant-limit"
            label="Monthly spend limit (USD)"
            hint="What this workspace may spend on this connection per calendar month (UTC). Leave empty for no limit beyond the workspace's own budget."
            error={error("monthlySpendLimitMicros")}
          >
            <Input
              id="grant-limit"
              name="limit"
              inputMode="decimal"
              autoComplete="off"
              placeholder="No limit"
              defaultValue={grant?.monthlySpendLimitMicros == null ? "" : formatDecimal(Math.round(grant.monthlySpendLimitMicros / MICROS_PER_CENT), 2)}
              invalid={!!error("monthlySpendLimitMicros")}
            />
          </Field>
          <FormActions onCancel={onClose} pending={form.pending} submitLabel={grant ? "Save" : "Grant"} />
        </form>
      )}
    </Dialog>
  );
}
