import { FILTER_PARAMS, RANGE_PRESETS } from "@/lib/analytics/schemas";
import { ApiProblem } from "@/lib/errors";

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
