// The demo workspace, checks started through lib/checks/create-check.ts, and the reads the
// pipeline tests make of what the workers stored. Prisma is used only to look, and to arrange
// what the tests vary (provider configurations, extra members).
import { randomUUID } from "node:crypto";
import { afterEach } from "vitest";
import { forceBreaker } from "@/lib/breaker/breaker";
import type { Caller } from "@/lib/checks/cancel-retry";
import { requestCheckCancel, runCheckOperation } from "@/lib/checks/operations";
import { createCheck, type CheckRequest } from "@/lib/checks/create-check";
import { hashRequest } from "@/lib/idempotency";
import { isCheckFinished, type CheckStatus } from "@/lib/captures/states";
import { checkTally } from "@/lib/captures/check-counts";
import { db } from "@/lib/db/prisma";
import { UserError } from "@/lib/errors";
import type { Prisma } from "@/lib/generated/prisma/client";
import { DEFAULT_CONNECTIONS } from "@/lib/providers/defaults";
import { DEMO_LOGIN, DEMO_WORKSPACE } from "@/lib/seed/demo-content";
import { seedDemo } from "@/lib/seed/demo";
import { waitFor } from "./wait-for";

export type ProviderName = "ChatGPT" | "Perplexity" | "Gemini" | "Claude";
export const PROVIDER_NAMES: ProviderName[] = ["ChatGPT", "Perplexity", "Gemini", "Claude"];

export type Demo = {
  workspaceId: string;
  /** The demo's providers; each runs on its own simulator connection (shared with every workspace of the file's database). */
  providers: Record<ProviderName, { id: string; name: string; connectionId: string; model: string }>;
  /** The demo prompts, oldest first. */
  promptIds: string[];
  owner: Caller;
  admin: Caller;
  member: Caller;
  viewer: Caller;
};

async function addMember(workspaceId: string, role: "admin" | "member" | "viewer"): Promise<Caller> {
  const user = await db().user.create({ data: { id: randomUUID(), name: `Pipeline ${role}`, email: `pipeline.${role}.${randomUUID().slice(0, 8)}@example.com` } });
  await db().membership.create({ data: { workspaceId, userId: user.id, role } });
  return { workspaceId, userId: user.id, role };
}

/** Seeds the demo workspace (lib/seed/demo.ts) and adds an admin, a member and a viewer. */
export async function setUpDemo(): Promise<Demo> {
  await seedDemo();
  const workspace = await db().workspace.findUniqueOrThrow({ where: { slug: DEMO_WORKSPACE.slug } });
  const ownerUser = await db().user.findUniqueOrThrow({ where: { email: DEMO_LOGIN.email } });
  // The four assistants a demo check asks; the demo's other simulated engines are switched off.
  const configs = await db().providerConfig.findMany({ where: { workspaceId: workspace.id, enabled: true } });
  const providers = Object.fromEntries(configs.map((c) => [c.name, { id: c.id, name: c.name, connectionId: c.connectionId, model: c.model }])) as Demo["providers"];
  const prompts = await db().prompt.findMany({ where: { workspaceId: workspace.id }, orderBy: { createdAt: "asc" }, select: { id: true } });
  return {
    workspaceId: workspace.id,
    providers,
    promptIds: prompts.map((p) => p.id),
    owner: { workspaceId: workspace.id, userId: ownerUser.id, role: "owner" },
    admin: await addMember(workspace.id, "admin"),
    member: await addMember(workspace.id, "member"),
    viewer: await addMember(workspace.id, "viewer"),
  };
}

/**
 * Puts the demo providers and their simulator connections back to the defaults
 * (lib/providers/defaults.ts) and every breaker back to automatic and closed.
 */
