import "server-only";
import { refuseStaleEdit } from "@/lib/validation/edit-version";
import { trackedAs } from "@/lib/analysis/brand-candidates";
import { brandInputSchema, domainSchema, type ParsedBrandInput } from "@/lib/brands/schemas";
import { db } from "@/lib/db/prisma";
import { pausePoint } from "@/lib/db/pause-points";
import { transaction } from "@/lib/db/transaction";
import { Prisma } from "@/lib/generated/prisma/client";
import { ConflictError, NotFoundError, UserError } from "@/lib/errors";
import { startReanalysis } from "@/lib/brands/reanalysis";
import { isUniqueViolation } from "@/lib/db/sqlstate";
import { forgetCompetitors } from "@/lib/alerts/rules";

export async function listBrands(workspaceId: string) {
  return db().brand.findMany({
    where: { workspaceId },
    include: { competitors: { orderBy: { createdAt: "asc" } } },
    orderBy: { createdAt: "asc" },
  });
}

export type BrandWithCompetitors = Awaited<ReturnType<typeof listBrands>>[number];

function nameTaken(error: unknown): boolean {
  return isUniqueViolation(error);
}

export async function createBrand(workspaceId: string, input: ParsedBrandInput) {
  return transaction((tx) => createBrandIn(tx, workspaceId, input));
}

/** createBrand inside the caller's transaction (the first-run wizard's accept, lib/setup/accept.ts). */
export async function createBrandIn(tx: Prisma.TransactionClient, workspaceId: string, input: ParsedBrandInput) {
  try {
    return await tx.brand.create({
      data: {
        workspaceId,
        name: input.name,
        aliases: input.aliases,
        caseSensitiveAliases: input.caseSensitiveAliases,
        domains: input.domains,
        competitors: { create: input.competitors.map(({ name, aliases, caseSensitiveAliases, domains }) => ({ workspaceId, name, aliases, caseSensitiveAliases, domains })) },
      },
      include: { competitors: true },
    });
  } catch (error) {
    if (nameTaken(error)) throw new ConflictError(`A brand named "${input.name}" already exists.`, { field: "name" });
    throw error;
  }
}

/** Replaces the brand's fields and its competitor list (kept ones by id, new ones created, missing ones removed). */
/**
 * `version`: the brand's analysis version the form was opened with (every edit raises it; its
 * updatedAt would not do, a re-analysis touches nothing of the row but other writers might). An
 * edit saved meanwhile (another member's, a competitor tracked from discovery, the legacy domain
 * rewrite) refuses this one (refuseStaleEdit): the form's list would remove the competitor added since.
 * Beacon's own edits (trackCompetitor, the domain rewrite) call replaceBrand under the lock, with none.
 */
export async function updateBrand(workspaceId: string, brandId: string, input: ParsedBrandInput, { version }: { version?: number } = {}) {
  try {
    return await transaction((tx) => replaceBrand(tx, workspaceId, brandId, input, version));
  } catch (error) {
    if (nameTaken(error)) throw new ConflictError(`A brand named "${input.name}" already exists.`, { field: "name" });
    throw error;
  }
}

/**
 * updateBrand's work inside the caller's transaction. The brand's row is locked first (before its
 * competitors): a capture recording its answer reads the brand's analysis version FOR SHARE and
 * then its competitors, so it either sees this edit's new version or is seen by its re-analysis
 * (migration 20261205100000_succeed_path), and the two cannot deadlock. NO KEY UPDATE: new
 * captures of the brand (their foreign key) are not held up.
 */
