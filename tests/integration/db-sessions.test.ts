// What every Prisma session of Beacon's sets on the server (lib/db/prisma.ts): UTC, so now() and
// the timestamp columns agree; a limit on a transaction left idle (a frozen process must not hold
// its locks); no parallel query unless configured (BEACON_DB_PARALLEL_WORKERS, default 0:
// the rollup reads were slower with it; the server's own default is 2); and random reads priced
// as on an SSD (BEACON_DB_RANDOM_PAGE_COST, default 2; the server's is 4).
import { describe, expect, it } from "vitest";
import { db, readDb } from "@/lib/db/prisma";

describe("a Beacon database session", () => {
  it.each([
    ["db", db],
    ["readDb", readDb],
  ])("from %s() runs in UTC, ends idle transactions, starts no parallel workers and prices random reads as on an SSD", async (_name, client) => {
    const [row] = await client().$queryRaw<{ timezone: string; idle: string; parallel: string; randomPageCost: string }[]>`
      SELECT current_setting('timezone') AS timezone,
        current_setting('idle_in_transaction_session_timeout') AS idle,
        current_setting('max_parallel_workers_per_gather') AS parallel,
        current_setting('random_page_cost') AS "randomPageCost"`;
    expect(row).toEqual({ timezone: "UTC", idle: "15s", parallel: "0", randomPageCost: "2" });
  });
});
