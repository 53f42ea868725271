"use client";
import { useRouter } from "next/navigation";
import { z } from "zod";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Field, Input } from "@/components/ui/field";
import { useActionForm } from "@/components/forms/use-action-form";
import { createWorkspaceAction } from "@/lib/actions/workspaces";
import { workspaceNameSchema } from "@/lib/workspaces/schemas";

/** Shown to a signed-in user who belongs to no workspace (e.g. removed from their last one). */
export function NoWorkspace() {
  const router = useRouter();
  const form = useActionForm(z.object({ name: workspaceNameSchema }), createWorkspaceAction, { onSuccess: () => router.replace("/") });
  return (
    <main className="flex min-h-full items-center justify-center px-4">
      <Card className="w-full max-w-sm p-6">
        <h1 className="text-lg font-semibold">Create a workspace</h1>
        <p className="mb-4 mt-1 text-sm text-slate-600">You are not a member of any workspace yet. Create one, or open an invitation link.</p>
        <form
          noValidate
          className="space-y-4"
          onSubmit={(event) => {
            event.preventDefault();
            form.submit({ name: String(new FormData(event.currentTarget).get("name")) });
          }}
        >
          <Field id="workspace-name" label="Workspace name" error={form.error("name")}>
            <Input id="workspace-name" name="name" invalid={!!form.error("name")} />
          </Field>
          <Button type="submit" pending={form.pending}>
            Create workspace
          </Button>
        </form>
      </Card>
    </main>
  );
}
