"use client";
import { useMutation, useQueryClient, type QueryKey } from "@tanstack/react-query";
import { useState } from "react";
import { toast } from "@/lib/browser/toast";
import { z } from "zod";
import { ActionFailure, unwrap, zodFieldErrors, type FieldErrors } from "@/lib/browser/action-result";

// The app's Content Security Policy allows no eval (lib/http/security-headers.ts). In the browser
// zod would probe for `new Function` on its first object parse, and the refused probe is
// reported as a violation; jitless skips the probe (and the compiled fast path it enables).
// Set here, where the browser's object parses happen, not in the shell: that would put zod into
// every page's JavaScript.
if (typeof window !== "undefined") z.config({ jitless: true });

type Action<I, O> = (input: I) => Promise<Parameters<typeof unwrap<O>>[0]>;

/**
 * Validates input with the same zod schema the server uses (instant inline errors), calls the
 * server action, and maps its errors back onto fields. Errors without a field become a toast.
 */
export function useActionForm<S extends z.ZodType, O>(
  schema: S,
  action: Action<z.input<S>, O>,
  /**
   * `reloadOnConflict`: the query the form's row came from, reloaded when the save is refused as
   * stale (409, lib/validation/edit-version.ts), so the form opened again holds the row as it is now.
   */
  options: { onSuccess?: (data: O) => void | Promise<void>; reloadOnConflict?: QueryKey } = {},
) {
  const queryClient = useQueryClient();
  const [errors, setErrors] = useState<FieldErrors>({});
  const mutation = useMutation({
    mutationFn: async (input: z.input<S>) => unwrap(await action(input)),
    onSuccess: async (data) => {
      setErrors({});
      await options.onSuccess?.(data);
    },
    onError: (error) => {
      if (error instanceof ActionFailure && Object.keys(error.fieldErrors).length) setErrors(error.fieldErrors);
      else toast.error(error.message);
      if (options.reloadOnConflict && error instanceof ActionFailure && error.code === "conflict") void queryClient.invalidateQueries({ queryKey: options.reloadOnConflict });
    },
  });

  function submit(input: z.input<S>) {
    const parsed = schema.safeParse(input);
    if (!parsed.success) {
      setErrors(zodFieldErrors(parsed.error.issues));
      return;
    }
    mutation.mutate(input);
  }

  const error = (field: string) => errors[field]?.[0];
  return { submit, error, errors, pending: mutation.isPending, reset: () => setErrors({}) };
}
