import "server-only";
import { categoryContext, shippedCategory, type CategoryContext, type OverridableCategory } from "@/lib/sources/categories";
import { siteOf } from "@/lib/analysis/citations";
import { db, readDb } from "@/lib/db/prisma";

// The brand's and competitors' domains by their site (siteOf), as citations are stored: a
// competitor entered as "shop.rival.co.uk" owns every page of rival.co.uk (the rule isOwnDomain
// applies to the brand's own), so its help subdomain counts as the competitor's too.
const sites = (domains: readonly string[]) => domains.map(siteOf);

/** What categorizing a brand's sources needs: its domains, its competitors' and the workspace's overrides. */
export async function loadCategoryContext(workspaceId: string, brandId: string): Promise<CategoryContext> {
  const [brand, overrides] = await Promise.all([
    readDb().brand.findFirst({ where: { id: brandId, workspaceId }, select: { domains: true, competitors: { select: { domains: true } } } }),
    readDb().sourceCategoryOverride.findMany({ where: { workspaceId }, select: { domain: true, category: true } }),
  ]);
  return categoryContext({
    ownDomains: sites(brand?.domains ?? []),
    competitorDomains: sites(brand?.competitors.flatMap((c) => c.domains) ?? []),
    overrides,
  });
}

export type SourceCategoryOverrideRow = { domain: string; category: OverridableCategory; shipped: OverridableCategory; updatedAt: Date };

/** The workspace's overrides, by domain, each with the shipped category it replaces. */
export async function listSourceCategoryOverrides(workspaceId: string): Promise<SourceCategoryOverrideRow[]> {
  const rows = await readDb().sourceCategoryOverride.findMany({
    where: { workspaceId },
    select: { domain: true, category: true, updatedAt: true },
    orderBy: { domain: "asc" },
  });
  return rows.map((r) => ({ ...r, shipped: shippedCategory(r.domain) }));
}

/**
 * Sets (or with null, removes) the workspace's category for a domain. The caller authorizes
 * (canManageWorkspaceSettings) and validates (lib/sources/schemas.ts).
 */
export async function setSourceCategory(workspaceId: string, userId: string | null, domain: string, category: OverridableCategory | null): Promise<void> {
  if (category === null) {
    await db().sourceCategoryOverride.deleteMany({ where: { workspaceId, domain } });
    return;
  }
  await db().sourceCategoryOverride.upsert({
    where: { workspaceId_domain: { workspaceId, domain } },
    create: { workspaceId, domain, category, updatedById: userId },
    update: { category, updatedById: userId },
  });
}
