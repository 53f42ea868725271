import { apiRoute, json } from "@/lib/api/handler";
import { assertCan, canView } from "@/lib/permissions/permissions";
import { providersForCallers } from "@/lib/workspaces/provider-configs";

export const dynamic = "force-dynamic";

/** Providers a check can name, with the ids analytics' `?providers=` takes, and whether a check may use each now. */
export const GET = apiRoute(async ({ caller }) => {
  assertCan(canView(caller));
  return json({ providers: await providersForCallers(caller.workspaceId) });
});