export async function resetProviders(demo: Demo): Promise<void> {
  for (const name of PROVIDER_NAMES) {
    const provider = demo.providers[name];
    const defaults = DEFAULT_CONNECTIONS.find((c) => c.providerName === name)!;
    await db().providerConfig.update({ where: { id: provider.id }, data: { enabled: true } });
    await db().providerConnection.update({
      where: { id: provider.connectionId },
      data: { maxConcurrency: 4, maxAttempts: 3, unknownRetries: 1, timeoutMs: 120_000, enabled: true, settings: defaults.settings as Prisma.InputJsonValue },
    });
    await forceBreaker({ connectionId: provider.connectionId, model: provider.model }, null);
  }
}

/** Changes a demo provider's connection (cap, retries, timeouts): connections are the instance's. */
export async function setConnection(demo: Demo, name: ProviderName, data: Prisma.ProviderConnectionUpdateInput): Promise<void> {
  await db().providerConnection.update({ where: { id: demo.providers[name].connectionId }, data });
}

/**
 * A check's cancel asked and run at once, as a worker runs its job (lib/checks/operations.ts): for
 * tests that need a check cancelled before what they look at. A worker of the test may run the
 * job first; either way this waits until it has ended. Refused as the request is (a UserError), or
 * as the job ends it; answers its result.
 */
export async function cancelCheckNow(caller: Caller, checkId: string): Promise<{ cancelledNow: number; aborting: number }> {
  const { operationId } = await requestCheckCancel(caller, checkId);
  await runCheckOperation(operationId);
  // Its job, if no worker holds it: run here, as the worker would have (complete_jobs leaves a locked one).
  await db().$executeRaw`
    SELECT graphile_worker.complete_jobs(ARRAY(SELECT id FROM graphile_worker._private_jobs WHERE payload->>'operationId' = ${operationId}))`;
  const operation = await waitFor(
    async () => {
      const row = await db().checkOperation.findUniqueOrThrow({ where: { id: operationId } });
      return row.status === "completed" || row.status === "failed" ? row : null;
    },
    { what: `the cancel of check ${checkId} to end`, timeoutMs: 30_000, intervalMs: 20 },
  );
  if (operation.status === "failed") throw new UserError(operation.error ?? "The cancel failed.");
  return operation.result as { cancelledNow: number; aborting: number };
}

/**
 * Cancels every check of the workspace that has not finished, so that nothing a test left
 * behind (after a failure) runs during the next one.
 */
export async function cancelUnfinishedChecks(demo: Demo): Promise<void> {
  const unfinished = await db().check.findMany({ where: { workspaceId: demo.workspaceId, status: { in: ["queued", "running"] } }, select: { id: true } });
  for (const { id } of unfinished) await cancelCheckNow(demo.owner, id).catch(() => {});
}

export type SimulatorSettings = { errorRate?: number; permanentErrorRate?: number; timeoutRate?: number; latencyMinMs?: number; latencyMaxMs?: number };

/** Changes a simulator provider's connection settings (what a worker uses where no SIMULATOR_* variable is set). */
export async function setSimulator(demo: Demo, name: ProviderName, changes: SimulatorSettings): Promise<void> {
  const where = { id: demo.providers[name].connectionId };
  const connection = await db().providerConnection.findUniqueOrThrow({ where });
  await db().providerConnection.update({ where, data: { settings: { ...(connection.settings as Record<string, unknown>), ...changes } } });
}

export type CheckBody = Pick<CheckRequest, "prompts" | "providers" | "samples">;

export const newIdempotencyKey = () => `it-${randomUUID()}`;

/** Starts a check the way the form does: one key per submission, the hash of the body sent. */
export function startCheck(demo: Demo, body: CheckBody, idempotencyKey = newIdempotencyKey()) {
  return createCheck({ workspaceId: demo.workspaceId, idempotencyKey, requestHash: hashRequest(body), startedById: demo.owner.userId, ...body });
}

/** The check's row with its captures' counts and holds (lib/captures/check-counts.ts), read together. */
export async function checkRow(checkId: string) {
  // The check first, then its captures' counts, as the product reads them: a check is finished
  // only after its last capture's transition committed, so counts read after a finished check
  // see every capture ended. Read side by side, the counts could predate the check's status.
  const row = await db().check.findUniqueOrThrow({ where: { id: checkId } });
  const tally = await checkTally(checkId);
  return { ...row, ...tally };
}

