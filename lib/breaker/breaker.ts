import "server-only";
import { randomUUID } from "node:crypto";
import { pausePoint } from "@/lib/db/pause-points";
import { db } from "@/lib/db/prisma";
import { transaction } from "@/lib/db/transaction";
import { Prisma } from "@/lib/generated/prisma/client";

// A circuit breaker per connection and model, shared by every worker process and workspace (DESIGN.md
// "Circuit breaker"). Its state is a row in breaker_states, changed only under that row's lock,
// and every time comparison uses the database clock, so processes on different machines agree
// and no local clock jump can open or close it.

/** A breaker belongs to a connection and model, shared by every workspace that uses them. */
export type BreakerKey = { connectionId: string; model: string };

export type BreakerConfig = BreakerKey & {
  breakerWindowSize: number;
  breakerMinCalls: number;
  breakerFailureRatePct: number;
  breakerOpenSeconds: number;
  breakerSlowCallMs: number;
  breakerSlowCallIsFailure: boolean;
  breakerProbeTimeoutMs: number;
};

/** After its timeout, a probe has this long to record its outcome before it is handed out again. */
export const PROBE_SLACK_MS = 10_000;

export type Permission =
  | { allowed: true; probeToken: string | null }
  /** Ask again after `retryInMs` (measured on the database clock). */
  | { allowed: false; retryInMs: number };

type Tx = Prisma.TransactionClient;

/** A breaker's row at a glance, read without its lock (null: no row yet, which is closed). */
export type BreakerGlance = { status: string; forcedStatus: string | null };

type StateRow = {
  status: "closed" | "open" | "half_open";
  forcedStatus: "closed" | "open" | "half_open" | null;
  openUntil: Date | null;
  probeToken: string | null;
  probeStartedAt: Date | null;
  probeUntil: Date | null;
  recentFailures: boolean[];
  now: Date;
};

const where = (key: BreakerKey) => Prisma.sql`"connectionId" = ${key.connectionId}::uuid AND model = ${key.model}`;

async function lockState(tx: Tx, key: BreakerKey): Promise<StateRow> {
  await tx.$executeRaw`INSERT INTO breaker_states ("connectionId", model, "updatedAt") VALUES (${key.connectionId}::uuid, ${key.model}, now()) ON CONFLICT DO NOTHING`;
  const [row] = await tx.$queryRaw<StateRow[]>`
    SELECT status::text AS status, "forcedStatus"::text AS "forcedStatus", "openUntil", "probeToken", "probeStartedAt", "probeUntil", "recentFailures",
           (now() AT TIME ZONE 'UTC') AS now
    FROM breaker_states WHERE ${where(key)} FOR UPDATE`;
  return row!;
}

async function shortCircuit(tx: Tx, key: BreakerKey, retryInMs: number): Promise<Permission> {
  await tx.$executeRaw`UPDATE breaker_states SET "shortCircuitCount" = "shortCircuitCount" + 1, "updatedAt" = now() WHERE ${where(key)}`;
  return { allowed: false, retryInMs: Math.max(1, Math.round(retryInMs)) };
}

/**
 * Asked before every call. Closed: go. Open: no call (the capture is postponed until the breaker
 * may half-open). After the open period exactly one caller across all processes gets the probe;
 * everyone else waits for its outcome. A probe whose worker vanished is given away after the
 * probe's own timeout (plus slack).
 */
export async function acquirePermission(config: BreakerConfig, read?: BreakerGlance | null): Promise<Permission> {
  // Fast path, no lock: a closed breaker (the usual case) lets the call through. The caller may
  // have read the row already (a run loads it with its capture: one round trip fewer).
  const quick =
    read !== undefined
      ? read
      : (await db().$queryRaw<BreakerGlance[]>`SELECT status::text AS status, "forcedStatus"::text AS "forcedStatus" FROM breaker_states WHERE ${where(config)}`)[0];
  if (!quick || quick.forcedStatus === "closed" || (quick.status === "closed" && !quick.forcedStatus)) return { allowed: true, probeToken: null };

  return transaction(async (tx) => {
    const state = await lockState(tx, config);
    const now = state.now.getTime();
    const openFor = config.breakerOpenSeconds * 1000;
    if (state.forcedStatus === "closed") return { allowed: true, probeToken: null };
    if (state.forcedStatus === "open") return shortCircuit(tx, config, openFor);
    if (state.status === "closed") return { allowed: true, probeToken: null };

    if (state.status === "open" && state.openUntil && state.openUntil.getTime() > now) {
      return shortCircuit(tx, config, state.openUntil.getTime() - now);
    }
    // Judged by the probe's own timeout, stamped when it was handed out: an operator may have
    // changed the timeout since, and the probe still runs with the one it was given.
    const probeAlive =
      state.status === "half_open" &&
      state.probeToken &&
      (state.probeUntil ? state.probeUntil.getTime() > now : state.probeStartedAt && now - state.probeStartedAt.getTime() < config.breakerProbeTimeoutMs + PROBE_SLACK_MS);
    if (probeAlive) return shortCircuit(tx, config, Math.min(openFor, 5_000));

    const probeToken = randomUUID();
    await tx.$executeRaw`
      UPDATE breaker_states SET status = 'half_open', "probeToken" = ${probeToken}::uuid, "probeStartedAt" = now() AT TIME ZONE 'UTC',
        "probeUntil" = (now() AT TIME ZONE 'UTC') + make_interval(secs => ${(config.breakerProbeTimeoutMs + PROBE_SLACK_MS) / 1000}::float8), "updatedAt" = now()
      WHERE ${where(config)}`;
    return { allowed: true, probeToken };
  });
}

