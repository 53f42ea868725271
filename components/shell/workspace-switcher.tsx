"use client";
import { useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useId, useState, useTransition } from "react";
import { toast } from "@/lib/browser/toast";
import dynamic from "next/dynamic";
import { switchWorkspaceAction } from "@/lib/actions/workspaces";
import { unwrap } from "@/lib/browser/action-result";

type Workspace = { id: string; name: string; role: string };

const NEW = "__new__";
// Loaded on first open: the form's zod schema stays out of every page's JavaScript.
const NewWorkspaceDialog = dynamic(() => import("./new-workspace-dialog").then((m) => m.NewWorkspaceDialog), { ssr: false });

export function WorkspaceSwitcher({ current, workspaces }: { current: string; workspaces: Workspace[] }) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const [pending, startTransition] = useTransition();
  const [creating, setCreating] = useState(false);
  // The switcher is in the sidebar and, on phones, in the drawer: ids of its own in each.
  const id = useId();

  // The other tabs follow once this one renders the new workspace (components/shell/workspace-sync.tsx).
  const afterSwitch = () => {
    queryClient.clear(); // cached data belongs to the previous workspace
    router.push("/");
    router.refresh();
  };

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
      {creating && (
        <NewWorkspaceDialog
          onClose={() => setCreating(false)}
          onCreated={() => {
            setCreating(false);
            toast.success("Workspace created");
            afterSwitch();
          }}
        />
      )}
    </>
  );
}
