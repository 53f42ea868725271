import "server-only";
import { categoryContext, shippedCategory, type CategoryContext, type OverridableCategory } from "@/lib/sources/categories";
import { siteOf } from "@/lib/analysis/citations";
import { db, readDb } from "@/lib/db/prisma";
import { transaction } from "@/lib/db/transaction";
import { overrideDomain } from "@/lib/sources/schemas";

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

/**
 * Rewrites overrides stored before 2026-12-05 with an international domain as typed ("bücher.de")
 * to the ASCII form citations carry (overrideDomain), so Reset and a new category reach them;
 * where the workspace also has a row of that form, the one set last wins. Categories are read at
 * query time, so nothing else changes. Run by every worker's maintenance beside
 * canonicalizeStoredDomains; a row another worker rewrote meanwhile is gone under the lock.
 * Returns how many rows it rewrote.
 */
export async function canonicalizeStoredOverrides(): Promise<number> {
  const rows = await db().$queryRaw<{ workspaceId: string; domain: string }[]>`
    SELECT "workspaceId"::text AS "workspaceId", domain FROM source_category_overrides WHERE domain ~ '[^[:ascii:]]'`;
  let rewritten = 0;
  for (const row of rows) {
    const domain = overrideDomain.safeParse(row.domain).data;
    if (!domain) continue;
    const done = await transaction(async (tx) => {
      const both = await tx.$queryRaw<{ domain: string; category: OverridableCategory; updatedById: string | null; updatedAt: Date }[]>`
        SELECT domain, category, "updatedById", "updatedAt" FROM source_category_overrides
        WHERE "workspaceId" = ${row.workspaceId}::uuid AND domain IN (${row.domain}, ${domain})
        ORDER BY "updatedAt" DESC FOR UPDATE`;
      if (!both.some((o) => o.domain === row.domain)) return false;
      const { category, updatedById, updatedAt } = both[0]!;
      await tx.sourceCategoryOverride.deleteMany({ where: { workspaceId: row.workspaceId, domain: { in: [row.domain, domain] } } });
      await tx.sourceCategoryOverride.create({ data: { workspaceId: row.workspaceId, domain, category, updatedById, updatedAt } });
      return true;
    });
    if (done) rewritten += 1;
  }
  return rewritten;
}
