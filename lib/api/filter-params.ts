import { problem, problemResponse, type Problem } from "@/lib/api/handler";
import { ApiProblem, UserError } from "@/lib/errors";

/** The filter's fields whose query parameter has another name (filterFromSearchParams). */
const PARAM_OF_FIELD: Record<string, string> = { brandId: "brand" };

/**
 * The answer to a refused filter, for the routes that read one: the field named as the client
 * gave it, the query parameter (`brand`), not the filter's own field (`brandId`); null for other
 * errors.
 */
export function filterProblem(error: unknown): Problem | null {
  if (!(error instanceof ApiProblem || error instanceof UserError)) return null;
  const param = error.field === undefined ? undefined : (PARAM_OF_FIELD[error.field] ?? error.field);
  const message = param !== error.field && error.message.startsWith(`${error.field}: `) ? `${param}: ${error.message.slice(error.field!.length + 2)}` : error.message;
  return problem(error.status, error.code, message, param);
}

/** filterProblem as a Response. */
export function filterRefusal(error: unknown): Response | null {
  const refused = filterProblem(error);
  return refused && problemResponse(refused);
}
