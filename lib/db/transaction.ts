import "server-only";
import { env } from "@/lib/config/env";
import { isPauseArmed, pausePoint, type PauseContext, type PausePoint } from "@/lib/db/pause-points";
import { db } from "@/lib/db/prisma";
import type { Prisma } from "@/lib/generated/prisma/client";

// Every interactive transaction opens here, with time limits chosen on purpose instead of
// Prisma's defaults (2 s to get a connection, 5 s in all), which a loaded machine exceeds: a
// role change queued behind another for a few seconds failed with P2028. And PostgreSQL may end
// a transaction that did nothing wrong: a deadlock's victim (40P01), a serialization failure
// (40001), a lock wait that ran out (55P03); Prisma's own limits end one the same way (P2028).
// Such a transaction has rolled back, so it is run again, as a whole, a bounded number of times.

type Tx = Prisma.TransactionClient;

/** Why a failed transaction may run again; null when it may not. */
export type RetryReason = "serialization_failure" | "deadlock" | "lock_not_available" | "write_conflict" | "transaction_timeout";

const RETRYABLE_SQLSTATES: Record<string, RetryReason> = { "40001": "serialization_failure", "40P01": "deadlock", "55P03": "lock_not_available" };

/**
 * Of Prisma's "Transaction API error" (P2028) only the two that say the transaction never
 * committed: it outlived its timeout (Prisma rolled it back), or it could not start within
 * maxWait. The others (already committed, invalid options, internal errors) must not be retried.
 */
const PRISMA_TIMEOUT = /expired transaction|Unable to start a transaction in the given time/i;

type ErrorShape = { code?: unknown; originalCode?: unknown; message?: unknown; meta?: { code?: unknown; driverAdapterError?: unknown }; cause?: unknown };

/**
 * Whether a failed transaction (or single statement) may run again, and why. Looks at Prisma's
 * code (P2034: a write conflict or deadlock; P2028: see PRISMA_TIMEOUT) and at the SQLSTATE
 * wherever Prisma or pg put it: `code` (pg), `meta.code`, and the driver adapter's error
 * (`meta.driverAdapterError.cause.originalCode`, as in P2010 for raw queries), following `cause`.
 */
export function retryReason(error: unknown): RetryReason | null {
  const seen = new Set<unknown>();
  const pending: unknown[] = [error];
  let prisma: RetryReason | null = null;
  while (pending.length) {
    const e = pending.pop() as ErrorShape | null | undefined;
    if (!e || typeof e !== "object" || seen.has(e)) continue;
    seen.add(e);
    for (const code of [e.code, e.originalCode, e.meta?.code]) {
      if (typeof code !== "string") continue;
      if (Object.hasOwn(RETRYABLE_SQLSTATES, code)) return RETRYABLE_SQLSTATES[code]!;
      // Prisma's code says less than the SQLSTATE it may wrap: kept only if none is found.
      if (code === "P2034") prisma ??= "write_conflict";
      if (code === "P2028" && typeof e.message === "string" && PRISMA_TIMEOUT.test(e.message)) prisma ??= "transaction_timeout";
    }
    pending.push(e.cause, e.meta?.driverAdapterError);
  }
  return prisma;
}

/** The pause before attempt `attempt + 1`: 25 ms doubling per attempt, capped at 1 s, half of it random ("equal jitter"). */
export function retryDelayMs(attempt: number, random: () => number = Math.random): number {
  const step = Math.min(1_000, 25 * 2 ** (attempt - 1));
  return Math.round(step / 2 + (random() * step) / 2);
}

/**
 * Runs `work` and runs it again, after a short random pause, while it fails with an error that
 * `retryReason` accepts; at most `attempts` times in all (BEACON_DB_TRANSACTION_ATTEMPTS), then
 * the last error is thrown. Any other error is thrown at once. `work` must be a whole transaction
 * or one autocommit statement: all or nothing, so a failed run left nothing behind.
 */
export async function withRetries<T>(work: () => Promise<T>, options: { attempts?: number } = {}): Promise<T> {
  const attempts = options.attempts ?? env().BEACON_DB_TRANSACTION_ATTEMPTS;
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if (attempt >= attempts || !retryReason(error)) throw error;
      await new Promise((resolve) => setTimeout(resolve, retryDelayMs(attempt)));
    }
  }
}

