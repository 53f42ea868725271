import "server-only";
import { activeRuns } from "@/lib/captures/active-runs";
import { db } from "@/lib/db/prisma";
import { Prisma } from "@/lib/generated/prisma/client";

// A worker process proves it is alive by pushing its lease forward. Times come from the
// database clock, not this machine's, so that workers and the sweeper on different machines
// agree on when a lease has expired. The columns are `timestamp(3)` holding UTC, as Prisma
// writes them.

/**
 * SQL: the lease of heartbeat row `h` has run out, counted from no earlier than the workers could
 * reach the database again: the server's start, or the end of the last break in which no worker
 * reached it for over half a lease (worker_contact, written by beat: a proxy or pgbouncer restart,
 * a failover, a network outage that cut every worker off while the database stayed up). Through
 * such a break no worker can renew its lease; a live worker whose lease ran out meanwhile gets one
 * whole lease (its own length) after it to renew it, before the sweeper (in the first worker back)
 * takes its attempts over and fences out the answers it was about to store (paid for). A dead
 * worker is taken over at most one lease later than without the break. A worker cut off alone,
 * while others reach the database, is taken for dead, as before.
 */
export const leaseOver = (h: string) => {
  const row = Prisma.raw(h);
  return Prisma.sql`(${row}."leaseExpiresAt" < now() AT TIME ZONE 'UTC'
    AND greatest(pg_postmaster_start_time() AT TIME ZONE 'UTC', (SELECT c."reachableSince" FROM worker_contact c))
        + (${row}."leaseExpiresAt" - ${row}."lastSeenAt") < now() AT TIME ZONE 'UTC')`;
};

/**
 * SQL: a run (an attempt, a setup-wizard call) of row `run` ("startedAt", "runToken") by the
 * worker of heartbeat row `h` (LEFT JOINed on its "workerId") that nobody will finish: its worker
 * is unknown or its lease ran out, or the worker is alive but no longer lists the run although the
 * run started before the worker's last heartbeat read the clock (a result it could not write).
 */
export const runIsOrphaned = (run: string, h: string) => {
  const [r, w] = [Prisma.raw(run), Prisma.raw(h)];
  return Prisma.sql`(${w}."workerId" IS NULL OR ${leaseOver(h)}
    OR (${r}."startedAt" < ${w}."activeAsOf" AND NOT (${r}."runToken" = ANY(${w}."activeRunTokens"))))`;
};

/** Why an orphaned run (runIsOrphaned) ends: its worker is gone, or it stopped following the run. */
export type OrphanReason = "lease_expired" | "abandoned";
export const orphanReason = (h: string) =>
  Prisma.sql`(CASE WHEN ${Prisma.raw(h)}."workerId" IS NULL OR ${leaseOver(h)} THEN 'lease_expired' ELSE 'abandoned' END)`;

/** `expired`: its lease ran out and the sweeper ended its runs (lib/worker/sweeper.ts). */
export type WorkerStatus = "running" | "draining" | "stopped" | "expired";

export type WorkerIdentity = {
  /** graphile-worker's pool id: the value its jobs carry in `locked_by`. */
  workerId: string;
  /** Its job runners' ids, the values jobs carry in `locked_by`. */
  slotIds: string[];
  hostname: string;
  pid: number;
  concurrency: number;
};

/**
 * Inserts the heartbeat row or renews it: lease = database now + leaseSeconds, the run tokens the
 * process is running, and a snapshot of its own metrics. A process that was declared dead while
 * it was only stalled (its captures were already taken over and its writes fenced) comes back as
 * alive, so that the sweeper watches its new attempts again.
 *
 * The database time is read BEFORE the run tokens are: every attempt whose claim started before
 * `activeAsOf` had its token registered before then (lib/captures/active-runs.ts), so an open
 * attempt that started before `activeAsOf` and is not listed is no longer run by this process.
 */
