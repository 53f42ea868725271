import "server-only";
import { db } from "@/lib/db/prisma";

/**
 * The database's clock: what alerts count periods and weeks by. Their dedupe keys (a rule's period
 * index, a digest's week) must agree across workers, whose own clocks may not (DESIGN.md "Money":
 * every time another process compares comes from the database clock).
 */
export async function databaseNow(): Promise<Date> {
  return (await db().$queryRaw<{ now: Date }[]>`SELECT now() AS now`)[0]!.now;
}
