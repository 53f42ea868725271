import { CHART_NAMES, isChartName } from "@/lib/analytics/charts";
import { readChart } from "@/lib/analytics/read-chart";
import { filterRefusal } from "@/lib/api/filter-params";
import { apiRoute, json } from "@/lib/api/handler";
import { ApiProblem } from "@/lib/errors";
import { assertCan, canView } from "@/lib/permissions/permissions";

export const dynamic = "force-dynamic";

/**
 * One dashboard chart of the key's workspace, the same JSON as the dashboards read
 * (`?brand=&providers=&tags=&markets=&range=` or `from=&to=`): every rate with its n and 95 % interval.
 */
export const GET = apiRoute<{ chart: string }>(async ({ caller, request }, { chart }) => {
  assertCan(canView(caller));
  if (!isChartName(chart)) throw new ApiProblem(404, "not_found", `There is no chart "${chart}"; the charts are ${CHART_NAMES.join(", ")}.`, "chart");
  try {
    return json(await readChart(caller.workspaceId, chart, new URL(request.url).searchParams), { headers: { "cache-control": "no-store" } });
  } catch (error) {
    const refusal = filterRefusal(error);
    if (refusal) return refusal;
    throw error;
  }
});
