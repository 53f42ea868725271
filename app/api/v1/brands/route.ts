import { apiRoute, json } from "@/lib/api/handler";
import { assertCan, canView } from "@/lib/permissions/permissions";
import { listBrands } from "@/lib/brands/brands";

export const dynamic = "force-dynamic";

/** The workspace's brands with their aliases, domains and competitors. */
export const GET = apiRoute(async ({ caller }) => {
  assertCan(canView(caller));
  const brands = await listBrands(caller.workspaceId);
  return json({
    brands: brands.map((b) => ({
      id: b.id,
      name: b.name,
      aliases: b.aliases,
      domains: b.domains,
      competitors: b.competitors.map((c) => ({ id: c.id, name: c.name, aliases: c.aliases, domains: c.domains })),
    })),
  });
});
