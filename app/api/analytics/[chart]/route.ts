import { randomUUID } from "node:crypto";
import { CHART_NAMES, isChartName } from "@/lib/analytics/charts";
import { readChart } from "@/lib/analytics/read-chart";
import { filterRefusal } from "@/lib/api/filter-params";
import { apiError, json } from "@/lib/api/handler";
import { assertCan, canView } from "@/lib/permissions/permissions";
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
  if (!isChartName(name)) return apiError(404, "not_found", `There is no chart "${name}"; the charts are ${CHART_NAMES.join(", ")}.`);
  try {
    assertCan(canView(ctx));
    return json(await readChart(ctx.workspace.id, name, new URL(request.url).searchParams), { headers: { "cache-control": "no-store" } });
  } catch (error) {
    const refusal = filterRefusal(error);
    if (refusal) return refusal;
    const requestId = randomUUID().slice(0, 8);
    console.error(`[api] ${name} chart request ${requestId} failed:`, error);
    return apiError(500, "internal", `Something went wrong on our side (request ${requestId}). Please try again.`);
  }
}
