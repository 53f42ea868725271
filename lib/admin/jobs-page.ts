import "server-only";
import { createHash } from "node:crypto";
import { databaseNow } from "@/lib/db/clock";
import { pausePoint } from "@/lib/db/pause-points";
import { db } from "@/lib/db/prisma";
import type { CaptureStatus, Prisma } from "@/lib/generated/prisma/client";
import { UNFINISHED_STATUSES, WAITING_STATUSES } from "@/lib/captures/states";
import { listRecentWorkers } from "@/lib/jobs/heartbeats";

export type AdminCaptureFilters = { status?: CaptureStatus; providerConfigId?: string; checkId?: string; page: number; pageSize: number };

/** Captures across all checks of the workspace, newest first, for the admin jobs page. */
export async function listCapturesForAdmin(workspaceId: string, filters: AdminCaptureFilters) {
  const where: Prisma.CaptureWhereInput = {
    workspaceId,
    ...(filters.status ? { status: filters.status } : {}),
    ...(filters.providerConfigId ? { providerConfigId: filters.providerConfigId } : {}),
    ...(filters.checkId ? { checkId: filters.checkId } : {}),
  };
  // Whether work is left is read before the rows, never beside them: an answer that says none is
  // left (the page stops polling) then holds the rows as that work left them.
  const busy = hasWorkToEnd(await queueStats(workspaceId));
  await pausePoint("jobs:between-reads");
  const [items, total] = await Promise.all([
    db().capture.findMany({
      where,
      orderBy: [{ createdAt: "desc" }, { sample: "asc" }, { id: "asc" }],
      skip: (filters.page - 1) * filters.pageSize,
      take: filters.pageSize,
      select: {
        id: true,
        checkId: true,
        status: true,
        sample: true,
        attemptCount: true,
        spentAttempts: true,
        maxAttempts: true,
        lastError: true,
        latencyMs: true,
        costMicros: true,
        nextAttemptAt: true,
        waitingFor: true,
        updatedAt: true,
        cancelRequestedAt: true,
        prompt: { select: { text: true } },
        providerConfig: { select: { name: true } },
        check: { select: { startedById: true } },
      },
    }),
    db().capture.count({ where }),
  ]);
  return {
    busy,
    items: items.map(({ costMicros, cancelRequestedAt, check, ...c }) => ({ ...c, startedById: check.startedById, costMicros: Number(costMicros), cancelRequested: cancelRequestedAt !== null })),
    total,
    page: filters.page,
    pageSize: filters.pageSize,
  };
}

/**
 * Whether the workspace has work to end: captures waiting or running, other than those waiting for
 * budget (they may wait for weeks). The Jobs list polls while this holds, since a filtered view
 * (say, failed) shows no unfinished row but gains rows as work ends.
 */
const hasWorkToEnd = (q: Awaited<ReturnType<typeof queueStats>>) => q.queued + q.retryWait + q.postponed + q.running > 0;

/** Queue depth of the workspace (captures waiting to run) and how long the oldest has waited. */
export async function queueStats(workspaceId: string) {
  const [row] = await db().$queryRaw<{ queued: bigint; retry_wait: bigint; postponed: bigint; budget: bigint; running: bigint; oldest: Date | null }[]>`
    SELECT count(*) FILTER (WHERE status = 'queued') AS queued,
           count(*) FILTER (WHERE status = 'retry_wait') AS retry_wait,
           count(*) FILTER (WHERE status = 'postponed' AND "waitingFor" IS DISTINCT FROM 'budget') AS postponed,
           count(*) FILTER (WHERE status = 'postponed' AND "waitingFor" = 'budget') AS budget,
           count(*) FILTER (WHERE status = 'running') AS running,
           min(coalesce("nextAttemptAt", "createdAt")) FILTER (WHERE status = ANY(${[...WAITING_STATUSES]}::"CaptureStatus"[]) AND (status = 'queued' OR "nextAttemptAt" <= now())) AS oldest
    FROM captures WHERE "workspaceId" = ${workspaceId}::uuid AND status = ANY(${[...UNFINISHED_STATUSES]}::"CaptureStatus"[])`;
  return {
    queued: Number(row?.queued ?? 0),
    retryWait: Number(row?.retry_wait ?? 0),
    postponed: Number(row?.postponed ?? 0),
    waitingForBudget: Number(row?.budget ?? 0),
    running: Number(row?.running ?? 0),
    oldestWaitingSince: row?.oldest ?? null,
  };
}

/** By the database's clock, as leases are given and judged (a web server whose clock is off saw live workers dead). */
export async function workersOverview() {
  return listRecentWorkers(await databaseNow());
}

/**
 * The workers as a workspace admin who is not an operator sees them: alive or not, their status
 * and lease, but not the machines' names and process ids (instance details, for operators only;
 * docs/operating.md), each named by an opaque, stable label instead.
 */
export async function workersOverviewFor(viewer: { isOperator: boolean }) {
  const workers = await workersOverview();
  if (viewer.isOperator) return workers;
  return workers.map(({ workerId, ...worker }) => ({ ...worker, workerId: createHash("sha256").update(workerId).digest("hex").slice(0, 8), hostname: null, pid: null }));
}
