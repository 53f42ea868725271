import "server-only";
import { db } from "@/lib/db/prisma";
import { listRecentWorkers } from "@/lib/jobs/heartbeats";

// What a load balancer or an operator needs: can we reach the database, and is anything
// processing jobs. Nothing here belongs to a workspace; the details (hosts, pids, counts) are for
// operators only (app/api/health/route.ts), everyone else gets the status.

export type HealthStatus = "ok" | "degraded" | "down";

export type HealthReport = {
  status: HealthStatus;
  database: { ok: boolean; latencyMs: number };
  workers: {
    alive: number;
    list: { workerId: string; hostname: string; pid: number; status: string; lastSeenAt: string; leaseExpiresAt: string }[];
  };
};

/** What anyone may know: up, up without a live worker, or down. */
export function publicHealth(report: HealthReport): { status: HealthStatus } {
  return { status: report.status };
}

// A pool with no free connection, or a database that does not answer, must not hang the probe.
const TIMEOUT_MS = 3_000;

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

export async function checkHealth(): Promise<HealthReport> {
  const started = performance.now();
  try {
    // The database's clock decides whether a lease has expired, as it does for the sweeper.
    const [{ now }] = await withTimeout(db().$queryRaw<[{ now: Date }]>`SELECT now() AS now`, TIMEOUT_MS);
    const latencyMs = Math.round(performance.now() - started);
    const workers = await withTimeout(listRecentWorkers(now), TIMEOUT_MS);
    const alive = workers.filter((w) => w.alive).length;
    return {
      status: alive > 0 ? "ok" : "degraded",
      database: { ok: true, latencyMs },
      workers: {
        alive,
        list: workers.map((w) => ({
          workerId: w.workerId,
          hostname: w.hostname,
          pid: w.pid,
          status: w.alive || w.status === "stopped" ? w.status : "lease_expired",
          lastSeenAt: w.lastSeenAt.toISOString(),
          leaseExpiresAt: w.leaseExpiresAt.toISOString(),
        })),
      },
    };
  } catch (error) {
    const reason = (error instanceof Error ? error.message : String(error)).trim().split("\n").at(-1);
    console.error(`health check: database unavailable: ${reason}`);
    return {
      status: "down",
      database: { ok: false, latencyMs: Math.round(performance.now() - started) },
      workers: { alive: 0, list: [] },
    };
  }
}
