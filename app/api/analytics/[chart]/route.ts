import { randomUUID } from "node:crypto";
import { CHARTS, isChartName, type Chart } from "@/lib/analytics/charts";
import { resolveFilter } from "@/lib/analytics/filter";
import { analyticsFilterInput, FILTER_PARAMS, filterFromSearchParams, RANGE_PRESETS } from "@/lib/analytics/schemas";
import { apiError, ApiProblem, json, parseOrThrow } from "@/lib/api/handler";
import { assertCan, canView } from "@/lib/auth/permissions";
import { getWorkspaceContext } from "@/lib/auth/session";
import { UserError } from "@/lib/errors";

export const dynamic = "force-dynamic";

const LISTS = new Set(["providers", "tags"]);

/** Refuses what filterFromSearchParams would quietly ignore: unknown or repeated names, an odd range. */
function checkNames(params: URLSearchParams, allowed: string[]): void {
  const problem = (field: string, message: string) => new ApiProblem(400, "validation_error", `${field}: ${message}`, field);
  for (const name of new Set(params.keys())) {
    if (!allowed.includes(name)) throw problem(name, `unknown parameter; this chart takes ${allowed.join(", ")}`);
    if (!LISTS.has(name) && params.getAll(name).length > 1) throw problem(name, "give it once");
  }
  const range = params.get("range");
  if (range === null) return;
  if (!(RANGE_PRESETS as readonly number[]).includes(Number(range))) throw problem("range", `use ${RANGE_PRESETS.join(", ")} (days), or from and to`);
  if (params.has("from") || params.has("to")) throw problem("range", "give either range or from and to");
}

/**
 * GET /api/analytics/<chart>?brand=&providers=&tags=&from=&to= (or range=7|30|90), and for
 * cited-pages also page=&pageSize=: one dashboard chart of the signed-in member's workspace, as
 * JSON (dates as ISO strings). One request per chart, so the browser loads them in parallel
 * (server actions run one at a time per client).
 */
export async function GET(request: Request, route: { params: Promise<{ chart: string }> }): Promise<Response> {
  const ctx = await getWorkspaceContext();
  if (!ctx) return apiError(401, "unauthorized", "Sign in to see analytics.");
  const { chart: name } = await route.params;
  if (!isChartName(name)) return apiError(404, "not_found", `There is no chart "${name}"; the charts are ${Object.keys(CHARTS).join(", ")}.`);
  // Each entry's query takes its own params; the table as a whole is queried through the common shape.
  const chart: Chart = CHARTS[name];
  try {
    assertCan(canView(ctx));
    const params = new URL(request.url).searchParams;
    checkNames(params, [...FILTER_PARAMS, ...Object.keys(chart.params.shape)]);
    const input = parseOrThrow(analyticsFilterInput, filterFromSearchParams(params));
    const own = parseOrThrow(chart.params, Object.fromEntries([...params].filter(([key]) => key in chart.params.shape)));
    const resolved = await resolveFilter(ctx.workspace.id, input);
    if (!resolved) return apiError(404, "not_found", "This workspace tracks no brand yet: add one under Brands.");
    return json(await chart.query(resolved, own), { headers: { "cache-control": "no-store" } });
  } catch (error) {
    if (error instanceof ApiProblem || error instanceof UserError) return apiError(error.status, error.code, error.message, error.field);
    const requestId = randomUUID().slice(0, 8);
    console.error(`[api] ${name} chart request ${requestId} failed:`, error);
    return apiError(500, "internal", `Something went wrong on our side (request ${requestId}). Please try again.`);
  }
}
