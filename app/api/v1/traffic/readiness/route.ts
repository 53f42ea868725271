import { apiRoute, json } from "@/lib/api/handler";
import { assertCan, canView } from "@/lib/permissions/permissions";
import { readinessByDomain } from "@/lib/traffic/readiness";

export const dynamic = "force-dynamic";

/**
 * Site readiness per own domain (docs/traffic.md): robots.txt's verdicts per AI crawler grouped
 * by purpose, llms.txt, and each crawler's status for the most-cited own pages, as last checked.
 */
export const GET = apiRoute(async ({ caller }) => {
  assertCan(canView(caller));
  return json(await readinessByDomain(caller.workspaceId));
});