export type TransactionOptions = {
  /**
   * For a transaction known to take long (bulk writes, one that opens another): its timeout is
   * at least this; never less than BEACON_DB_TRANSACTION_TIMEOUT_MS.
   */
  timeoutMs?: number;
};

/**
 * Runs `work` in an interactive transaction with the configured time limits
 * (BEACON_DB_TRANSACTION_MAX_WAIT_MS to get a connection, BEACON_DB_TRANSACTION_TIMEOUT_MS in
 * all), and runs it again from the start when it failed for a reason `retryReason` accepts
 * (see withRetries for the bound).
 *
 * `work` MUST be safe to run again: everything it does goes through `tx` (rolled back with the
 * failed attempt), or is idempotent (createCheck with its idempotency key). It must not send,
 * call a provider or change state outside the database that a second run would repeat; values
 * it builds up must be built inside it (a retry starts from nothing). Do that work after the
 * commit, from what the transaction returned.
 */
export function transaction<T>(work: (tx: Tx) => Promise<T>, options: TransactionOptions = {}): Promise<T> {
  const config = env();
  const limits = { maxWait: config.BEACON_DB_TRANSACTION_MAX_WAIT_MS, timeout: Math.max(config.BEACON_DB_TRANSACTION_TIMEOUT_MS, options.timeoutMs ?? 0) };
  return withRetries(() => db().$transaction(work, limits));
}

/** Work to run after the commit of an inTransaction transaction, by key (afterCommit fills it). */
const pendingAfterCommit = new WeakMap<Tx, Map<string, () => Promise<void>>>();

/**
 * Runs `work` in `transaction` (same limits and retries), then, after the commit, what the work
 * registered with `afterCommit`, in the order registered; a failure there is swallowed (the
 * transaction itself has committed: whoever registered it has a later pass that repairs it, as
 * the lifecycle's maintenance pass finishes stale checks).
 */
export async function inTransaction<T>(work: (tx: Tx) => Promise<T>, options: TransactionOptions = {}): Promise<T> {
  const pending = new Map<string, () => Promise<void>>();
  const result = await transaction((tx) => {
    // A run again starts from nothing: what a rolled-back attempt registered does not run.
    pending.clear();
    pendingAfterCommit.set(tx, pending);
    return work(tx);
  }, options);
  for (const run of pending.values()) await run().catch(() => {});
  return result;
}

/**
 * Runs `run` after the commit of the inTransaction transaction `tx` (once per `key`: the first
 * registration of a key wins). Throws when `tx` is not an inTransaction transaction, so that the
 * work is never silently lost.
 */
export function afterCommit(tx: Tx, key: string, run: () => Promise<void>, misuse = "afterCommit needs a transaction started by inTransaction"): void {
  const pending = pendingAfterCommit.get(tx);
  if (!pending) throw new Error(misuse);
  if (!pending.has(key)) pending.set(key, run);
}

/**
 * A write that is one statement (a database function) commits on its own, so that no round trip
 * to this process holds its locks. Retried like inTransaction; what `after` returns for its
 * result runs after the commit. While a test holds its `beforeCommit` point, the statement runs
 * in an inTransaction transaction instead, which stops there (pause-points.ts isPauseArmed).
 */
export async function inOneStatement<T>(
  statement: (client: Tx) => Promise<T>,
  options: {
    /** Where a test may hold it (reached only when `pauseWhen` says so of the result), and the context it passes. */
    beforeCommit: PausePoint;
    context: PauseContext;
    pauseWhen?: (result: T) => boolean;
    /** Work to run after the commit, with its afterCommit key, or null. */
    after?: (result: T) => { key: string; run: () => Promise<void> } | null;
  },
): Promise<T> {
  const { beforeCommit, context, pauseWhen = () => true, after = () => null } = options;
  if (isPauseArmed(beforeCommit)) {
    return inTransaction(async (tx) => {
      const result = await statement(tx);
      const then = after(result);
      if (then) afterCommit(tx, then.key, then.run);
      if (pauseWhen(result)) await pausePoint(beforeCommit, { ...context, tx });
      return result;
    });
  }
  const result = await withRetries(() => statement(db()));
  await after(result)?.run().catch(() => {});
  return result;
}
