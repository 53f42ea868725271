import "server-only";
import { db } from "@/lib/db/prisma";
import { isConfigured } from "@/lib/providers/registry";

/** The workspace's provider configurations, with whether this server can reach each adapter. */
export async function listProviderConfigs(workspaceId: string) {
  const configs = await db().providerConfig.findMany({ where: { workspaceId }, orderBy: { name: "asc" } });
  return configs.map((c) => ({ ...c, configured: isConfigured(c.adapter) }));
}
