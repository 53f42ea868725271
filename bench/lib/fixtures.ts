// The benchmark's data: the demo workspace (lib/seed/demo.ts) plus enough prompts for a
// 2,000-capture check, checks started through lib/checks/create-check.ts, and the reads the
// measurements make. Import only after setDatabaseUrl() (lib/db/prisma.ts reads it).
import { randomUUID } from "node:crypto";
import { requestCheckCancel } from "@/lib/checks/operations";
import { createCheck } from "@/lib/checks/create-check";
import { hashRequest } from "@/lib/idempotency";
import { isCheckFinished } from "@/lib/captures/states";
import { checkTally } from "@/lib/captures/check-counts";
import { db } from "@/lib/db/prisma";
import { DEMO_LOGIN, DEMO_WORKSPACE } from "@/lib/seed/demo-content";
import { seedDemo } from "@/lib/seed/demo";
import { waitFor } from "./stats";

export type Fixtures = {
  workspaceId: string;
  ownerId: string;
  /** The demo's simulator providers (four), by name. */
  providerIds: string[];
  /** Oldest first: the 12 demo prompts, then the benchmark's. */
  promptIds: string[];
};

export async function prepareFixtures(promptCount: number): Promise<Fixtures> {
  await seedDemo();
  const workspace = await db().workspace.findUniqueOrThrow({ where: { slug: DEMO_WORKSPACE.slug } });
  const owner = await db().user.findUniqueOrThrow({ where: { email: DEMO_LOGIN.email } });
  await db().workspace.update({ where: { id: workspace.id }, data: { monthlyBudgetMicros: null } });
  const existing = await db().prompt.count({ where: { workspaceId: workspace.id } });
  if (existing < promptCount) {
    const base = Date.now() - 60_000; // distinct createdAt values keep "oldest first" stable
    await db().prompt.createMany({
      data: Array.from({ length: promptCount - existing }, (_, i) => ({
        workspaceId: workspace.id,
        text: `Benchmark question ${i + 1}: which CRM would you recommend for a team of ${5 + (i % 200)} people?`,
        tags: ["bench"],
        createdAt: new Date(base + i),
      })),
    });
  }
  const prompts = await db().prompt.findMany({ where: { workspaceId: workspace.id }, orderBy: [{ createdAt: "asc" }, { id: "asc" }], select: { id: true } });
  // The demo also lists the real provider APIs, "not configured" without keys: simulators only.
  const providers = await db().providerConfig.findMany({ where: { workspaceId: workspace.id, enabled: true, connection: { adapter: "simulator" } }, orderBy: { name: "asc" }, select: { id: true } });
  return { workspaceId: workspace.id, ownerId: owner.id, providerIds: providers.map((p) => p.id), promptIds: prompts.map((p) => p.id) };
}

/** Concurrency cap of every connection the workspace's providers use (the default is 4). */
export async function setProviderCaps(fx: Fixtures, maxConcurrency: number): Promise<void> {
  const providers = await db().providerConfig.findMany({ where: { workspaceId: fx.workspaceId, enabled: true }, select: { connectionId: true } });
  await db().providerConnection.updateMany({ where: { id: { in: providers.map((p) => p.connectionId) } }, data: { maxConcurrency } });
}

/** One click of "Check" with a fresh idempotency key, the way the form sends it. */
export function startCheck(fx: Fixtures, promptIds: string[], providerIds = fx.providerIds) {
  const body = { prompts: { mode: "picked" as const, promptIds }, providers: { ids: providerIds }, samples: 1 };
  return createCheck({ workspaceId: fx.workspaceId, idempotencyKey: `bench-${randomUUID()}`, requestHash: hashRequest(body), startedById: fx.ownerId, ...body });
}

/** The check's row with its captures' counts (lib/captures/check-counts.ts). */
export const checkRow = async (checkId: string) => ({ ...(await db().check.findUniqueOrThrow({ where: { id: checkId } })), ...(await checkTally(checkId)) });

/** The check once it is terminal, or null after `timeoutMs`. */
export function waitForCheck(checkId: string, timeoutMs: number, intervalMs = 20) {
  const probe = async () => {
    const check = await checkRow(checkId);
    return isCheckFinished(check.status) ? check : null;
  };
  return waitFor(probe, timeoutMs, intervalMs);
}

/** Cancels a check that overran its time limit, as its owner would, while workers run (they run the cancel's job). */
export async function cancelLeftover(fx: Fixtures, checkId: string): Promise<void> {
  await requestCheckCancel({ workspaceId: fx.workspaceId, userId: fx.ownerId, role: "owner" }, checkId);
}

/**
 * Removes checks that were created only to be timed (no worker ran them) together with their
 * waiting graphile-worker jobs, so that they do not sit in the queue of later measurements.
 * Benchmark-only: it deletes from graphile-worker's private table on a throwaway database.
 */
export async function discardChecks(checkIds: string[]): Promise<void> {
  if (!checkIds.length) return;
  await db().$executeRaw`
    DELETE FROM graphile_worker._private_jobs
    WHERE key IN (SELECT 'capture:' || id FROM captures WHERE "checkId" = ANY(${checkIds}::uuid[]))`;
  await db().check.deleteMany({ where: { id: { in: checkIds } } });
}

/** Waiting jobs and running captures: both must be zero between measurements. */
export async function queueState(): Promise<{ jobs: number; running: number }> {
  const [row] = await db().$queryRaw<{ jobs: bigint; running: bigint }[]>`
    SELECT (SELECT count(*) FROM graphile_worker._private_jobs j JOIN graphile_worker._private_tasks t ON t.id = j.task_id WHERE t.identifier = 'capture') AS jobs,
           (SELECT count(*) FROM captures WHERE status = 'running') AS running`;
  return { jobs: Number(row?.jobs ?? 0), running: Number(row?.running ?? 0) };
}

/**
 * graphile-worker's job id sequence. A capture gets one job at check creation; every later job
 * for it is a re-enqueue (a provider found busy at claim time, a retry, a postponement).
 */
export async function jobSequence(): Promise<number> {
  const [row] = await db().$queryRaw<{ n: bigint | null }[]>`
    SELECT pg_sequence_last_value(pg_get_serial_sequence('graphile_worker._private_jobs', 'id')::regclass) AS n`;
  return Number(row?.n ?? 0);
}