export function capturesOf(checkId: string) {
  return db().capture.findMany({ where: { checkId }, include: { attempts: { orderBy: { number: "asc" } } }, orderBy: { id: "asc" } });
}

export function attemptsOf(checkId: string) {
  return db().attempt.findMany({ where: { capture: { checkId } }, orderBy: { startedAt: "asc" } });
}

export function eventsOf(checkId: string) {
  return db().event.findMany({ where: { checkId }, orderBy: { createdAt: "asc" } });
}

/** This month's budget (database clock) of the workspace, summed over its ledger shards. */
export async function budgetPeriod(workspaceId: string) {
  const [row] = await db().$queryRaw<{ reservedMicros: bigint | null; inFlightMicros: bigint | null; chargedMicros: bigint | null }[]>`
    SELECT sum("reservedMicros")::bigint AS "reservedMicros", sum("inFlightMicros")::bigint AS "inFlightMicros", sum("chargedMicros")::bigint AS "chargedMicros" FROM budget_periods
    WHERE "workspaceId" = ${workspaceId}::uuid AND "periodStart" = date_trunc('month', now() AT TIME ZONE 'UTC')::date`;
  return { reservedMicros: row?.reservedMicros ?? 0n, inFlightMicros: row?.inFlightMicros ?? 0n, chargedMicros: row?.chargedMicros ?? 0n };
}

export const isTerminal = isCheckFinished;

/** Waits until the check's status is terminal; returns the check row. */
export async function waitForCheckToFinish(checkId: string, timeoutMs: number, details?: () => string) {
  let state = "";
  return waitFor(
    async () => {
      const check = await checkRow(checkId);
      state = `${check.status}, captures ${JSON.stringify(await captureStatusCounts(checkId))}`;
      return isTerminal(check.status) ? check : null;
    },
    { what: `check ${checkId} to finish`, timeoutMs, intervalMs: 100, details: () => `state: ${state}${details ? `\n${details()}` : ""}` },
  );
}

/** A capture's status counts, for failure messages. */
export async function captureStatusCounts(checkId: string): Promise<Record<string, number>> {
  const rows = await db().capture.groupBy({ by: ["status"], where: { checkId }, _count: true });
  return Object.fromEntries(rows.map((r) => [r.status, r._count]));
}

const samplers = new Set<{ stop: () => Promise<unknown> }>();

// A test that fails while sampling leaves no loop running behind it.
afterEach(async () => {
  await Promise.all([...samplers].map((s) => s.stop().catch(() => {})));
});

/**
 * Runs `probe` every `intervalMs` in the background until `stop()`, which resolves with every
 * snapshot taken. Observation only: tests still wait with waitFor.
 */
export function sample<T>(probe: () => Promise<T>, intervalMs = 25): { stop: () => Promise<T[]> } {
  const snapshots: T[] = [];
  let stopped = false;
  let failure: unknown;
  const loop = (async () => {
    while (!stopped) {
      try {
        snapshots.push(await probe());
      } catch (error) {
        failure = error;
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, intervalMs));
    }
  })();
  const sampler = {
    stop: async () => {
      stopped = true;
      samplers.delete(sampler);
      await loop;
      if (failure) throw failure;
      return snapshots;
    },
  };
  samplers.add(sampler);
  return sampler;
}

/**
 * The largest number of intervals that are open at one instant. An interval is [start, end];
 * one that ends exactly when another starts does not overlap it (the slot was handed over).
 */
export function maxOverlap(intervals: { start: Date; end: Date }[]): number {
  const points = intervals.flatMap((i) => [
    { at: i.start.getTime(), delta: 1 },
    { at: i.end.getTime(), delta: -1 },
  ]);
  points.sort((a, b) => a.at - b.at || a.delta - b.delta);
  let open = 0;
  let max = 0;
  for (const p of points) {
    open += p.delta;
    max = Math.max(max, open);
  }
  return max;
}

export type { CheckStatus };
