// What every Prisma session of Beacon's sets on the server (lib/db/prisma.ts): UTC, so now() and
// the timestamp columns agree; a limit on a transaction left idle (a frozen process must not hold
// its locks); and no parallel query unless configured (BEACON_DB_PARALLEL_WORKERS, default 0:
// the rollup reads were slower with it; the server's own default is 2).
import { describe, expect, it } from "vitest";
import { db, readDb } from "@/lib/db/prisma";

describe("a Beacon database session", () => {
  it.each([
    ["db", db],
    ["readDb", readDb],
  ])("from %s() runs in UTC, ends idle transactions and starts no parallel workers", async (_name, client) => {
    const [row] = await client().$queryRaw<{ timezone: string; idle: string; parallel: string }[]>`
      SELECT current_setting('timezone') AS timezone,
        current_setting('idle_in_transaction_session_timeout') AS idle,
        current_setting('max_parallel_workers_per_gather') AS parallel`;
    expect(row).toEqual({ timezone: "UTC", idle: "15s", parallel: "0" });
  });
});
