import "server-only";
import { db } from "@/lib/db/prisma";
import { jobCatalog } from "@/lib/jobs/catalog";

/** How long a worker trusts its view of which connections are full, unless told of a change. */
const CACHE_MS = 250;

let cache: { at: number; flags: string[] } | null = null;

/**
 * Flags of connections whose every concurrency slot is taken, across all worker processes and
 * workspaces. graphile-worker asks before each fetch and skips those jobs, so a full
 * connection's backlog waits in the queue instead of being fetched and put back. This is the
 * cheap, slightly stale first line; the slot claim (lib/captures/lifecycle/claim.ts) is the exact one.
 */
export async function forbiddenProviderFlags(): Promise<string[]> {
  if (cache && Date.now() - cache.at < CACHE_MS) return cache.flags;
  try {
    const rows = await db().$queryRaw<{ connectionId: string }[]>`
      SELECT pc.id AS "connectionId" FROM provider_connections pc
      WHERE NOT EXISTS (SELECT 1 FROM connection_slots s WHERE s."connectionId" = pc.id AND s."captureId" IS NULL AND s.slot < pc."maxConcurrency")`;
    cache = { at: Date.now(), flags: rows.map((r) => jobCatalog.capture.flag(r.connectionId)) };
  } catch {
    cache = { at: Date.now(), flags: cache?.flags ?? [] };
  }
  return cache.flags;
}

/**
 * A slot may have been freed (this process finished a capture, or another one said so through
 * graphile-worker's job notification): read the flags again before the next fetch, so that the
 * connection's next capture starts now rather than after the cache's age.
 */
export function slotsMayHaveFreed(): void {
  if (cache?.flags.length) cache = null;
}
