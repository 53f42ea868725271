// Turns a next-safe-action result into a value or a thrown ActionFailure, so TanStack Query
// (and forms) can treat server actions like any other async function.
export type FieldErrors = Record<string, string[] | undefined>;

export class ActionFailure extends Error {
  constructor(
    message: string,
    readonly fieldErrors: FieldErrors = {},
    readonly code?: string,
  ) {
    super(message);
  }
}

type ActionResult<T> = {
  data?: T;
  serverError?: { message: string; field?: string; code: string };
  validationErrors?: { formErrors?: string[]; fieldErrors?: FieldErrors } | Record<string, unknown>;
};

export function unwrap<T>(result: ActionResult<T> | undefined): T {
  if (!result) throw new ActionFailure("No response from the server. Check your connection and try again.");
  if (result.serverError) {
    const { message, field, code } = result.serverError;
    throw new ActionFailure(message, field ? { [field]: [message] } : {}, code);
  }
  if (result.validationErrors) {
    const v = result.validationErrors as { formErrors?: string[]; fieldErrors?: FieldErrors };
    const first = v.formErrors?.[0] ?? Object.values(v.fieldErrors ?? {}).flat()[0] ?? "Please check the highlighted fields.";
    throw new ActionFailure(String(first), v.fieldErrors ?? {}, "validation");
  }
  return result.data as T;
}

/** Flattens a zod error into the same shape the server returns. */
export function zodFieldErrors(issues: { path: PropertyKey[]; message: string }[]): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of issues) {
    const key = issue.path.map(String).join(".") || "form";
    (errors[key] ??= []).push(issue.message);
  }
  return errors;
}
