import { canReadMetrics } from "@/lib/metrics/access";
import { collectMetrics } from "@/lib/metrics/collect";

export const dynamic = "force-dynamic";

/**
 * Prometheus metrics for the whole installation (all workspaces, all workers). Scrapers send
 * `Authorization: Bearer <BEACON_METRICS_TOKEN>`; in production without that token the endpoint
 * is off (403), in development it stays open.
 */
export async function GET(request: Request) {
  const access = canReadMetrics(request.headers.get("authorization"));
  if (!access.allowed) {
    return Response.json({ error: { code: access.code, message: access.message } }, { status: access.status, headers: { "cache-control": "no-store" } });
  }
  const { contentType, body } = await collectMetrics();
  return new Response(body, { headers: { "content-type": contentType, "cache-control": "no-store" } });
}