/** Gives the probe back unused (the capture could not run after all), so another caller can probe. */
export async function releaseProbe(key: BreakerKey, probeToken: string): Promise<void> {
  await db().$executeRaw`
    UPDATE breaker_states SET status = 'open', "probeToken" = NULL, "probeStartedAt" = NULL, "openUntil" = now() AT TIME ZONE 'UTC', "updatedAt" = now()
    WHERE ${where(key)} AND "probeToken" = ${probeToken}::uuid`;
}

export type CallOutcome = "success" | "failure" | "ignored";

/**
 * Records a call's outcome. Failures are transient errors, timeouts and unusable answers;
 * permanent client errors and our own aborts are `ignored`. Slow successes are counted apart and,
 * when configured, as failures.
 */
export async function recordCall(config: BreakerConfig, outcome: CallOutcome, latencyMs: number, probeToken: string | null): Promise<void> {
  const { failed, slow } = countedAs(config, outcome, latencyMs);
  if (!probeToken && outcome === "ignored") return;
  if (!probeToken && (await recordWhileClosed(config, failed, slow))) return;
  await transaction(async (tx) => {
    const state = await lockState(tx, config);
    const counters = counterUpdates(outcome, failed, slow);
    if (probeToken && state.probeToken === probeToken) {
      if (outcome === "ignored") {
        await tx.$executeRaw`UPDATE breaker_states SET status = 'open', "probeToken" = NULL, "probeStartedAt" = NULL, "openUntil" = now() AT TIME ZONE 'UTC', "updatedAt" = now() WHERE ${where(config)}`;
        return;
      }
      if (failed) await open(tx, config, counters);
      else {
        await recordTransition(tx, config, "breaker_closed");
        await tx.breakerState.update({ where: { connectionId_model: { connectionId: config.connectionId, model: config.model } }, data: { ...counters, status: "closed", recentFailures: [], probeToken: null, probeStartedAt: null, openedAt: null, openUntil: null } });
      }
      return;
    }
    if (outcome === "ignored") return;
    if (state.status !== "closed" || state.forcedStatus) {
      // A call that started before the breaker opened, or one an admin let through a forced
      // breaker: count it, but the window is paused.
      await tx.breakerState.update({ where: { connectionId_model: { connectionId: config.connectionId, model: config.model } }, data: counters });
      return;
    }
    const window = [...state.recentFailures, failed].slice(-config.breakerWindowSize);
    if (overThreshold(config, window)) {
      await open(tx, config, counters);
    } else {
      await tx.breakerState.update({ where: { connectionId_model: { connectionId: config.connectionId, model: config.model } }, data: { ...counters, recentFailures: window } });
    }
  });
}

/**
 * How a call counts: failures are transient errors, timeouts and unusable answers; a success
 * slower than the connection's slow-call threshold is slow, and a failure when so configured.
 */
export function countedAs(config: BreakerConfig, outcome: CallOutcome, latencyMs: number): { failed: boolean; slow: boolean } {
  const slow = outcome === "success" && latencyMs > config.breakerSlowCallMs;
  return { failed: outcome === "failure" || (slow && config.breakerSlowCallIsFailure), slow };
}

/**
 * The common case in one statement (beacon_breaker_count): the breaker is closed, so append the
 * outcome to its window and count it, holding the row lock only for that statement. Only when the
 * window crosses the threshold is the locked transition taken. Returns false when the breaker is
 * not closed (or has no row yet), for the caller to take the locked path.
 */
