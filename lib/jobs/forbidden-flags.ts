import "server-only";
import { db } from "@/lib/db/prisma";
import { jobCatalog } from "@/lib/jobs/catalog";

/** How long a worker trusts its view of which providers are full. */
const CACHE_MS = 250;

let cache: { at: number; flags: string[] } | null = null;

/**
 * Flags of providers whose every concurrency slot is taken, across all worker processes.
 * graphile-worker asks before each fetch and skips those jobs, so a full provider's backlog
 * waits in the queue instead of being fetched and put back. This is the cheap, slightly stale
 * first line; the slot claim in claimCapture() is the exact one.
 */
export async function forbiddenProviderFlags(): Promise<string[]> {
  if (cache && Date.now() - cache.at < CACHE_MS) return cache.flags;
  try {
    const rows = await db().$queryRaw<{ providerConfigId: string }[]>`
      SELECT r."providerConfigId" FROM (
        SELECT "providerConfigId", count(*) AS running FROM captures WHERE status = 'running' GROUP BY "providerConfigId"
      ) r JOIN provider_configs pc ON pc.id = r."providerConfigId"
      WHERE r.running >= pc."maxConcurrency"`;
    cache = { at: Date.now(), flags: rows.map((r) => jobCatalog.capture.flag(r.providerConfigId)) };
  } catch {
    cache = { at: Date.now(), flags: cache?.flags ?? [] };
  }
  return cache.flags;
}
