import { apiRoute, json } from "@/lib/api/handler";
import { listProviderConfigs } from "@/lib/providers/configs";

export const dynamic = "force-dynamic";

/** Providers a check can name: name, adapter, model, search mode, and whether this server can call them. */
export const GET = apiRoute(async ({ caller }) => {
  const providers = await listProviderConfigs(caller.workspaceId);
  return json({
    providers: providers.map((p) => ({ name: p.name, adapter: p.adapter, model: p.model, searchMode: p.searchMode, enabled: p.enabled, configured: p.configured })),
  });
});
