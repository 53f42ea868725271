"use client";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import dynamic from "next/dynamic";
import { useDeferredValue, useState } from "react";
import { toast } from "@/lib/browser/toast";
import { Button } from "@/components/ui/button";
import { Badge, Card, EmptyState, PageHeader } from "@/components/ui/card";
import { DataTable } from "@/components/ui/data-table";
import { Input, Select } from "@/components/ui/field";
import { Pagination } from "@/components/ui/pagination";
import { actionsColumn, type Column } from "@/components/ui/table-columns";
import { deletePromptsAction } from "@/lib/actions/prompts";
import { unwrap } from "@/lib/browser/action-result";
import { promptsKey, usePromptsQuery, type PromptRow } from "./use-prompts-query";
import { useConfirm } from "@/components/ui/confirm-dialog";

// The forms load when first opened: their zod schemas would otherwise ship with the page.
const PromptFormDialog = dynamic(() => import("./prompt-form-dialog").then((m) => m.PromptFormDialog), { ssr: false });
const BulkPasteDialog = dynamic(() => import("./bulk-paste-dialog").then((m) => m.BulkPasteDialog), { ssr: false });

const PAGE_SIZE = 25;

export function PromptsPage({ canEdit }: { canEdit: boolean }) {
  const queryClient = useQueryClient();
  const [ask, confirmDialog] = useConfirm();
  const [search, setSearch] = useState("");
  const [tag, setTag] = useState("");
  const [page, setPage] = useState(1);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [editing, setEditing] = useState<PromptRow | "new" | null>(null);
  const [pasting, setPasting] = useState(false);
  const [pasteOpened, setPasteOpened] = useState(false);
  const q = useDeferredValue(search.trim());
  const query = usePromptsQuery({ q: q || undefined, tag: tag || undefined, page, pageSize: PAGE_SIZE });
  const data = query.data;

  const remove = useMutation({
    mutationFn: async (promptIds: string[]) => unwrap(await deletePromptsAction({ promptIds })),
    onSuccess: async ({ deleted }) => {
      toast.success(`${deleted} prompt(s) deleted`);
      setSelected(new Set());
      await queryClient.invalidateQueries({ queryKey: promptsKey });
    },
    onError: (error) => toast.error(error.message),
  });

  const confirmDelete = (ids: string[]) =>
    ask({ title: "Delete prompts?", body: `Delete ${ids.length} prompt(s)? Past checks keep their answers.`, confirmLabel: "Delete", destructive: true }, () => remove.mutate(ids));
  const toggle = (id: string) =>
    setSelected((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  const filtering = Boolean(q || tag);
  const columns: Column<PromptRow>[] = [
    ...(canEdit
      ? [
          {
            id: "select",
            header: "Select",
            hideHeader: true,
            headerClassName: "w-10",
            cell: (prompt: PromptRow) => (
              <input
                type="checkbox"
                aria-label={`Select “${prompt.text}”`}
                checked={selected.has(prompt.id)}
                onChange={() => toggle(prompt.id)}
                className="size-4 rounded border-slate-300"
              />
            ),
          },
        ]
      : []),
    { id: "prompt", header: "Prompt", className: "min-w-48 max-w-xl text-slate-900", cell: (prompt) => prompt.text },
    {
      id: "tags",
      header: "Tags",
      cell: (prompt) => (
        <div className="flex flex-wrap gap-1">
          {prompt.tags.map((t) => (
            <Badge key={t} tone="blue">
              {t}
            </Badge>
          ))}
        </div>
      ),
    },
    { id: "locale", header: "Locale", className: "text-slate-500", cell: (prompt) => [prompt.country, prompt.city, prompt.language].filter(Boolean).join(" · ") || "—" },
    ...(canEdit
      ? [
          actionsColumn<PromptRow>((prompt) => (
            <>
              <Button variant="ghost" size="sm" onClick={() => setEditing(prompt)}>
                Edit
              </Button>
              <Button variant="ghost" size="sm" onClick={() => confirmDelete([prompt.id])}>
                Delete
              </Button>
            </>
          )),
        ]
      : []),
  ];

  return (
    <>
      {confirmDialog}
      <PageHeader
        title="Prompts"
        description="The questions Beacon asks each AI provider. Tag them to run a subset in a check."
        actions={
          canEdit && (
            <>
              <Button
                variant="secondary"
                onClick={() => {
                  setPasting(true);
                  setPasteOpened(true);
                }}
              >
                Paste many
              </Button>
              <Button onClick={() => setEditing("new")}>Add prompt</Button>
            </>
          )
        }
      />
      <div className="mb-4 flex flex-wrap items-center gap-3">
        <label htmlFor="prompt-search" className="sr-only">
          Search prompts
        </label>
        <Input
          id="prompt-search"
          type="search"
          placeholder="Search prompts…"
          value={search}
          onChange={(e) => {
            setSearch(e.target.value);
            setPage(1);
          }}
          className="max-w-xs"
        />
        <label htmlFor="prompt-tag" className="sr-only">
          Filter by tag
        </label>
        <Select
          id="prompt-tag"
          value={tag}
          onChange={(e) => {
            setTag(e.target.value);
            setPage(1);
          }}
          className="max-w-[12rem]"
        >
          <option value="">All tags</option>
          {data?.tags.map((t) => (
            <option key={t.tag} value={t.tag}>
              {t.tag} ({t.count})
            </option>
          ))}
        </Select>
        {canEdit && selected.size > 0 && (
          <Button variant="danger" size="sm" pending={remove.isPending} onClick={() => confirmDelete([...selected])}>
            Delete {selected.size} selected
          </Button>
        )}
      </div>

      {query.isPending ? (
        <Card className="p-8 text-center text-sm text-slate-500" aria-busy>
          Loading prompts…
        </Card>
      ) : query.isError ? (
        <Card className="p-8 text-center text-sm text-red-600">
          Could not load prompts: {query.error.message}{" "}
          <Button variant="ghost" size="sm" onClick={() => query.refetch()}>
            Retry
          </Button>
        </Card>
      ) : !data?.items.length ? (
        <EmptyState
          title={filtering ? "No prompts match" : "No prompts yet"}
          description={filtering ? "Try another search or tag." : "Add the questions your buyers ask, e.g. “What is the best CRM for a startup?”"}
          action={canEdit && !filtering && <Button onClick={() => setEditing("new")}>Add your first prompt</Button>}
        />
      ) : (
        <Card className="overflow-hidden">
          <DataTable rows={data.items} columns={columns} rowKey={(prompt) => prompt.id} />
          <Pagination page={data.page} pageSize={data.pageSize} total={data.total} onPage={setPage} />
        </Card>
      )}

      {editing && <PromptFormDialog open prompt={editing === "new" ? undefined : editing} onClose={() => setEditing(null)} />}
      {/* Mounted from its first opening on, so a closed paste keeps its text, as before. */}
      {pasteOpened && <BulkPasteDialog open={pasting} onClose={() => setPasting(false)} />}
    </>
  );
}
