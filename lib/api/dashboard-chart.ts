import "server-only";
import { randomUUID } from "node:crypto";
import { CHART_NAMES, isChartName } from "@/lib/analytics/charts";
import { readChart, type FilterResolver } from "@/lib/analytics/read-chart";
import { filterProblem } from "@/lib/api/filter-params";
import { problem, type Problem } from "@/lib/api/handler";
import { assertCan, canView, type WorkspaceContext } from "@/lib/permissions/permissions";

export type ChartAnswer = { status: 200; body: unknown } | Problem;

/**
 * One dashboard chart for a signed-in member, as its GET answers it (app/api/analytics/[chart])
 * and as each part of the dashboards' batch does (app/api/analytics/batch): the data, or the
 * refusal's status and message (an unknown chart 404, a bad filter 400 naming its parameter, a
 * brand of another workspace 404, an unexpected failure 500 with a request id in the log).
 */
export async function answerChart(ctx: WorkspaceContext, name: string, params: URLSearchParams, filters?: FilterResolver): Promise<ChartAnswer> {
  if (!isChartName(name)) return problem(404, "not_found", `There is no chart "${name}"; the charts are ${CHART_NAMES.join(", ")}.`);
  try {
    assertCan(canView(ctx));
    return { status: 200, body: await readChart(ctx.workspace.id, name, params, filters) };
  } catch (error) {
    const refused = filterProblem(error);
    if (refused) return refused;
    const requestId = randomUUID().slice(0, 8);
    console.error(`[api] ${name} chart request ${requestId} failed:`, error);
    return problem(500, "internal", `Something went wrong on our side (request ${requestId}). Please try again.`);
  }
}
