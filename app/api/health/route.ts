import { checkHealth } from "@/lib/health";

export const dynamic = "force-dynamic";

// GET /api/health: 200 with status "ok" (database reachable, at least one worker holds a
// lease) or "degraded" (no live worker: checks queue up but nothing runs them); 503 with status
// "down" when the database does not answer. No authentication: it reveals no workspace data.
export async function GET() {
  const report = await checkHealth();
  return Response.json(report, { status: report.status === "down" ? 503 : 200, headers: { "Cache-Control": "no-store" } });
}
