import "server-only";
import { reserveCall } from "@/lib/billing/budget";
import { pausePoint } from "@/lib/captures/lifecycle/pause-points";
import { Effects, applyEffects, guardedUpdate, inTransaction, type Tx } from "@/lib/captures/lifecycle/transition";
import { postponeIn } from "@/lib/captures/lifecycle/waiting";
import { WAITING_STATUSES, isWaiting } from "@/lib/captures/states";
import { env } from "@/lib/config/env";
import { Prisma } from "@/lib/generated/prisma/client";

export type ClaimRequest = {
  captureId: string;
  /** The capture's connection (its cap counts across workspaces) and model (with it, its breaker). */
  connection: { connectionId: string; model: string; maxConcurrency: number; breakerOpenSeconds: number };
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
  /** Every slot of the connection is taken (across all workers and workspaces), or this
   * workspace holds its fair share while another workspace waits. */
  | { kind: "busy" }
  /** The breaker opened since the caller was let through: postpone by `delayMs`. */
  | { kind: "breaker_open"; delayMs: number }
  /** The budget cannot cover the call's worst case: the capture now waits for budget. */
  | { kind: "waiting_for_budget" }
  | { kind: "not_runnable" };

/**
 * Transition `claim` (waiting -> running): takes one of the connection's concurrency slots,
 * reserves the call's worst case against the budget and the grant's limit (the hard caps), gives
 * the capture a fresh run token and opens its attempt, in one transaction.
 *
 * The slot count is the number of running captures of the connection, read under a
 * per-connection advisory lock, so the cap holds across every worker process and workspace;
 * slots free themselves when a capture leaves `running`. While other workspaces wait for the
 * connection, a workspace takes at most its fair share of the slots (the cap divided by the
 * workspaces that want it). The breaker is read again under the lock, so no attempt starts after
 * it opened (except the probe). When the budget cannot cover the call, the capture is postponed
 * "waiting for budget" in the same transaction.
 */
export async function claimCapture(request: ClaimRequest): Promise<ClaimResult> {
  const { captureId, connection, runToken } = request;
  return inTransaction(async (tx) => {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`slot:${connection.connectionId}`}, 0))`;
    const [breaker] = await tx.$queryRaw<{ status: string; forcedStatus: string | null; probeToken: string | null; openForMs: number | null }[]>`
      SELECT status::text AS status, "forcedStatus"::text AS "forcedStatus", "probeToken"::text AS "probeToken",
             (extract(epoch FROM "openUntil" - now() AT TIME ZONE 'UTC') * 1000)::float8 AS "openForMs"
      FROM breaker_states WHERE "connectionId" = ${connection.connectionId}::uuid AND model = ${connection.model}`;
    const isProbe = request.probeToken !== null && breaker?.probeToken === request.probeToken;
    if (breaker && (breaker.forcedStatus === "open" || (!breaker.forcedStatus && breaker.status !== "closed" && !isProbe))) {
      const delayMs = breaker.openForMs !== null && breaker.openForMs > 0 ? breaker.openForMs : connection.breakerOpenSeconds * 1000;
      return { kind: "breaker_open", delayMs: Math.max(1000, delayMs) } as const;
    }
    // Capture first, then its check, then the budget (the lock order of every transition).
    const [capture] = await tx.$queryRaw<{ status: string; cancelRequested: boolean; checkId: string; workspaceId: string }[]>`
      SELECT status::text AS status, "cancelRequestedAt" IS NOT NULL AS "cancelRequested", "checkId", "workspaceId"
      FROM captures WHERE id = ${captureId}::uuid FOR UPDATE`;
    // A waiting capture with a cancel request is an impossible state; the repair pass ends it.
    if (!capture || !isWaiting(capture.status) || capture.cancelRequested) return { kind: "not_runnable" } as const;
    if (!(await slotFree(tx, connection, capture.workspaceId))) return { kind: "busy" } as const;
    await tx.$queryRaw`SELECT 1 FROM checks WHERE id = ${capture.checkId}::uuid FOR NO KEY UPDATE`;

    const reserved = await reserveCall(tx, { workspaceId: capture.workspaceId, connectionId: connection.connectionId, worstMicros: request.worstCaseMicros });
    if (!("period" in reserved)) {
      await postponeIn(tx, captureId, { waitingFor: "budget", delayMs: env().BEACON_BUDGET_RECHECK_SECONDS * 1000 });
      return { kind: "waiting_for_budget" } as const;
    }
    const { period } = reserved;

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

/**
 * Whether the workspace may take one more of the connection's slots: one is free, and the
 * workspace holds fewer than its fair share while another workspace has captures due on the
 * connection (a fair share: the cap divided by the workspaces that want the connection now).
 */
async function slotFree(tx: Tx, connection: ClaimRequest["connection"], workspaceId: string): Promise<boolean> {
  const [load] = await tx.$queryRaw<{ running: number; mine: number; wanting: number; othersWaiting: boolean }[]>`
    WITH running AS (
      SELECT "workspaceId", count(*)::int AS n FROM captures WHERE "connectionId" = ${connection.connectionId}::uuid AND status = 'running' GROUP BY 1
    ), waiting AS (
      SELECT DISTINCT "workspaceId" FROM captures
      WHERE "connectionId" = ${connection.connectionId}::uuid AND status = ANY(${[...WAITING_STATUSES]}::"CaptureStatus"[])
        AND "cancelRequestedAt" IS NULL AND ("nextAttemptAt" IS NULL OR "nextAttemptAt" <= now() AT TIME ZONE 'UTC')
    )
    SELECT coalesce((SELECT sum(n) FROM running), 0)::int AS running,
           coalesce((SELECT n FROM running WHERE "workspaceId" = ${workspaceId}::uuid), 0)::int AS mine,
           (SELECT count(*) FROM (SELECT "workspaceId" FROM running UNION SELECT "workspaceId" FROM waiting UNION SELECT ${workspaceId}::uuid) w)::int AS wanting,
           EXISTS (SELECT 1 FROM waiting WHERE "workspaceId" <> ${workspaceId}::uuid) AS "othersWaiting"`;
  if (load!.running >= connection.maxConcurrency) return false;
  const fairShare = Math.max(1, Math.ceil(connection.maxConcurrency / load!.wanting));
  return !(load!.othersWaiting && load!.mine >= fairShare);
}