export async function beat(worker: WorkerIdentity, status: Exclude<WorkerStatus, "stopped">, leaseSeconds: number, metrics: string | null = null): Promise<void> {
  // As text: a Date would cut it to the millisecond, and an attempt claimed in that same
  // millisecond before this read would look newer than the list.
  const [{ asOf }] = (await db().$queryRaw<{ asOf: string }[]>`SELECT (now() AT TIME ZONE 'UTC')::text AS "asOf"`) as [{ asOf: string }];
  const running = [...activeRuns];
  // The workers' contact with the database, in the same statement: a break of over half this
  // lease since any worker's last contact (every worker cut off) starts the leases' grace (leaseOver).
  await db().$executeRaw`
    WITH contact AS (
      INSERT INTO worker_contact (id, "lastContactAt", "reachableSince") VALUES (1, now() AT TIME ZONE 'UTC', now() AT TIME ZONE 'UTC')
      ON CONFLICT (id) DO UPDATE SET
        "reachableSince" = CASE WHEN worker_contact."lastContactAt" < (now() AT TIME ZONE 'UTC') - make_interval(secs => ${leaseSeconds} / 2.0)
                                THEN now() AT TIME ZONE 'UTC' ELSE worker_contact."reachableSince" END,
        "lastContactAt" = greatest(worker_contact."lastContactAt", now() AT TIME ZONE 'UTC')
    )
    INSERT INTO "worker_heartbeats" ("workerId", "slotIds", "hostname", "pid", "concurrency", "status", "startedAt", "lastSeenAt", "leaseExpiresAt", "metrics", "activeRunTokens", "activeAsOf")
    VALUES (
      ${worker.workerId}, ${worker.slotIds}::text[], ${worker.hostname}, ${worker.pid}, ${worker.concurrency}, ${status},
      now() AT TIME ZONE 'UTC', now() AT TIME ZONE 'UTC',
      (now() AT TIME ZONE 'UTC') + make_interval(secs => ${leaseSeconds}), ${metrics}, ${running}::uuid[], ${asOf}::timestamp
    )
    ON CONFLICT ("workerId") DO UPDATE SET
      "status" = EXCLUDED."status",
      "lastSeenAt" = EXCLUDED."lastSeenAt",
      "leaseExpiresAt" = EXCLUDED."leaseExpiresAt",
      "metrics" = coalesce(EXCLUDED."metrics", "worker_heartbeats"."metrics"),
      "activeRunTokens" = EXCLUDED."activeRunTokens",
      "activeAsOf" = EXCLUDED."activeAsOf",
      "expiredAt" = NULL`;
}

/**
 * A clean exit: the worker holds no jobs any more, so its lease ends now (anything it left open is
 * swept). Cut to the column's milliseconds rather than rounded: rounded up, "now" landed up to half
 * a millisecond in the future, and a sweep within it did not see the lease over (a CI flake).
 */
export async function markStopped(workerId: string): Promise<void> {
  await db().$executeRaw`
    UPDATE "worker_heartbeats"
    SET "status" = 'stopped',
        "stoppedAt" = now() AT TIME ZONE 'UTC',
        "lastSeenAt" = date_trunc('milliseconds', now() AT TIME ZONE 'UTC'),
        "leaseExpiresAt" = date_trunc('milliseconds', now() AT TIME ZONE 'UTC')
    WHERE "workerId" = ${workerId}`;
}

export type WorkerHeartbeatView = {
  workerId: string;
  hostname: string;
  pid: number;
  status: string;
  lastSeenAt: Date;
  leaseExpiresAt: Date;
  alive: boolean;
};

/** Workers that hold a lease at `now`, plus those seen within `recentMs` (newest first). */
export async function listRecentWorkers(now: Date, recentMs = 60 * 60 * 1000, limit = 50): Promise<WorkerHeartbeatView[]> {
  const rows = await db().workerHeartbeat.findMany({
    where: { OR: [{ leaseExpiresAt: { gt: now } }, { lastSeenAt: { gt: new Date(now.getTime() - recentMs) } }] },
    orderBy: { lastSeenAt: "desc" },
    take: limit,
    select: { workerId: true, hostname: true, pid: true, status: true, lastSeenAt: true, leaseExpiresAt: true },
  });
  return rows.map((row) => ({ ...row, alive: row.status !== "stopped" && row.leaseExpiresAt > now }));
}
