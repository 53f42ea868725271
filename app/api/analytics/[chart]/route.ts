import { answerChart } from "@/lib/api/dashboard-chart";
import { apiError, json } from "@/lib/api/handler";
import { getWorkspaceContext } from "@/lib/auth/session";
import { FRESH_READ_HEADER } from "@/lib/analytics/filter-query";
import { withPrimaryReads } from "@/lib/db/prisma";

export const dynamic = "force-dynamic";

/**
 * GET /api/analytics/<chart>?brand=&providers=&tags=&from=&to= (or range=7|30|90), and for
 * cited-pages also page=&pageSize=: one dashboard chart of the signed-in member's workspace, as
 * JSON (dates as ISO strings). One request per chart, so the browser loads them in parallel
 * (server actions run one at a time per client); a page's first charts come in one request
 * (../batch/route.ts). With FRESH_READ_HEADER (a page that just learnt of a write its charts
 * must show: lib/browser/fresh-reads.ts) it reads the primary instead of the read replica.
 */
export async function GET(request: Request, route: { params: Promise<{ chart: string }> }): Promise<Response> {
  const ctx = await getWorkspaceContext();
  if (!ctx) return apiError(401, "unauthorized", "Sign in to see analytics.");
  const chart = (await route.params).chart;
  const read = () => answerChart(ctx, chart, new URL(request.url).searchParams);
  const answer = request.headers.get(FRESH_READ_HEADER) === "1" ? await withPrimaryReads(read) : await read();
  return json(answer.body, { status: answer.status, headers: { "cache-control": "no-store" } });
}
