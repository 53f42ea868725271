import "server-only";
import { db } from "@/lib/db/prisma";
import { databaseNow } from "@/lib/db/clock";

// Everything Beacon compares across processes is timed by the database's clock, except what
// graphile-worker's cron writes: each worker stamps a crontab's last run with its own clock
// (_private_known_crontabs.last_execution), and every worker adds a slot's job only when that mark
// is earlier than the slot. A worker whose clock ran ahead (then corrected by NTP, or replaced)
// leaves a mark in the future, and until the real time passes it no worker runs schedules, alert
// evaluations, retention or digests (a daily or weekly slot in that gap is lost: no backfill).

/** How far this process's clock is from the database's, in ms (positive: this one is ahead). */
export async function clockSkewMs(): Promise<number> {
  const before = Date.now();
  const now = await databaseNow();
  const after = Date.now();
  return Math.round((before + after) / 2 - now.getTime());
}

/** Beyond this, a worker's start warns (cron slots are minutes; leases and retries are the database's). */
export const CLOCK_SKEW_WARN_MS = 30_000;

/**
 * Brings cron marks that lie in the future (by the database's clock, with a minute's slack for
 * clocks that merely disagree a little) back to now, so that the next slot runs. Returns the
 * crontabs it moved. Run with the repair pass in every worker.
 */
export async function resetFutureCronMarks(): Promise<string[]> {
  const rows = await db().$queryRaw<{ identifier: string }[]>`
    UPDATE graphile_worker._private_known_crontabs SET last_execution = now()
    WHERE last_execution > now() + interval '1 minute'
    RETURNING identifier`;
  return rows.map((r) => r.identifier).sort();
}
