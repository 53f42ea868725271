import { apiRoute, json } from "@/lib/api/handler";
import { assertCan, canView } from "@/lib/permissions/permissions";
import { listProviderConfigs } from "@/lib/workspaces/provider-configs";

export const dynamic = "force-dynamic";

/**
 * Providers a check can name: name, connection, adapter, model, search mode, and whether a check
 * may use it (enabled; the workspace may call its connection with its model, beacon_access_refusal;
 * and configured on this server).
 */
export const GET = apiRoute(async ({ caller }) => {
  assertCan(canView(caller));
  const providers = await listProviderConfigs(caller.workspaceId);
  return json({
    providers: providers.map((p) => ({
      name: p.name,
      connection: p.connection.name,
      adapter: p.adapter,
      model: p.model,
      searchMode: p.searchMode,
      enabled: p.enabled,
      granted: p.granted,
      configured: p.configured,
    })),
  });
});