async function replaceBrand(tx: Prisma.TransactionClient, workspaceId: string, brandId: string, input: ParsedBrandInput, version?: number) {
  await tx.$queryRaw`SELECT id FROM brands WHERE id = ${brandId}::uuid AND "workspaceId" = ${workspaceId}::uuid FOR NO KEY UPDATE`;
  const brand = await tx.brand.findFirst({ where: { id: brandId, workspaceId }, include: { competitors: true } });
  if (!brand) throw new NotFoundError("That brand does not exist in this workspace.");
  refuseStaleEdit(brand.name, brand.analysisVersion, version);
  const existingIds = new Set(brand.competitors.map((c) => c.id));
  const unknown = input.competitors.find((c) => c.id && !existingIds.has(c.id));
  if (unknown) throw new NotFoundError(`Competitor "${unknown.name}" does not belong to this brand.`);

  const keptIds = input.competitors.flatMap((c) => (c.id ? [c.id] : []));
  await removeCompetitors(tx, brandId, brand.competitors.filter((c) => !keptIds.includes(c.id)).map((c) => c.id));
  // Renames may swap names between competitors: clear names first so the unique index never sees a clash.
  for (const c of input.competitors.filter((c) => c.id)) {
    await tx.competitor.update({ where: { id: c.id }, data: { name: `__renaming__${c.id}` } });
  }
  for (const c of input.competitors) {
    const data = { name: c.name, aliases: c.aliases, caseSensitiveAliases: c.caseSensitiveAliases, domains: c.domains };
    if (c.id) await tx.competitor.update({ where: { id: c.id }, data });
    else await tx.competitor.create({ data: { ...data, workspaceId, brandId } });
  }
  const updated = await tx.brand.update({
    where: { id: brandId },
    // A new analysis version: answers analysed with an older one are re-analysed.
    data: { name: input.name, aliases: input.aliases, caseSensitiveAliases: input.caseSensitiveAliases, domains: input.domains, analysisVersion: { increment: 1 } },
    include: { competitors: { orderBy: { createdAt: "asc" } } },
  });
  // History follows the new names, domains and competitors.
  await startReanalysis(tx, workspaceId, brandId);
  return updated;
}

/**
 * Competitor discovery's "track it": adds `name` as a competitor of the brand through updateBrand's
 * path (its validation and limits, and the re-analysis that lets history find the new name).
 * Refuses a name the brand already tracks, in any of its spellings, so a second click changes
 * nothing: the brand's row is locked first, so two clicks at once are one after the other.
 */
export async function trackCompetitor(workspaceId: string, brandId: string, name: string) {
  return transaction(async (tx) => {
    await tx.$queryRaw`SELECT id FROM brands WHERE id = ${brandId}::uuid AND "workspaceId" = ${workspaceId}::uuid FOR NO KEY UPDATE`;
    const brand = await tx.brand.findFirst({ where: { id: brandId, workspaceId }, include: { competitors: { orderBy: { createdAt: "asc" } } } });
    if (!brand) throw new NotFoundError("That brand does not exist in this workspace.");
    const already = trackedAs(name, [brand, ...brand.competitors]);
    if (already) throw new ConflictError(already === name ? `"${name}" is already tracked.` : `"${name}" is already tracked as "${already}".`, { field: "name" });
    const input = storedInput(brand);
    const parsed = brandInputSchema.safeParse({ ...input, competitors: [...input.competitors, { name }] });
    if (!parsed.success) throw new UserError(parsed.error.issues[0]?.message ?? "That competitor cannot be added.", { field: "name" });
    return replaceBrand(tx, workspaceId, brandId, parsed.data);
  });
}

/** A stored brand as the input that would store it again (for an edit made by Beacon itself). */
function storedInput(brand: BrandWithCompetitors) {
  const { name, aliases, caseSensitiveAliases, domains } = brand;
  return { name, aliases, caseSensitiveAliases, domains, competitors: brand.competitors.map(({ id, name, aliases, caseSensitiveAliases, domains }) => ({ id, name, aliases, caseSensitiveAliases, domains })) };
}

/** Stored domains as the brand form stores them now; a domain the form refuses is kept as stored. */
function canonicalDomains(domains: string[]): string[] {
  return [...new Set(domains.map((d) => domainSchema.safeParse(d).data ?? d))];
}

type StoredDomains = { domains: string[]; competitors: { domains: string[] }[] };
const domainsKey = (brand: StoredDomains) => JSON.stringify([brand.domains, brand.competitors.map((c) => c.domains)]);
const canonical = <B extends StoredDomains>(brand: B): B => ({
  ...brand,
  domains: canonicalDomains(brand.domains),
  competitors: brand.competitors.map((c) => ({ ...c, domains: canonicalDomains(c.domains) })),
});

/**
 * Rewrites, through updateBrand's path, brands whose domains (their own or a competitor's) are not
 * stored as the form stores them now: before 2026-12-05 an international name was kept as typed
 * ("bücher.de"), while citations, crawler hits and visits carry its ASCII form, so it never
 * matched. Only the domains change (names and aliases stay as stored, so a name the form would
 * now write otherwise cannot clash with another brand's); the edit raises the brand's analysis
 * version, so its answers are re-analysed. Run by every worker's maintenance
 * (lib/worker/maintenance.ts): a brand another worker rewrote meanwhile is seen under its lock
 * and left alone, and one whose domains the form refuses is read, not locked. Returns the brands
 * rewritten, those left with a domain the form refuses, and those whose rewrite failed (each on
 * its own: one failing stops no other).
 */
