import "server-only";
import { db } from "@/lib/db/prisma";

/**
 * The database's clock. Whatever another process compares (alerts' periods and digest weeks, whose
 * dedupe keys must agree across workers; idempotency keys' expiry, set with the database's now())
 * is read from it, not from this process's clock, which may run ahead or behind (DESIGN.md
 * "Money": every time another process compares comes from the database clock).
 */
export async function databaseNow(): Promise<Date> {
  return (await db().$queryRaw<{ now: Date }[]>`SELECT now() AS now`)[0]!.now;
}
