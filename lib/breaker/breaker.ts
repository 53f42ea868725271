import "server-only";
import { randomUUID } from "node:crypto";
import { db } from "@/lib/db/prisma";
import type { Prisma } from "@/lib/generated/prisma/client";

// A circuit breaker per provider configuration, shared by every worker process (DESIGN.md
// "Circuit breaker"). Its state is a row in breaker_states, changed only under that row's lock,
// and every time comparison uses the database clock, so processes on different machines agree
// and no local clock jump can open or close it.

export type BreakerConfig = {
  id: string;
  breakerWindowSize: number;
  breakerMinCalls: number;
  breakerFailureRatePct: number;
  breakerOpenSeconds: number;
  breakerSlowCallMs: number;
  breakerSlowCallIsFailure: boolean;
  timeoutMs: number;
};

export type Permission =
  | { allowed: true; probeToken: string | null }
  | { allowed: false; retryAt: Date };

type Tx = Prisma.TransactionClient;

type StateRow = {
  status: "closed" | "open" | "half_open";
  forcedStatus: "closed" | "open" | "half_open" | null;
  openUntil: Date | null;
  probeToken: string | null;
  probeStartedAt: Date | null;
  recentFailures: boolean[];
  now: Date;
};

async function lockState(tx: Tx, providerConfigId: string): Promise<StateRow> {
  await tx.$executeRaw`INSERT INTO breaker_states ("providerConfigId", "updatedAt") VALUES (${providerConfigId}::uuid, now()) ON CONFLICT DO NOTHING`;
  const [row] = await tx.$queryRaw<StateRow[]>`
    SELECT status::text AS status, "forcedStatus"::text AS "forcedStatus", "openUntil", "probeToken", "probeStartedAt", "recentFailures",
           (now() AT TIME ZONE 'UTC') AS now
    FROM breaker_states WHERE "providerConfigId" = ${providerConfigId}::uuid FOR UPDATE`;
  return row!;
}

async function shortCircuit(tx: Tx, providerConfigId: string, retryAt: Date): Promise<Permission> {
  await tx.$executeRaw`UPDATE breaker_states SET "shortCircuitCount" = "shortCircuitCount" + 1, "updatedAt" = now() WHERE "providerConfigId" = ${providerConfigId}::uuid`;
  return { allowed: false, retryAt };
}

/**
 * Asked before every call. Closed: go. Open: no call (the capture is postponed until the breaker
 * may half-open). After the open period exactly one caller across all processes gets the probe;
 * everyone else waits for its outcome. A probe whose worker vanished is given away after the
 * provider's timeout.
 */
export async function acquirePermission(config: BreakerConfig): Promise<Permission> {
  return db().$transaction(async (tx) => {
    const state = await lockState(tx, config.id);
    const now = state.now.getTime();
    const openFor = config.breakerOpenSeconds * 1000;
    if (state.forcedStatus === "closed") return { allowed: true, probeToken: null };
    if (state.forcedStatus === "open") return shortCircuit(tx, config.id, new Date(Date.now() + openFor));
    if (state.status === "closed") return { allowed: true, probeToken: null };

    if (state.status === "open" && state.openUntil && state.openUntil.getTime() > now) {
      return shortCircuit(tx, config.id, new Date(Date.now() + (state.openUntil.getTime() - now)));
    }
    const probeAlive = state.status === "half_open" && state.probeToken && state.probeStartedAt && now - state.probeStartedAt.getTime() < config.timeoutMs + 10_000;
    if (probeAlive) return shortCircuit(tx, config.id, new Date(Date.now() + Math.min(openFor, 5_000)));

    const probeToken = randomUUID();
    await tx.$executeRaw`
      UPDATE breaker_states SET status = 'half_open', "probeToken" = ${probeToken}::uuid, "probeStartedAt" = now() AT TIME ZONE 'UTC', "updatedAt" = now()
      WHERE "providerConfigId" = ${config.id}::uuid`;
    return { allowed: true, probeToken };
  });
}

/** Gives the probe back unused (the capture could not run after all), so another caller can probe. */
export async function releaseProbe(providerConfigId: string, probeToken: string): Promise<void> {
  await db().$executeRaw`
    UPDATE breaker_states SET status = 'open', "probeToken" = NULL, "probeStartedAt" = NULL, "openUntil" = now() AT TIME ZONE 'UTC', "updatedAt" = now()
    WHERE "providerConfigId" = ${providerConfigId}::uuid AND "probeToken" = ${probeToken}::uuid`;
}

