"use client";
import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { toast } from "@/lib/browser/toast";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { Field, Input, Textarea } from "@/components/ui/field";
import { commaList } from "@/components/forms/comma-list";
import { useActionForm } from "@/components/forms/use-action-form";
import { bulkCreatePromptsAction } from "@/lib/actions/prompts";
import { bulkPromptsSchema, MAX_BULK_PROMPTS, splitPromptLines } from "@/lib/prompts/schemas";
import { promptsKey } from "./use-prompts-query";

export function BulkPasteDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const queryClient = useQueryClient();
  const [lines, setLines] = useState("");
  const preview = splitPromptLines(lines);
  const form = useActionForm(bulkPromptsSchema, bulkCreatePromptsAction, {
    onSuccess: async ({ created, skipped }) => {
      toast.success(`${created} prompt(s) added${skipped ? `, ${skipped} already existed` : ""}`);
      await queryClient.invalidateQueries({ queryKey: promptsKey });
      setLines("");
      onClose();
    },
  });
  const linesError = form.error("lines") ?? preview.errors[0];

  return (
    <Dialog open={open} onClose={onClose} title="Paste prompts">
      <form
        noValidate
        className="space-y-4"
        onSubmit={(event) => {
          event.preventDefault();
          form.submit({ lines, tags: commaList(String(new FormData(event.currentTarget).get("tags"))) });
        }}
      >
        <Field
          id="bulk-lines"
          label="One prompt per line"
          hint={`${preview.texts.length} prompt(s) · at most ${MAX_BULK_PROMPTS} at a time · lines already in the workspace are skipped`}
          error={linesError}
        >
          <Textarea id="bulk-lines" rows={10} value={lines} onChange={(e) => setLines(e.target.value)} autoFocus invalid={!!linesError} />
        </Field>
        <Field id="bulk-tags" label="Tags for all of them" hint="Comma separated (optional)" error={form.error("tags")}>
          <Input id="bulk-tags" name="tags" invalid={!!form.error("tags")} />
        </Field>
        <div className="flex justify-end gap-2">
          <Button type="button" variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" pending={form.pending} disabled={!preview.texts.length || preview.errors.length > 0}>
            Add {preview.texts.length || ""} prompt(s)
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
