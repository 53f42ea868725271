import { apiRoute, json, readQuery } from "@/lib/api/handler";
import { assertCan, canView } from "@/lib/permissions/permissions";
import { visitsQuery } from "@/lib/analytics/visits-query";
import { visitsByAssistantPerDay, visitsByPage } from "@/lib/traffic/visits";

export const dynamic = "force-dynamic";

/** Visits AI assistants sent to the workspace's own pages (`?by=page|day&from=&to=`, `page`/`pageSize` for by=page), from the /t.js script. */
export const GET = apiRoute(async ({ caller, request }) => {
  assertCan(canView(caller));
  const { by, from, to, page, pageSize } = readQuery(request, visitsQuery);
  const range = { from, to };
  const body =
    by === "page"
      ? { from, to, ...(await visitsByPage(caller.workspaceId, range, { page, pageSize })), page, pageSize }
      : { from, to, days: await visitsByAssistantPerDay(caller.workspaceId, range) };
  return json(body, { headers: { "cache-control": "no-store" } });
});
