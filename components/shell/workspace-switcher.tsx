"use client";
import { useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useId, useState, useTransition } from "react";
import { toast } from "sonner";
import { Dialog, FormActions } from "@/components/ui/dialog";
import { Field, Input } from "@/components/ui/field";
import { useActionForm } from "@/components/forms/use-action-form";
import { createWorkspaceAction, switchWorkspaceAction } from "@/lib/actions/workspaces";
import { unwrap } from "@/lib/browser/action-result";
import { workspaceNameSchema } from "@/lib/workspaces/schemas";
import { z } from "zod";

type Workspace = { id: string; name: string; role: string };

const NEW = "__new__";

export function WorkspaceSwitcher({ current, workspaces }: { current: string; workspaces: Workspace[] }) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const [pending, startTransition] = useTransition();
  const [creating, setCreating] = useState(false);
  // The switcher is in the sidebar and, on phones, in the drawer: ids of its own in each.
  const id = useId();

  const afterSwitch = () => {
    queryClient.clear(); // cached data belongs to the previous workspace
    router.push("/");
    router.refresh();
  };

  const create = useActionForm(z.object({ name: workspaceNameSchema }), createWorkspaceAction, {
    onSuccess: () => {
      setCreating(false);
      toast.success("Workspace created");
      afterSwitch();
    },
  });

  return (
    <>
      <label htmlFor={id} className="sr-only">
        Workspace
      </label>
      <select
        id={id}
        value={current}
        disabled={pending}
        onChange={(event) => {
          const value = event.target.value;
          if (value === NEW) return setCreating(true);
          startTransition(async () => {
            try {
              unwrap(await switchWorkspaceAction({ workspaceId: value }));
              afterSwitch();
            } catch (error) {
              toast.error((error as Error).message);
            }
          });
        }}
        className="min-h-11 w-full rounded-md border-0 bg-surface py-2 pl-3 md:min-h-0 pr-8 text-sm font-semibold text-slate-900 ring-1 ring-slate-300"
      >
        {workspaces.map((w) => (
          <option key={w.id} value={w.id}>
            {w.name}
          </option>
        ))}
        <option value={NEW}>+ New workspace…</option>
      </select>
      {/* Also a visible button: an option at the end of a select is where few people look. */}
      <button type="button" onClick={() => setCreating(true)} className="mt-1 flex min-h-11 items-center px-1 text-xs font-medium text-brand-700 hover:underline md:min-h-0">
        + New workspace
      </button>
      <Dialog open={creating} onClose={() => setCreating(false)} title="New workspace">
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
          <FormActions onCancel={() => setCreating(false)} pending={create.pending} submitLabel={"Create"} />
        </form>
      </Dialog>
    </>
  );
}
