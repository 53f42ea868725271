import "server-only";
import os from "node:os";
import { db } from "@/lib/db/prisma";
import { sweepDeadWorkers } from "@/lib/jobs/sweeper";

/** Heartbeat rows of this host whose process no longer exists: dead now, no need to wait for the lease. */
async function deadLocalWorkers(ownWorkerId: string): Promise<string[]> {
  const rows = await db().workerHeartbeat.findMany({
    where: { hostname: os.hostname(), status: { in: ["running", "draining"] }, expiredAt: null, workerId: { not: ownWorkerId } },
    select: { workerId: true, pid: true },
  });
  return rows.filter((row) => row.pid === process.pid || !processExists(row.pid)).map((row) => row.workerId);
}

function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Runs the sweeper in every worker process (one at a time across them, see sweeper.ts): once at
 * startup, including the crashed processes of this host, then every `intervalMs`.
 */
export function startMaintenance(options: { workerId: string; intervalMs: number; log: (line: string) => void }): () => Promise<void> {
  let running: Promise<void> | null = null;
  const sweep = (startup: boolean) => {
    running ??= (async () => {
      try {
        const deadWorkerIds = startup ? await deadLocalWorkers(options.workerId) : [];
        const result = await sweepDeadWorkers({ deadWorkerIds });
        if (result?.workers.length) {
          options.log(`recovered ${result.recovered} capture(s) of dead worker(s) ${result.workers.join(", ")}; ${result.failed} failed`);
        }
      } catch (error) {
        options.log(`sweep failed: ${(error as Error).message.split("\n").at(-1)}`);
      } finally {
        running = null;
      }
    })();
    return running;
  };
  void sweep(true);
  const timer = setInterval(() => void sweep(false), options.intervalMs);
  return async () => {
    clearInterval(timer);
    await running;
  };
}
