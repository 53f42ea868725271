import "server-only";
import { CURRENT_PERIOD, callWouldFit, reserveCall } from "@/lib/billing/budget";
import { pausePoint } from "@/lib/captures/lifecycle/pause-points";
import { budgetWaitLock, guardedUpdate, inTransaction, slotWaitLock, type Tx } from "@/lib/captures/lifecycle/transition";
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
 * The slots are rows (connection_slots), maxConcurrency of them per connection, taken with
 * FOR UPDATE SKIP LOCKED: the cap holds across every worker process and workspace, and claims
 * of one connection do not queue behind each other. A slot is given back by a trigger when its
 * capture leaves `running`. While other workspaces wait for the connection, a workspace takes at
 * most its fair share of the slots. A capture that finds no slot (or is at its share) waits
 * `postponed` for one and is woken when one frees (transition.ts handOnSlots). The breaker is
 * read again here, so no attempt starts after it opened (except the probe). When the budget
 * cannot cover the call, the capture is postponed "waiting for budget" in the same transaction.
 */
export async function claimCapture(request: ClaimRequest): Promise<ClaimResult> {
  const { captureId, connection, runToken } = request;
  return inTransaction(async (tx) => {
    // Capture first (locked), then its slot, attempt, check, and the budget last (the lock order
    // of every transition). The breaker, and whether this is the check's first claim, come along.
    const [capture] = await tx.$queryRaw<
      {
        status: string;
        cancelRequested: boolean;
        checkId: string;
        workspaceId: string;
        checkQueued: boolean;
        breakerStatus: string | null;
        forcedStatus: string | null;
        probeToken: string | null;
        openForMs: number | null;
      }[]
    >`
      SELECT c.status::text AS status, c."cancelRequestedAt" IS NOT NULL AS "cancelRequested", c."checkId", c."workspaceId",
             (SELECT k.status = 'queued' FROM checks k WHERE k.id = c."checkId") AS "checkQueued",
             b.status::text AS "breakerStatus", b."forcedStatus"::text AS "forcedStatus", b."probeToken"::text AS "probeToken",
             (extract(epoch FROM b."openUntil" - now() AT TIME ZONE 'UTC') * 1000)::float8 AS "openForMs"
      FROM captures c LEFT JOIN breaker_states b ON b."connectionId" = ${connection.connectionId}::uuid AND b.model = ${connection.model}
      WHERE c.id = ${captureId}::uuid
      FOR UPDATE OF c`;
    // A waiting capture with a cancel request is an impossible state; the repair pass ends it.
    if (!capture || !isWaiting(capture.status) || capture.cancelRequested) return { kind: "not_runnable" } as const;
    const isProbe = request.probeToken !== null && capture.probeToken === request.probeToken;
    if (capture.breakerStatus && (capture.forcedStatus === "open" || (!capture.forcedStatus && capture.breakerStatus !== "closed" && !isProbe))) {
      const delayMs = capture.openForMs !== null && capture.openForMs > 0 ? capture.openForMs : connection.breakerOpenSeconds * 1000;
      return { kind: "breaker_open", delayMs: Math.max(1000, delayMs) } as const;
    }
    let slot = await takeSlot(tx, connection.connectionId, captureId, capture.workspaceId);
    if (slot === "full") {
      // Every slot was taken: look again once every transition that gave one back meanwhile has
      // committed (they hold this lock shared, transition.ts), and from then on they wait for
      // this claim to commit, so they see it waiting and wake it. No release is missed.
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(${slotWaitLock(connection.connectionId)})`;
      slot = await takeSlot(tx, connection.connectionId, captureId, capture.workspaceId);
    }
    if (slot !== "taken") {
      await postponeIn(tx, captureId, { waitingFor: "slot", delayMs: SLOT_WAIT_FALLBACK_MS });
      await pausePoint("claim:no-slot-before-commit", { tx, captureId });
      return { kind: "busy" } as const;
    }
    // The budget is reserved last, so that its ledger rows (which every claim and result of the
    // workspace writes) are held only until the commit. When it does not fit, the claim is
    // undone back to here and the capture waits for budget.
    await tx.$executeRaw`SAVEPOINT claim_call`;
    const [claimed] = await guardedUpdate(
      tx,
      "claim",
      { ids: [captureId] },
      Prisma.sql`status = 'running', "runToken" = ${runToken}::uuid, "attemptCount" = c."attemptCount" + 1,
                 "startedAt" = coalesce(c."startedAt", now()), "nextAttemptAt" = NULL, "waitingFor" = NULL`,
    );
    if (!claimed) throw new Error(`capture ${captureId} was locked as waiting but the claim did not move it`);
    // clock_timestamp(), not now() (the transaction's start): the call starts once the slot is ours.
    // The month is the one reserveCall takes the call in (both read the transaction's now()).
    const [attempt] = await tx.$queryRaw<{ number: number }[]>`
      INSERT INTO attempts (id, "workspaceId", "captureId", number, "runToken", "workerId", "startedAt", "reservedMicros", "budgetPeriod")
      SELECT gen_random_uuid(), c."workspaceId", c.id, c."attemptCount", ${runToken}::uuid, ${request.workerId}, clock_timestamp(), ${request.worstCaseMicros}, ${CURRENT_PERIOD}
      FROM captures c WHERE c.id = ${captureId}::uuid
      RETURNING number`;
    // The check's row is written by its first claim only.
    if (capture.checkQueued) await tx.$executeRaw`UPDATE checks SET status = 'running', "updatedAt" = now() WHERE id = ${capture.checkId}::uuid AND status = 'queued'`;
    const reserved = await reserveCall(tx, { workspaceId: capture.workspaceId, connectionId: connection.connectionId, worstMicros: request.worstCaseMicros });
    if (!("period" in reserved)) {
      // The capture, attempt and check as they were; the slot, taken before the savepoint (and
      // not committed: nobody waits for it), is given back here.
      await tx.$executeRaw`ROLLBACK TO SAVEPOINT claim_call`;
      await tx.$executeRaw`UPDATE connection_slots SET "captureId" = NULL, "workspaceId" = NULL, "takenAt" = NULL WHERE "captureId" = ${captureId}::uuid`;
      await pausePoint("claim:no-budget", { tx, captureId });
      // Results give money back without waiting for claims, so one may have committed since the
      // budget was read: look again once every result freeing money in the workspace meanwhile
      // has committed (they hold this lock shared when they look for captures to wake,
      // transition.ts wakeBudgetWaiters); those after it wait for this claim to commit, and see
      // and wake its capture. No freed money is missed.
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(${budgetWaitLock(capture.workspaceId)})`;
      const fitsNow = await callWouldFit(tx, { workspaceId: capture.workspaceId, connectionId: connection.connectionId, worstMicros: request.worstCaseMicros });
      await postponeIn(tx, captureId, { waitingFor: "budget", delayMs: fitsNow ? 0 : env().BEACON_BUDGET_RECHECK_SECONDS * 1000 });
      await pausePoint("claim:no-budget-before-commit", { tx, captureId });
      return { kind: "waiting_for_budget" } as const;
    }
    await pausePoint("claim:before-commit", { tx, captureId });
    return { kind: "claimed", attemptNumber: attempt!.number } as const;
  });
}