export type CallOutcome = "success" | "failure" | "ignored";

/**
 * Records a call's outcome. Failures are transient errors, timeouts and unusable answers;
 * permanent client errors and our own aborts are `ignored`. Slow successes are counted apart and,
 * when configured, as failures.
 */
export async function recordCall(config: BreakerConfig, outcome: CallOutcome, latencyMs: number, probeToken: string | null): Promise<void> {
  const slow = outcome === "success" && latencyMs > config.breakerSlowCallMs;
  const failed = outcome === "failure" || (slow && config.breakerSlowCallIsFailure);
  await db().$transaction(async (tx) => {
    const state = await lockState(tx, config.id);
    const counters = counterUpdates(outcome, failed, slow);
    if (probeToken && state.probeToken === probeToken) {
      if (outcome === "ignored") {
        await tx.$executeRaw`UPDATE breaker_states SET status = 'open', "probeToken" = NULL, "probeStartedAt" = NULL, "openUntil" = now() AT TIME ZONE 'UTC', "updatedAt" = now() WHERE "providerConfigId" = ${config.id}::uuid`;
        return;
      }
      if (failed) await open(tx, config, counters);
      else await tx.breakerState.update({ where: { providerConfigId: config.id }, data: { ...counters, status: "closed", recentFailures: [], probeToken: null, probeStartedAt: null, openedAt: null, openUntil: null } });
      return;
    }
    if (outcome === "ignored") return;
    if (state.status !== "closed") {
      // A call that started before the breaker opened: count it, but the window is paused.
      await tx.breakerState.update({ where: { providerConfigId: config.id }, data: counters });
      return;
    }
    const window = [...state.recentFailures, failed].slice(-config.breakerWindowSize);
    const failures = window.filter(Boolean).length;
    if (window.length >= config.breakerMinCalls && failures * 100 >= config.breakerFailureRatePct * window.length) {
      await open(tx, config, counters);
    } else {
      await tx.breakerState.update({ where: { providerConfigId: config.id }, data: { ...counters, recentFailures: window } });
    }
  });
}

function counterUpdates(outcome: CallOutcome, failed: boolean, slow: boolean) {
  return {
    ...(outcome !== "ignored" ? (failed ? { failureCount: { increment: 1 } } : { successCount: { increment: 1 } }) : {}),
    ...(slow ? { slowCallCount: { increment: 1 } } : {}),
  };
}

async function open(tx: Tx, config: BreakerConfig, counters: ReturnType<typeof counterUpdates>) {
  await tx.breakerState.update({ where: { providerConfigId: config.id }, data: { ...counters, recentFailures: [], probeToken: null, probeStartedAt: null } });
  await tx.$executeRaw`
    UPDATE breaker_states SET status = 'open', "openedAt" = coalesce(CASE WHEN status = 'half_open' THEN "openedAt" END, now() AT TIME ZONE 'UTC'),
      "openUntil" = (now() AT TIME ZONE 'UTC') + make_interval(secs => ${config.breakerOpenSeconds}), "updatedAt" = now()
    WHERE "providerConfigId" = ${config.id}::uuid`;
}

/** Admins hold a breaker open or closed, or give it back to the automatic rules (null). */
export async function forceBreaker(workspaceId: string, providerConfigId: string, forced: "open" | "closed" | null): Promise<boolean> {
  const config = await db().providerConfig.findFirst({ where: { id: providerConfigId, workspaceId }, select: { id: true } });
  if (!config) return false;
  await db().$executeRaw`INSERT INTO breaker_states ("providerConfigId", "updatedAt") VALUES (${providerConfigId}::uuid, now()) ON CONFLICT DO NOTHING`;
  await db().breakerState.update({
    where: { providerConfigId },
    data:
      forced === "open"
        ? { forcedStatus: "open", status: "open", openedAt: new Date(), probeToken: null }
        : { forcedStatus: forced, status: "closed", recentFailures: [], probeToken: null, probeStartedAt: null, openUntil: null, openedAt: null },
  });
  return true;
}
