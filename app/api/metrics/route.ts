import { env } from "@/lib/config/env";
import { collectMetrics } from "@/lib/metrics/collect";

export const dynamic = "force-dynamic";

/**
 * Prometheus metrics for the whole installation (all workspaces, all workers). When
 * BEACON_METRICS_TOKEN is set, scrapers must send it as a bearer token.
 */
export async function GET(request: Request) {
  const token = env().BEACON_METRICS_TOKEN;
  if (token && request.headers.get("authorization") !== `Bearer ${token}`) {
    return Response.json({ error: { code: "unauthorized", message: "Send the metrics token as `Authorization: Bearer <BEACON_METRICS_TOKEN>`." } }, { status: 401 });
  }
  const { contentType, body } = await collectMetrics();
  return new Response(body, { headers: { "content-type": contentType, "cache-control": "no-store" } });
}
