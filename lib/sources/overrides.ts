import "server-only";
import { categoryContext, shippedCategory, type CategoryContext, type OverridableCategory } from "@/lib/sources/categories";
import { siteOf } from "@/lib/analysis/citations";
import { db, readDb } from "@/lib/db/prisma";
import { pausePoint } from "@/lib/db/pause-points";
import { transaction } from "@/lib/db/transaction";
import type { Prisma } from "@/lib/generated/prisma/client";
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

// Every write of a workspace's overrides holds this lock, so an admin's set or reset and the
// legacy rewrite below never interleave (a reset made while the rewrite held the old row was
// undone by it; a category set meanwhile was replaced by the old one).
const lockOverrides = (tx: Prisma.TransactionClient, workspaceId: string) =>
  tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`source-overrides:${workspaceId}`}, 0))`;

/** The workspace's rows stored before 2026-12-05 with an international domain as typed, by the ASCII form they stand for. */
async function legacyRows(tx: Prisma.TransactionClient, workspaceId: string) {
  const rows = await tx.$queryRaw<{ domain: string }[]>`
    SELECT domain FROM source_category_overrides WHERE "workspaceId" = ${workspaceId}::uuid AND domain ~ '[^[:ascii:]]'`;
  return rows.flatMap(({ domain }) => {
    const ascii = overrideDomain.safeParse(domain).data;
    return ascii ? [{ domain, ascii }] : [];
  });
}

/**
 * Sets (or with null, removes) the workspace's category for a domain, in every spelling stored
 * (a row of "bücher.de" the rewrite has not reached yet is xn--bcher-kva.de's too). The caller
 * authorizes (canManageWorkspaceSettings) and validates (lib/sources/schemas.ts).
 */
export async function setSourceCategory(workspaceId: string, userId: string | null, domain: string, category: OverridableCategory | null): Promise<void> {
  await transaction(async (tx) => {
    await lockOverrides(tx, workspaceId);
    const spellings = (await legacyRows(tx, workspaceId)).filter((r) => r.ascii === domain).map((r) => r.domain);
    await tx.sourceCategoryOverride.deleteMany({ where: { workspaceId, domain: { in: category === null ? [domain, ...spellings] : spellings } } });
    if (category === null) return;
    await tx.sourceCategoryOverride.upsert({
      where: { workspaceId_domain: { workspaceId, domain } },
      create: { workspaceId, domain, category, updatedById: userId },
      update: { category, updatedById: userId },
    });
  });
}

/**
 * Rewrites overrides stored before 2026-12-05 with an international domain as typed ("bücher.de")
 * to the ASCII form citations carry (overrideDomain); where the workspace has rows of several
 * spellings of one domain, the one set last wins. Categories are read at query time, so nothing
 * else changes. Run by every worker's maintenance beside canonicalizeStoredDomains, each
 * workspace under its overrides' lock: rows another worker rewrote meanwhile are gone by then.
 * Returns how many rows it rewrote.
 */
export async function canonicalizeStoredOverrides(): Promise<number> {
  const workspaces = await db().$queryRaw<{ workspaceId: string }[]>`
    SELECT DISTINCT "workspaceId"::text AS "workspaceId" FROM source_category_overrides WHERE domain ~ '[^[:ascii:]]'`;
  let rewritten = 0;
  for (const { workspaceId } of workspaces) {
    rewritten += await transaction(async (tx) => {
      await lockOverrides(tx, workspaceId);
      const legacy = await legacyRows(tx, workspaceId);
      for (const ascii of new Set(legacy.map((r) => r.ascii))) {
        const spellings = legacy.filter((r) => r.ascii === ascii).map((r) => r.domain);
        const rows = await tx.sourceCategoryOverride.findMany({
          where: { workspaceId, domain: { in: [ascii, ...spellings] } },
          orderBy: { updatedAt: "desc" },
          select: { category: true, updatedById: true, updatedAt: true },
        });
        await pausePoint("overrides:legacy-read", { tx, workspaceId });
        const { category, updatedById, updatedAt } = rows[0]!;
        await tx.sourceCategoryOverride.deleteMany({ where: { workspaceId, domain: { in: [ascii, ...spellings] } } });
        await tx.sourceCategoryOverride.create({ data: { workspaceId, domain: ascii, category, updatedById, updatedAt } });
      }
      return legacy.length;
    });
  }
  return rewritten;
}