export async function canonicalizeStoredDomains(): Promise<{ rewritten: string[]; refused: string[]; failed: { id: string; error: string }[] }> {
  const ids = await db().$queryRaw<{ id: string }[]>`
    SELECT b.id FROM brands b
    WHERE array_to_string(b.domains, ' ') ~ '[^[:ascii:]]'
       OR EXISTS (SELECT 1 FROM competitors c WHERE c."brandId" = b.id AND array_to_string(c.domains, ' ') ~ '[^[:ascii:]]')`;
  if (!ids.length) return { rewritten: [], refused: [], failed: [] };
  const candidates = await db().brand.findMany({
    where: { id: { in: ids.map((r) => r.id) } },
    include: { competitors: { orderBy: { createdAt: "asc" } } },
    orderBy: { id: "asc" },
  });
  await pausePoint("domains:candidates-read");
  const result = { rewritten: [] as string[], refused: [] as string[], failed: [] as { id: string; error: string }[] };
  for (const candidate of candidates) {
    if (domainsKey(canonical(candidate)) === domainsKey(candidate)) {
      result.refused.push(candidate.id);
      continue;
    }
    try {
      const rewritten = await transaction(async (tx) => {
        await tx.$queryRaw`SELECT id FROM brands WHERE id = ${candidate.id}::uuid FOR NO KEY UPDATE`;
        const brand = await tx.brand.findUnique({ where: { id: candidate.id }, include: { competitors: { orderBy: { createdAt: "asc" } } } });
        if (!brand) return false;
        const stored = storedInput(brand);
        const input = canonical(stored);
        if (domainsKey(input) === domainsKey(stored)) return false;
        await replaceBrand(tx, brand.workspaceId, brand.id, input);
        return true;
      });
      if (rewritten) result.rewritten.push(candidate.id);
    } catch (error) {
      result.failed.push({ id: candidate.id, error: error instanceof Error ? error.message.split("\n")[0]! : String(error) });
    }
  }
  return result;
}

/**
 * Removed competitors are deleted at once; their mention rows stay (no foreign key: every answer
 * of the brand has one, named or not) until the re-analysis the edit queues rewrites each answer
 * without them, taking their rollup rows with them, as it does for any change of the brand's
 * inputs. Rewriting them here made an edit rewrite the whole history in its request: many minutes
 * at a million answers, past the transaction's timeout. A capture recording its answer meanwhile
 * waits for the edit on the brand's row (beacon_succeed reads its version FOR SHARE) and then
 * writes no row for a competitor that no longer exists.
 */
async function removeCompetitors(tx: Prisma.TransactionClient, brandId: string, ids: string[]) {
  if (!ids.length) return;
  // The alert rules that watch them by id stop naming them (lib/alerts/rules.ts).
  await forgetCompetitors(tx, brandId, ids);
  await tx.competitor.deleteMany({ where: { id: { in: ids }, brandId } });
}

/**
 * A brand with checks in its history is kept: deleting it would erase its checks, their captures
 * (queued or running ones too) and the money they hold. The brand is locked before its checks
 * are counted, and a check being created holds it key-shared until it commits (createCheck's
 * resolveBrand), so a check started at the same time is either counted here or finds no brand.
 * Its schedules are locked before the brand, in the order of a schedule's run, which holds its
 * schedule while createCheck takes the brand: the other way round, this waited for the run (the
 * schedules' cascade) while the run's check waited for this, a deadlock through the application
 * that PostgreSQL cannot see (tests/integration/schedule-brand-delete.test.ts).
 */
export async function deleteBrand(workspaceId: string, brandId: string) {
  await transaction(async (tx) => {
    await tx.$queryRaw`SELECT id FROM schedules WHERE "brandId" = ${brandId}::uuid AND "workspaceId" = ${workspaceId}::uuid ORDER BY id FOR UPDATE`;
    const [brand] = await tx.$queryRaw<{ id: string; name: string }[]>`
      SELECT id, name FROM brands WHERE id = ${brandId}::uuid AND "workspaceId" = ${workspaceId}::uuid FOR UPDATE`;
    if (!brand) throw new NotFoundError("That brand does not exist in this workspace.");
    const checks = await tx.check.count({ where: { brandId } });
    if (checks > 0) throw new UserError(`"${brand.name}" has ${checks} check(s) in its history and cannot be deleted.`);
    await pausePoint("brand:delete-before-commit", { tx });
    await tx.brand.delete({ where: { id: brand.id } });
  });
}
