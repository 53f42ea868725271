// Holding one side of a race at the worst moment (lib/db/pause-points.ts).
//
// In this process: `gateAt(point)` makes the lifecycle wait at `point` until the test opens the
// gate, and tells when it got there. Across processes: `holdInWorkers(point)` takes the
// exclusive advisory lock that workers started with BEACON_TEST_PAUSE_POINTS=<point> wait for.
import pg from "pg";
import { afterEach } from "vitest";
import { onPausePoint, pauseLockKey, type PauseContext, type PausePoint } from "@/lib/db/pause-points";
import { waitFor } from "./wait-for";

export type Gate = {
  /** Resolves with the context of the first arrival at the point. */
  reached: Promise<PauseContext>;
  /** Lets every waiting (and later) arrival through. */
  open: () => void;
  /** Stops pausing at the point (also done after each test). */
  remove: () => void;
};

const cleanups = new Set<() => void>();
afterEach(() => {
  for (const cleanup of cleanups) cleanup();
  cleanups.clear();
});

/**
 * The next arrival at `point` (optionally only one that matches `when`) waits until `open()`.
 * Later arrivals pass freely once the gate is open.
 */
export function gateAt(point: PausePoint, when: (context: PauseContext) => boolean = () => true): Gate {
  let arrive!: (context: PauseContext) => void;
  let release!: () => void;
  const reached = new Promise<PauseContext>((resolve) => (arrive = resolve));
  const released = new Promise<void>((resolve) => (release = resolve));
  let taken = false;
  const remove = onPausePoint(point, async (context) => {
    if (taken || !when(context)) return;
    taken = true;
    arrive(context);
    await released;
  });
  cleanups.add(remove);
  cleanups.add(release);
  return { reached, open: release, remove };
}

/** Runs `action` inside the transition's transaction at `point`, once (e.g. throw an injected error). */
export function actAt(point: PausePoint, action: (context: PauseContext) => Promise<void> | void, times = 1): () => number {
  let calls = 0;
  const remove = onPausePoint(point, async (context) => {
    if (calls >= times) return;
    calls++;
    await action(context);
  });
  cleanups.add(remove);
  return () => calls;
}

const LOCK_WAITERS = `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`;

/**
 * How many sessions of this database wait for a lock now (one side of a race is held and the
 * other queues), read on a session of its own: inside a transaction the view does not change.
 */
export async function lockWaiters(databaseUrl = process.env.DATABASE_URL!): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return (await client.query<{ n: number }>(LOCK_WAITERS)).rows[0]!.n;
  } finally {
    await client.end();
  }
}

/**
 * Waits until `count` sessions of this database wait for a lock (the other side is now held);
 * with `inStatement`, only sessions whose statement contains it count (the wait a test means,
 * not an earlier one of the same side). The deadline allows for a loaded machine (scripts/stress-tests.sh).
 */
export async function waitForLockWaiter(count = 1, databaseUrl = process.env.DATABASE_URL!, inStatement?: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await waitFor(
      async () => {
        const { rows } = await client.query<{ n: number }>(inStatement ? `${LOCK_WAITERS} AND strpos(query, $1) > 0` : LOCK_WAITERS, inStatement ? [inStatement] : []);
        return rows[0]!.n >= count;
      },
      { what: `${count} session(s) waiting for a lock${inStatement ? ` in a statement with "${inStatement}"` : ""}`, timeoutMs: 30_000, intervalMs: 10 },
    );
  } finally {
    await client.end();
  }
}

/**
 * Holds `point` shut for worker processes (they wait on a shared advisory lock while this holds
 * the exclusive one). `waiting()` tells how many sessions are queued at the point.
 */
export async function holdInWorkers(point: PausePoint, databaseUrl = process.env.DATABASE_URL!) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  await client.query(`SELECT pg_advisory_lock(hashtextextended($1, 0))`, [pauseLockKey(point)]);
  let released = false;
  const release = async () => {
    if (released) return;
    released = true;
    await client.query(`SELECT pg_advisory_unlock(hashtextextended($1, 0))`, [pauseLockKey(point)]).catch(() => {});
    await client.end().catch(() => {});
  };
  cleanups.add(() => void release());
  return {
    release,
    async waiting(): Promise<number> {
      const { rows } = await client.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_locks l WHERE l.locktype = 'advisory' AND NOT l.granted AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
      );
      return rows[0]!.n;
    },
  };
}
