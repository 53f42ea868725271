import { FILTER_PARAMS, RANGE_PRESETS } from "@/lib/analytics/schemas";
import { ApiProblem, apiError } from "@/lib/api/handler";
import { UserError } from "@/lib/errors";

/** Parameters that may be given more than once (their values add up). */
const LISTS = new Set(["providers", "tags"]);

/**
 * For the API routes that take the dashboards' filter in their query string (the charts, the
 * captures export): refuses what filterFromSearchParams would quietly ignore (it is lenient for
 * the dashboards' own address bar): unknown or repeated names, a range that is not a preset, a
 * range together with dates. `extra` names the route's own parameters.
 */
export function refuseOddFilterParams(params: URLSearchParams, extra: string[]): void {
  const allowed = [...FILTER_PARAMS, ...extra];
  const problem = (field: string, message: string) => new ApiProblem(400, "validation_error", `${field}: ${message}`, field);
  for (const name of new Set(params.keys())) {
    if (!allowed.includes(name)) throw problem(name, `unknown parameter; this route takes ${allowed.join(", ")}`);
    if (!LISTS.has(name) && params.getAll(name).length > 1) throw problem(name, "give it once");
  }
  const range = params.get("range");
  if (range === null) return;
  if (!(RANGE_PRESETS as readonly number[]).includes(Number(range))) throw problem("range", `use ${RANGE_PRESETS.join(", ")} (days), or from and to`);
  if (params.has("from") || params.has("to")) throw problem("range", "give either range or from and to");
}

/** The filter's fields whose query parameter has another name (filterFromSearchParams). */
const PARAM_OF_FIELD: Record<string, string> = { brandId: "brand" };

/**
 * The answer to a refused filter, for those routes: the field named as the client gave it, the
 * query parameter (`brand`), not the filter's own field (`brandId`); null for other errors.
 */
export function filterRefusal(error: unknown): Response | null {
  if (!(error instanceof ApiProblem || error instanceof UserError)) return null;
  const param = error.field === undefined ? undefined : (PARAM_OF_FIELD[error.field] ?? error.field);
  const message = param !== error.field && error.message.startsWith(`${error.field}: `) ? `${param}: ${error.message.slice(error.field!.length + 2)}` : error.message;
  return apiError(error.status, error.code, message, param);
}
