"use client";
import { useId } from "react";
import { z } from "zod";
import { Dialog, FormActions } from "@/components/ui/dialog";
import { Field, Input } from "@/components/ui/field";
import { useActionForm } from "@/components/forms/use-action-form";
import { createWorkspaceAction } from "@/lib/actions/workspaces";
import { workspaceNameSchema } from "@/lib/workspaces/schemas";

/**
 * The sidebar's "New workspace" form. The switcher loads it only when opened: its zod schema
 * would otherwise put zod into every page's JavaScript (docs/architecture.md, "The browser's JavaScript").
 */
export function NewWorkspaceDialog({ onClose, onCreated }: { onClose: () => void; onCreated: () => void }) {
  const id = useId();
  const create = useActionForm(z.object({ name: workspaceNameSchema }), createWorkspaceAction, { onSuccess: onCreated });
  return (
    <Dialog open onClose={onClose} title="New workspace">
      <form
        noValidate
        className="space-y-4"
        onSubmit={(event) => {
          event.preventDefault();
          create.submit({ name: String(new FormData(event.currentTarget).get("name")) });
        }}
      >
        <Field id={`${id}-name`} label="Name" error={create.error("name")}>
          <Input id={`${id}-name`} name="name" autoFocus invalid={!!create.error("name")} />
        </Field>
        <FormActions onCancel={onClose} pending={create.pending} submitLabel={"Create"} />
      </form>
    </Dialog>
  );
}
