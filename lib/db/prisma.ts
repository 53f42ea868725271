import "server-only";
import { AsyncLocalStorage } from "node:async_hooks";
import { PrismaPg } from "@prisma/adapter-pg";
import { connectionSafePool } from "@/lib/db/pool";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { env, requireDatabaseUrl } from "@/lib/config/env";

export type Db = PrismaClient;

// One client per process. Created on first use so that `next build` never needs a database, and
// kept on globalThis so that Next's dev reloads do not open a new pool on every edit.
const globalForPrisma = globalThis as unknown as { beaconPrisma?: PrismaClient; beaconReadPrisma?: PrismaClient };

/** The name of a process's database sessions (application_name in pg_stat_activity): which process holds a lock or runs a slow query. */
export const sessionName = (pid: number) => `beacon:${pid}`;

function createClient(connectionString = requireDatabaseUrl()): PrismaClient {
  // Prisma stores DateTime as UTC in `timestamp` columns; a UTC session makes `now()` and those
  // columns agree in raw SQL whatever the server's own time zone is. A process frozen inside a
  // transaction (stopped, swapped out) must not hold its locks, e.g. a provider's slot lock, for
  // ever: the server ends such sessions. Parallel query is off unless configured: on the
  // dashboards' rollup reads it made the charts slower, not faster (BEACON_DB_PARALLEL_WORKERS);
  // and random reads are priced as on an SSD (BEACON_DB_RANDOM_PAGE_COST).
  const pool = connectionSafePool({
    connectionString,
    max: env().BEACON_DB_POOL_SIZE,
    application_name: sessionName(process.pid),
    options: `-c timezone=UTC -c idle_in_transaction_session_timeout=15000 -c max_parallel_workers_per_gather=${env().BEACON_DB_PARALLEL_WORKERS} -c random_page_cost=${env().BEACON_DB_RANDOM_PAGE_COST}`,
  });
  // Prisma's adapter makes a pool without listeners on its clients when given settings.
  const adapter = new PrismaPg(pool, { disposeExternalPool: true });
  return new PrismaClient({ adapter });
}

export function db(): PrismaClient {
  globalForPrisma.beaconPrisma ??= createClient();
  return globalForPrisma.beaconPrisma;
}

const primaryReads = new AsyncLocalStorage<true>();

/**
 * Runs `fn` with readDb() answering from the primary: work that must see what was just written
 * and reads through the dashboards' queries (an alert evaluation a finished check or a
 * re-analysis asked for: on a lagging replica it missed the newest answers, or judged history
 * half re-analysed, which the wait for the re-analysis is there to prevent).
 */
export function withPrimaryReads<T>(fn: () => Promise<T>): Promise<T> {
  return primaryReads.run(true, fn);
}

/**
 * For the dashboards and exports (lib/analytics): the read replica at DATABASE_READ_URL when one
 * is configured, else the primary. They read only, and a replica's lag (seconds) shows as a
 * capture that finished that long ago not counted yet; the lifecycle and everything that writes
 * or must read its own writes use db().
 */
export function readDb(): PrismaClient {
  const url = env().DATABASE_READ_URL;
  if (!url || primaryReads.getStore()) return db();
  globalForPrisma.beaconReadPrisma ??= createClient(url);
  return globalForPrisma.beaconReadPrisma;
}

export async function disconnectDb(): Promise<void> {
  await globalForPrisma.beaconPrisma?.$disconnect();
  await globalForPrisma.beaconReadPrisma?.$disconnect();
  globalForPrisma.beaconPrisma = undefined;
  globalForPrisma.beaconReadPrisma = undefined;
}
