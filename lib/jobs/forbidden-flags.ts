import "server-only";
import { db } from "@/lib/db/prisma";
import { jobCatalog } from "@/lib/jobs/catalog";

/** How old a worker's view of which connections are full may get before it is read again. */
const CACHE_MS = 250;

let cache: { at: number; flags: string[] } | null = null;
let reading: Promise<string[]> | null = null;

/**
 * Flags of connections whose every concurrency slot is taken, across all worker processes and
 * workspaces. graphile-worker asks before each fetch and skips those jobs, so a full
 * connection's backlog waits in the queue instead of being fetched and put back. This is the
 * cheap, slightly stale first line; the slot claim (lib/lifecycle/claim.ts) is the exact one.
 *
 * A fetch does not wait for the database when the view is merely old: it gets the view it has
 * and a fresh one is read behind it (a job's start is not delayed by a round trip). It waits
 * only when there is no view, or it was dropped because a slot may have been freed
 * (slotsMayHaveFreed): then the connection's next capture must not be skipped.
 */
export async function forbiddenProviderFlags(): Promise<string[]> {
  if (!cache) return readFlags();
  if (Date.now() - cache.at >= CACHE_MS) void readFlags();
  return cache.flags;
}

/** Bumped when the view is dropped: a read started before that must not become the view. */
let generation = 0;

function readFlags(): Promise<string[]> {
  if (reading) return reading;
  const mine = generation;
  const read = db()
    .$queryRaw<{ connectionId: string }[]>`
      SELECT pc.id AS "connectionId" FROM provider_connections pc
      WHERE NOT EXISTS (SELECT 1 FROM connection_slots s WHERE s."connectionId" = pc.id AND s."captureId" IS NULL AND s.slot < pc."maxConcurrency")
         -- A lowered cap draining: calls above it still count (beacon_take_slot).
         OR (SELECT count(*) FROM connection_slots s WHERE s."connectionId" = pc.id AND s."captureId" IS NOT NULL) >= pc."maxConcurrency"`
    .then((rows) => rows.map((r) => jobCatalog.capture.flag(r.connectionId)))
    .catch(() => cache?.flags ?? [])
    .then((flags) => {
      if (mine === generation) cache = { at: Date.now(), flags };
      if (reading === read) reading = null;
      return flags;
    });
  reading = read;
  return read;
}

/**
 * A slot may have been freed (this process finished a capture, or another one said so through
 * graphile-worker's job notification): read the flags again before the next fetch, so that the
 * connection's next capture starts now rather than after the cache's age.
 */
export function slotsMayHaveFreed(): void {
  if (!cache?.flags.length) return;
  cache = null;
  reading = null;
  generation++;
}