/**
 * How long a capture that found no free slot waits at most: it is woken as soon as a slot frees
 * (transition.ts handOnSlots). The fallback matters only for one refused at its fair share,
 * which is woken by a release only when no other workspace waits.
 */
const SLOT_WAIT_FALLBACK_MS = 1_000;

/**
 * Takes a free slot of the connection for the capture, unless every slot is taken (or being
 * taken) or the workspace holds its fair share while another workspace has captures due on the
 * connection (a fair share: the cap divided by the workspaces that hold slots, counting this one
 * and, when only this one holds any, the one waiting).
 */
async function takeSlot(tx: Tx, connectionId: string, captureId: string, workspaceId: string): Promise<"taken" | "full" | "share"> {
  // One statement: the connection's load, the fair-share test, and the slot taken if it passes.
  const [result] = await tx.$queryRaw<{ known: boolean; atShare: boolean; taken: number }[]>`
    WITH load AS (
      SELECT pc."maxConcurrency" AS cap,
             count(s."captureId") FILTER (WHERE s."workspaceId" = ${workspaceId}::uuid)::int AS mine,
             count(DISTINCT s."workspaceId") FILTER (WHERE s."workspaceId" <> ${workspaceId}::uuid)::int AS holders,
             EXISTS (
               SELECT 1 FROM captures w
               WHERE w."connectionId" = ${connectionId}::uuid AND w.status = ANY(${[...WAITING_STATUSES]}::"CaptureStatus"[])
                 AND w."workspaceId" <> ${workspaceId}::uuid AND w."cancelRequestedAt" IS NULL
                 AND (w."nextAttemptAt" IS NULL OR w."nextAttemptAt" <= now() AT TIME ZONE 'UTC')
             ) AS "othersWaiting"
      FROM provider_connections pc LEFT JOIN connection_slots s ON s."connectionId" = pc.id AND s."captureId" IS NOT NULL
      WHERE pc.id = ${connectionId}::uuid
      GROUP BY pc."maxConcurrency"
    ), share AS (
      -- The cap divided by the workspaces that hold slots, counting this one and, when only this
      -- one holds any, the one waiting.
      SELECT "othersWaiting" AND mine >= greatest(1, ceil(cap::numeric / (1 + greatest(1, holders)))) AS "atShare" FROM load
    ), taken AS (
      UPDATE connection_slots s SET "captureId" = ${captureId}::uuid, "workspaceId" = ${workspaceId}::uuid, "takenAt" = now()
      WHERE NOT coalesce((SELECT "atShare" FROM share), true)
        AND (s."connectionId", s.slot) = (
          SELECT f."connectionId", f.slot FROM connection_slots f JOIN provider_connections pc ON pc.id = f."connectionId"
          WHERE f."connectionId" = ${connectionId}::uuid AND f."captureId" IS NULL AND f.slot < pc."maxConcurrency"
          ORDER BY f.slot LIMIT 1 FOR UPDATE OF f SKIP LOCKED)
      RETURNING 1
    )
    SELECT EXISTS (SELECT 1 FROM load) AS known, coalesce((SELECT "atShare" FROM share), false) AS "atShare", (SELECT count(*) FROM taken)::int AS taken`;
  if (!result?.known) return "full";
  if (result.atShare) return "share";
  return result.taken > 0 ? "taken" : "full";
}
