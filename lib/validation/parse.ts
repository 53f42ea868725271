import type { z } from "zod";
import { ApiProblem } from "@/lib/errors";

/** Validates `value`; a refusal is an ApiProblem (400) whose field and message name the first offending field. */
export function parseOrThrow<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  // An unknown key is reported on the object; name the key itself.
  const path = issue.code === "unrecognized_keys" ? [...issue.path, issue.keys[0]] : issue.path;
  const field = path.map(String).join(".") || undefined;
  throw new ApiProblem(400, "validation_error", field ? `${field}: ${issue.message}` : issue.message, field);
}
