// A database restart must not expire a live worker's lease: while the server is down no worker
// can renew it, and the sweeper that runs first after the restart would take over the attempts of
// a worker that is about to store a paid answer (seen in a chaos run: a fast restart 330 ms after
// the provider answered, the attempt ended unknown (lease_expired), the capture paid again).
// Leases count from no earlier than the server's start (lib/jobs/heartbeats.ts leaseOver).
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/prisma";
import { sweepDeadWorkers } from "@/lib/worker/sweeper";

const MINUTE = 60_000;

async function heartbeat(workerId: string, lastSeenAt: Date, leaseMs: number) {
  await db().workerHeartbeat.create({
    data: { workerId, hostname: "test", pid: 1, concurrency: 1, lastSeenAt, leaseExpiresAt: new Date(lastSeenAt.getTime() + leaseMs) },
  });
}

describe("the sweeper after a database restart", () => {
  it("gives a worker whose lease ran out before the server started one lease from the start, and takes over one whose lease ran out since", async () => {
    // The database's clock and how long this server has been up (the columns hold UTC).
    const [clock] = await db().$queryRaw<{ now: Date; upMs: number }[]>`
      SELECT now() AT TIME ZONE 'UTC' AS now, (extract(epoch FROM now() - pg_postmaster_start_time()) * 1000)::float8 AS "upMs"`;
    const now = clock!.now.getTime();
    const up = clock!.upMs;
    // Last seen before the server started, with a lease that ended 5 minutes ago but is longer
    // than the server's uptime: it could not renew it while the server was down.
    await heartbeat("restart-survivor", new Date(now - up - 10 * MINUTE), up + 5 * MINUTE);
    // A one-second lease that ran out 10 minutes ago, the server up for longer than that: dead.
    await heartbeat("restart-dead", new Date(now - 10 * MINUTE), 1000);

    const swept = await sweepDeadWorkers();
    expect(swept.workers).toContain("restart-dead");
    expect(swept.workers).not.toContain("restart-survivor");
    const rows = await db().workerHeartbeat.findMany({ where: { workerId: { in: ["restart-survivor", "restart-dead"] } }, orderBy: { workerId: "asc" } });
    expect(rows.map((r) => [r.workerId, r.status])).toEqual([
      ["restart-dead", "expired"],
      ["restart-survivor", "running"],
    ]);
  });
});
