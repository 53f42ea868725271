import "server-only";
import { costOf, estimateUsage } from "@/lib/billing/money";
import { refreshCheck } from "@/lib/checks/refresh";
import { db } from "@/lib/db/prisma";
import { enqueueCaptureJobs } from "@/lib/jobs/enqueue";

export type SweepResult = { workers: string[]; recovered: number; failed: number };

/**
 * Recovers the work of dead worker processes (DESIGN.md "Leases, crashes and restarts").
 * graphile-worker would unlock a crashed process's jobs only after 4 hours; instead, any worker
 * running this finds processes whose lease ran out (or, on this host, whose pid is gone), and in
 * one transaction: unlocks their jobs, marks their in-flight attempts `unknown` with reason
 * `lease_expired` (the provider may have billed them, so they carry a cost estimate), and puts
 * their captures back in the queue, unless the retry policy says they have had enough. The
 * capture's run token changes, so if the "dead" process is only slow, its writes are fenced off.
 * One sweeper at a time, under a transaction-scoped advisory lock.
 */
export async function sweepDeadWorkers(options: { deadWorkerIds?: string[] } = {}): Promise<SweepResult | null> {
  return db().$transaction(
    async (tx) => {
      const [lock] = await tx.$queryRaw<{ locked: boolean }[]>`SELECT pg_try_advisory_xact_lock(hashtextextended('beacon:sweeper', 0)) AS locked`;
      if (!lock?.locked) return null;

      const extra = options.deadWorkerIds ?? [];
      const dead = await tx.$queryRaw<{ workerId: string; slotIds: string[] }[]>`
        SELECT "workerId", "slotIds" FROM worker_heartbeats
        WHERE status <> 'stopped' AND "expiredAt" IS NULL
          AND ("leaseExpiresAt" < now() AT TIME ZONE 'UTC' OR "workerId" = ANY(${extra}::text[]))
        FOR UPDATE`;
      const workerIds = dead.map((w) => w.workerId);
      if (!workerIds.length) return { workers: [], recovered: 0, failed: 0 };

      // Jobs are locked by the pool's job runners, not by the pool itself.
      const lockIds = dead.flatMap((w) => [w.workerId, ...w.slotIds]);
      await tx.$executeRaw`SELECT graphile_worker.force_unlock_workers(${lockIds}::text[])`;

      const orphaned = await tx.attempt.findMany({
        where: { workerId: { in: workerIds }, outcome: null },
        select: {
          runToken: true,
          captureId: true,
          startedAt: true,
          capture: { select: { checkId: true, workspaceId: true, status: true, runToken: true, maxAttempts: true, cancelRequestedAt: true, searchMode: true, prompt: { select: { text: true } }, providerConfig: true } },
        },
      });
      let recovered = 0;
      let failed = 0;
      const requeue: string[] = [];
      const checkIds = new Set<string>();
      for (const attempt of orphaned) {
        const { capture } = attempt;
        await tx.attempt.update({
          where: { runToken: attempt.runToken },
          data: {
            outcome: "unknown",
            reason: "lease_expired",
            errorClass: "unknown",
            endedAt: new Date(),
            latencyMs: Date.now() - attempt.startedAt.getTime(),
            costMicros: costOf(estimateUsage(capture.prompt.text, capture.searchMode), capture.providerConfig),
            costIsEstimate: true,
          },
        });
        if (capture.status !== "running" || capture.runToken !== attempt.runToken) continue;
        checkIds.add(capture.checkId);
        const spent = await tx.attempt.groupBy({ by: ["outcome"], where: { captureId: attempt.captureId, outcome: { in: ["failed", "unknown"] } }, _count: true });
        const total = spent.reduce((n, r) => n + r._count, 0);
        const unknown = spent.find((r) => r.outcome === "unknown")?._count ?? 0;
        const giveUp = total >= capture.maxAttempts || unknown > capture.providerConfig.unknownRetries;
        const status = capture.cancelRequestedAt ? "cancelled" : giveUp ? "failed" : "queued";
        await tx.capture.update({
          where: { id: attempt.captureId },
          data: {
            status,
            runToken: status === "queued" ? null : capture.runToken,
            lastError: status === "queued" ? "Worker stopped responding; running again" : status === "failed" ? "Worker stopped responding; outcome unknown, not retried again" : "Cancelled by user",
            lastErrorClass: "unknown",
            finishedAt: status === "queued" ? null : new Date(),
          },
        });
        await tx.event.create({ data: { workspaceId: capture.workspaceId, checkId: capture.checkId, captureId: attempt.captureId, kind: "lease_expired", data: { runToken: attempt.runToken } } });
        if (status === "queued") {
          requeue.push(attempt.captureId);
          recovered++;
        } else failed++;
      }
      // The unlocked job would run again anyway; enqueueing by key makes sure one exists.
      await enqueueCaptureJobs(tx, { captureIds: requeue });
      for (const checkId of checkIds) await refreshCheck(tx, checkId);
      await tx.workerHeartbeat.updateMany({ where: { workerId: { in: workerIds } }, data: { expiredAt: new Date(), status: "expired" } });
      return { workers: workerIds, recovered, failed };
    },
    { timeout: 60_000 },
  );
}
