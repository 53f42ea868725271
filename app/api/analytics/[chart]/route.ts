import { answerChart } from "@/lib/api/dashboard-chart";
import { apiError, json } from "@/lib/api/handler";
import { getWorkspaceContext } from "@/lib/auth/session";

export const dynamic = "force-dynamic";

/**
 * GET /api/analytics/<chart>?brand=&providers=&tags=&from=&to= (or range=7|30|90), and for
 * cited-pages also page=&pageSize=: one dashboard chart of the signed-in member's workspace, as
 * JSON (dates as ISO strings). One request per chart, so the browser loads them in parallel
 * (server actions run one at a time per client); a page's first charts come in one request
 * (../batch/route.ts).
 */
export async function GET(request: Request, route: { params: Promise<{ chart: string }> }): Promise<Response> {
  const ctx = await getWorkspaceContext();
  if (!ctx) return apiError(401, "unauthorized", "Sign in to see analytics.");
  const answer = await answerChart(ctx, (await route.params).chart, new URL(request.url).searchParams);
  return json(answer.body, { status: answer.status, headers: { "cache-control": "no-store" } });
}
