"use client";
import { useQueryClient } from "@tanstack/react-query";
import { toast } from "@/lib/browser/toast";
import { z } from "zod";
import { FormDialog } from "@/components/ui/dialog";
import { Field, Input, Textarea } from "@/components/ui/field";
import { commaList } from "@/components/forms/comma-list";
import { useActionForm } from "@/components/forms/use-action-form";
import { createPromptAction, updatePromptAction } from "@/lib/actions/prompts";
import { MAX_PROMPT_LENGTH, promptInputSchema } from "@/lib/prompts/schemas";
import { promptsKey, type PromptRow } from "./use-prompts-query";

// One schema for both dialogs' client-side checks; the server parses the same fields.
const editSchema = z.object({ promptId: z.uuid().optional(), version: z.date().optional(), prompt: promptInputSchema });

export function PromptFormDialog({ prompt, open, onClose }: { prompt?: PromptRow; open: boolean; onClose: () => void }) {
  const queryClient = useQueryClient();
  const form = useActionForm(
    editSchema,
    async ({ promptId, version, prompt: input }) => (promptId ? updatePromptAction({ promptId, version, prompt: input }) : createPromptAction(input)),
    {
      onSuccess: async () => {
        toast.success(prompt ? "Prompt saved" : "Prompt added");
        await queryClient.invalidateQueries({ queryKey: promptsKey });
        onClose();
      },
      reloadOnConflict: promptsKey,
    },
  );
  const error = (field: string) => form.error(`prompt.${field}`) ?? form.error(field);

  return (
    <FormDialog
      open={open}
      onClose={onClose}
      title={prompt ? "Edit prompt" : "Add a prompt"}
      pending={form.pending}
      submitLabel={prompt ? "Save" : "Add prompt"}
      onSubmit={(data) =>
        form.submit({
          promptId: prompt?.id,
          // As opened: a save after another member's edit is refused instead of undoing it.
          version: prompt?.updatedAt,
          prompt: {
            text: String(data.get("text")),
            tags: commaList(String(data.get("tags"))),
            country: String(data.get("country")),
            city: String(data.get("city")),
            language: String(data.get("language")),
          },
        })
      }
    >
      <Field id="prompt-text" label="Question" hint="Ask it the way a buyer would ask an AI assistant." error={error("text")}>
        <Textarea id="prompt-text" name="text" rows={3} maxLength={MAX_PROMPT_LENGTH} defaultValue={prompt?.text} autoFocus invalid={!!error("text")} />
      </Field>
      <Field id="prompt-tags" label="Tags" hint="Comma separated, e.g. buying, smb" error={error("tags")}>
        <Input id="prompt-tags" name="tags" defaultValue={prompt?.tags.join(", ")} invalid={!!error("tags")} />
      </Field>
      <div className="grid grid-cols-3 gap-4">
        <Field id="prompt-country" label="Country (optional)" hint="Two letters, e.g. US" error={error("country")}>
          <Input id="prompt-country" name="country" maxLength={2} defaultValue={prompt?.country ?? ""} invalid={!!error("country")} />
        </Field>
        <Field id="prompt-city" label="City (optional)" hint="For engines that search from a place" error={error("city")}>
          <Input id="prompt-city" name="city" maxLength={80} defaultValue={prompt?.city ?? ""} invalid={!!error("city")} />
        </Field>
        <Field id="prompt-language" label="Language (optional)" hint="e.g. en, de, pt-BR" error={error("language")}>
          <Input id="prompt-language" name="language" defaultValue={prompt?.language ?? ""} invalid={!!error("language")} />
        </Field>
      </div>
    </FormDialog>
  );
}