async function recordWhileClosed(config: BreakerConfig, failed: boolean, slow: boolean): Promise<boolean> {
  const [row] = await db().$queryRaw<{ window: boolean[] | null }[]>`
    SELECT beacon_breaker_count(${config.connectionId}::uuid, ${config.model}, ${failed}, ${slow}, ${config.breakerWindowSize}::int) AS window`;
  if (!row?.window) return false;
  await openIfOverThreshold(config, row.window);
  return true;
}

/** The threshold (DESIGN.md "Circuit breaker"): enough calls in the window, and enough of them failures. */
function overThreshold(config: BreakerConfig, window: boolean[]): boolean {
  const failures = window.filter(Boolean).length;
  return window.length >= config.breakerMinCalls && failures * 100 >= config.breakerFailureRatePct * window.length;
}

/**
 * The breaker opens if its window, as counted, crossed the threshold. For a call counted by
 * recordWhileClosed, or by its result's statement (lib/lifecycle/results.ts). Judged again on
 * the window under the row's lock: an operator's "Automatic" in between starts it over (closed,
 * an empty window), and the failures from before must not open it.
 */
export async function openIfOverThreshold(config: BreakerConfig, window: boolean[]): Promise<void> {
  if (!overThreshold(config, window)) return;
  await pausePoint("breaker:over-threshold");
  await transaction(async (tx) => {
    const state = await lockState(tx, config);
    if (state.status === "closed" && !state.forcedStatus && overThreshold(config, state.recentFailures)) await open(tx, config, {});
  });
}

function counterUpdates(outcome: CallOutcome, failed: boolean, slow: boolean) {
  return {
    ...(outcome !== "ignored" ? (failed ? { failureCount: { increment: 1 } } : { successCount: { increment: 1 } }) : {}),
    ...(slow ? { slowCallCount: { increment: 1 } } : {}),
  };
}

/** Breaker transitions go to the events table (instance-wide: no workspace), for the admin pages and audits. */
async function recordTransition(tx: Tx, key: BreakerKey, kind: "breaker_opened" | "breaker_closed") {
  await tx.$executeRaw`
    INSERT INTO events (id, kind, data, "createdAt")
    SELECT gen_random_uuid(), ${kind}, json_build_object('connectionId', id::text, 'connection', name, 'model', ${key.model}::text)::jsonb, now()
    FROM provider_connections WHERE id = ${key.connectionId}::uuid`;
}

async function open(tx: Tx, config: BreakerConfig, counters: ReturnType<typeof counterUpdates>) {
  await recordTransition(tx, config, "breaker_opened");
  await tx.breakerState.update({ where: { connectionId_model: { connectionId: config.connectionId, model: config.model } }, data: { ...counters, recentFailures: [], probeToken: null, probeStartedAt: null } });
  await tx.$executeRaw`
    UPDATE breaker_states SET status = 'open', "openedAt" = coalesce(CASE WHEN status = 'half_open' THEN "openedAt" END, now() AT TIME ZONE 'UTC'),
      "openUntil" = (now() AT TIME ZONE 'UTC') + make_interval(secs => ${config.breakerOpenSeconds}), "updatedAt" = now()
    WHERE ${where(config)}`;
}

/** Operators hold a breaker open or closed, or give it back to the automatic rules (null). */
export async function forceBreaker(key: BreakerKey, forced: "open" | "closed" | null): Promise<boolean> {
  const connection = await db().providerConnection.findUnique({ where: { id: key.connectionId }, select: { id: true } });
  if (!connection) return false;
  await db().$executeRaw`INSERT INTO breaker_states ("connectionId", model, "updatedAt") VALUES (${key.connectionId}::uuid, ${key.model}, now()) ON CONFLICT DO NOTHING`;
  if (forced === "open") {
    // Open since the database's now (the clock open time is judged by), or since it opened if it already was.
    await db().$executeRaw`
      UPDATE breaker_states SET "forcedStatus" = 'open', "openedAt" = coalesce(CASE WHEN status <> 'closed' THEN "openedAt" END, now() AT TIME ZONE 'UTC'),
        status = 'open', "probeToken" = NULL, "updatedAt" = now()
      WHERE "connectionId" = ${key.connectionId}::uuid AND model = ${key.model}`;
    return true;
  }
  await db().breakerState.update({
    where: { connectionId_model: { connectionId: key.connectionId, model: key.model } },
    data: { forcedStatus: forced, status: "closed", recentFailures: [], probeToken: null, probeStartedAt: null, openUntil: null, openedAt: null },
  });
  return true;
}
