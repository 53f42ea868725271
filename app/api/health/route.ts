import { checkHealth, publicHealth } from "@/lib/health";
import { canReadMetrics } from "@/lib/metrics/access";

export const dynamic = "force-dynamic";

// GET /api/health: 200 with status "ok" (database reachable, at least one worker holds a
// lease) or "degraded" (no live worker: checks queue up but nothing runs them); 503 with status
// "down" when the database does not answer. Everyone gets the status only; the details (database
// latency, workers with their hosts and pids) need what /api/metrics needs (the metrics token).
export async function GET(request: Request) {
  const report = await checkHealth();
  const body = canReadMetrics(request.headers.get("authorization")).allowed ? report : publicHealth(report);
  return Response.json(body, { status: report.status === "down" ? 503 : 200, headers: { "Cache-Control": "no-store" } });
}
