import "server-only";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { requireDatabaseUrl } from "@/lib/config/env";

export type Db = PrismaClient;

// One client per process. Created on first use so that `next build` never needs a database, and
// kept on globalThis so that Next's dev reloads do not open a new pool on every edit.
const globalForPrisma = globalThis as unknown as { beaconPrisma?: PrismaClient };

function createClient(): PrismaClient {
  // Prisma stores DateTime as UTC in `timestamp` columns; a UTC session makes `now()` and those
  // columns agree in raw SQL whatever the server's own time zone is. A process frozen inside a
  // transaction (stopped, swapped out) must not hold its locks, e.g. a provider's slot lock, for
  // ever: the server ends such sessions.
  const adapter = new PrismaPg({
    connectionString: requireDatabaseUrl(),
    max: 10,
    options: "-c timezone=UTC -c idle_in_transaction_session_timeout=15000",
  });
  return new PrismaClient({ adapter });
}

export function db(): PrismaClient {
  globalForPrisma.beaconPrisma ??= createClient();
  return globalForPrisma.beaconPrisma;
}

export async function disconnectDb(): Promise<void> {
  await globalForPrisma.beaconPrisma?.$disconnect();
  globalForPrisma.beaconPrisma = undefined;
}
