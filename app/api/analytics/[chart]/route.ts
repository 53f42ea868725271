import { randomUUID } from "node:crypto";
import { CHARTS, isChartName, type Chart } from "@/lib/analytics/charts";
import { resolveFilter } from "@/lib/analytics/filter";
import { analyticsFilterInput, filterFromSearchParams } from "@/lib/analytics/schemas";
import { filterRefusal, refuseOddFilterParams } from "@/lib/api/filter-params";
import { apiError, json, parseOrThrow } from "@/lib/api/handler";
import { assertCan, canView } from "@/lib/auth/permissions";
import { getWorkspaceContext } from "@/lib/auth/session";

export const dynamic = "force-dynamic";

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
    refuseOddFilterParams(params, Object.keys(chart.params.shape));
    const input = parseOrThrow(analyticsFilterInput, filterFromSearchParams(params));
    const own = parseOrThrow(chart.params, Object.fromEntries([...params].filter(([key]) => key in chart.params.shape)));
    const resolved = await resolveFilter(ctx.workspace.id, input);
    if (!resolved) return apiError(404, "not_found", "This workspace tracks no brand yet: add one under Brands.");
    return json(await chart.query(resolved, own), { headers: { "cache-control": "no-store" } });
  } catch (error) {
    const refusal = filterRefusal(error);
    if (refusal) return refusal;
    const requestId = randomUUID().slice(0, 8);
    console.error(`[api] ${name} chart request ${requestId} failed:`, error);
    return apiError(500, "internal", `Something went wrong on our side (request ${requestId}). Please try again.`);
  }
}
