import "server-only";
import { reserveCall } from "@/lib/billing/budget";
import { pausePoint } from "@/lib/captures/lifecycle/pause-points";
import { Effects, applyEffects, guardedUpdate, inTransaction } from "@/lib/captures/lifecycle/transition";
import { postponeIn } from "@/lib/captures/lifecycle/waiting";
import { isWaiting } from "@/lib/captures/states";
import { env } from "@/lib/config/env";
import { Prisma } from "@/lib/generated/prisma/client";

export type ClaimRequest = {
  captureId: string;
  provider: { id: string; maxConcurrency: number; breakerOpenSeconds: number };
  /** graphile-worker pool id of the process; recorded on the attempt, used by the sweeper. */
  workerId: string;
  /** Made by the caller and registered as running before the claim (see active-runs.ts). */
  runToken: string;
  /** The breaker's half-open probe, when this call is it. */
  probeToken: string | null;
  /** The most the call may cost (lib/billing/money.ts worstCaseCost): reserved against the budget. */
  worstCaseMicros: number;
};

export type ClaimResult =
  | { kind: "claimed"; attemptNumber: number }
  /** Every slot of the provider is taken (across all workers). */
  | { kind: "busy" }
  /** The breaker opened since the caller was let through: postpone by `delayMs`. */
  | { kind: "breaker_open"; delayMs: number }
  /** The budget cannot cover the call's worst case: the capture now waits for budget. */
  | { kind: "waiting_for_budget" }
  | { kind: "not_runnable" };

/**
 * Transition `claim` (waiting -> running): takes one of the provider's concurrency slots,
 * reserves the call's worst case against the budget (the hard cap), gives the capture a fresh
 * run token and opens its attempt, in one transaction.
 *
 * The slot count is the number of running captures of the provider, read under a per-provider
 * advisory lock, so the cap holds across every worker process; slots free themselves when a
 * capture leaves `running`. The breaker is read again under that lock, so no attempt starts
 * after it opened (except the probe). When the budget cannot cover the call, the capture is
 * postponed "waiting for budget" in the same transaction.
 */
export async function claimCapture(request: ClaimRequest): Promise<ClaimResult> {
  const { captureId, provider, runToken } = request;
  return inTransaction(async (tx) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`slot:${provider.id}`}, 0))`;
    const [breaker] = await tx.$queryRaw<{ status: string; forcedStatus: string | null; probeToken: string | null; openForMs: number | null }[]>`
      SELECT status::text AS status, "forcedStatus"::text AS "forcedStatus", "probeToken"::text AS "probeToken",
             (extract(epoch FROM "openUntil" - now() AT TIME ZONE 'UTC') * 1000)::float8 AS "openForMs"
      FROM breaker_states WHERE "providerConfigId" = ${provider.id}::uuid`;
    const isProbe = request.probeToken !== null && breaker?.probeToken === request.probeToken;
    if (breaker && (breaker.forcedStatus === "open" || (!breaker.forcedStatus && breaker.status !== "closed" && !isProbe))) {
      const delayMs = breaker.openForMs !== null && breaker.openForMs > 0 ? breaker.openForMs : provider.breakerOpenSeconds * 1000;
      return { kind: "breaker_open", delayMs: Math.max(1000, delayMs) } as const;
    }
    const [{ running }] = (await tx.$queryRaw<{ running: number }[]>`
      SELECT count(*)::int AS running FROM captures WHERE status = 'running' AND "providerConfigId" = ${provider.id}::uuid`) as [{ running: number }];
    if (running >= provider.maxConcurrency) return { kind: "busy" } as const;

    // Capture first, then its check, then the budget (the lock order of every transition).
    const [capture] = await tx.$queryRaw<{ status: string; cancelRequested: boolean; checkId: string; workspaceId: string }[]>`
      SELECT status::text AS status, "cancelRequestedAt" IS NOT NULL AS "cancelRequested", "checkId", "workspaceId"
      FROM captures WHERE id = ${captureId}::uuid FOR UPDATE`;
    // A waiting capture with a cancel request is an impossible state; the repair pass ends it.
    if (!capture || !isWaiting(capture.status) || capture.cancelRequested) return { kind: "not_runnable" } as const;
    await tx.$queryRaw`SELECT 1 FROM checks WHERE id = ${capture.checkId}::uuid FOR NO KEY UPDATE`;

    const period = await reserveCall(tx, capture.workspaceId, request.worstCaseMicros);
    if (!period) {
      await postponeIn(tx, captureId, { waitingFor: "budget", delayMs: env().BEACON_BUDGET_RECHECK_SECONDS * 1000 });
      return { kind: "waiting_for_budget" } as const;
    }

    const [claimed] = await guardedUpdate(
      tx,
      "claim",
      { ids: [captureId] },
      Prisma.sql`status = 'running', "runToken" = ${runToken}::uuid, "attemptCount" = c."attemptCount" + 1,
                 "startedAt" = coalesce(c."startedAt", now()), "nextAttemptAt" = NULL, "waitingFor" = NULL`,
    );
    if (!claimed) throw new Error(`capture ${captureId} was locked as waiting but the claim did not move it`);
    // clock_timestamp(), not now() (the transaction's start): the call starts once the slot is
    // ours, and the slot lock may have been waited for.
    const [attempt] = await tx.$queryRaw<{ number: number }[]>`
      INSERT INTO attempts (id, "workspaceId", "captureId", number, "runToken", "workerId", "startedAt", "reservedMicros", "budgetPeriod")
      SELECT gen_random_uuid(), c."workspaceId", c.id, c."attemptCount", ${runToken}::uuid, ${request.workerId}, clock_timestamp(), ${request.worstCaseMicros}, ${period}::date
      FROM captures c WHERE c.id = ${captureId}::uuid
      RETURNING number`;
    await applyEffects(tx, new Effects().check(capture.checkId));
    await pausePoint("claim:before-commit", { tx, captureId });
    return { kind: "claimed", attemptNumber: attempt!.number } as const;
  });
}
