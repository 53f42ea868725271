import "server-only";
import { inOneStatement, inTransaction } from "@/lib/db/transaction";
import { callWouldFit, resultShard } from "@/lib/billing/budget";
import { pausePoint } from "@/lib/db/pause-points";
import { WAKE_ON_FREED_MONEY, budgetWaitLock, finishAfter, finishAfterCommit, slotWaitLock, type Tx } from "@/lib/lifecycle/transition";
import { postponeIn } from "@/lib/lifecycle/waiting";
import { TRANSITIONS, WAITING_STATUSES } from "@/lib/captures/states";
import { env } from "@/lib/config/env";
import { CAPTURE_JOB_SPEC, enqueueCaptureJobs } from "@/lib/jobs/enqueue";

export type ClaimRequest = {
  captureId: string;
  /**
   * The capture's connection (its cap counts across workspaces) and model (with it, its breaker),
   * and the version of the connection's settings the caller read (their "updatedAt" in epoch
   * milliseconds, connectionVersion): the worst case below and the call are made with them.
   */
  connection: { connectionId: string; model: string; maxConcurrency: number; breakerOpenSeconds: number; version: bigint };
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
  /** The workspace may no longer call the connection with the capture's model: the capture failed with `reason`. */
  | { kind: "refused"; reason: string }
  /** An operator edited the connection since the caller read it: nothing written; read it again and claim again. */
  | { kind: "stale" }
  | { kind: "not_runnable" };

/**
 * Transition `claim` (waiting -> running): takes one of the connection's concurrency slots,
 * reserves the call's worst case against the budget and the grant's limit (the hard caps), gives
 * the capture a fresh run token and opens its attempt: one statement (beacon_claim), committed
 * on its own in the usual case, so that no round trip to this process holds the budget's
 * admission row. A refusal (no slot, no budget) writes nothing; the capture's wait is then
 * recorded in a transaction, which asks again under the lock that orders it against releases.
 *
 * The slots are rows (connection_slots), maxConcurrency of them per connection, taken with
 * FOR UPDATE SKIP LOCKED: the cap holds across every worker process and workspace, and claims
 * of one connection do not queue behind each other. A slot is given back by a trigger when its
 * capture leaves `running`. While other workspaces wait for the connection, a workspace takes at
 * most its fair share of the slots. A capture that finds no slot (or is at its share) waits
 * `postponed` for one and is woken when one frees (transition.ts handOnSlots). The breaker is
 * read again here, so no attempt starts after it opened (except the probe). When the budget
 * cannot cover the call, the capture is postponed "waiting for budget" in the same transaction.
 *
 * Revoke, disable and the model allowlist are kill switches: before anything is taken, the claim
 * reads whether the workspace may still call the connection with the capture's model, under a
 * lock that operators' changes take exclusively (lib/connections/connections.ts). If not, it is
 * transition `refuse` instead (waiting -> failed with the reason, hold given back, no attempt),
 * committed by the same statement. Under the same lock it compares the connection's version with
 * the one the caller read its prices and limits at: an edit committed since makes it `stale`
 * (nothing written), and the caller reads again, so a call claimed after an edit is made and
 * reserved with the edited settings.
 */
export async function claimCapture(request: ClaimRequest): Promise<ClaimResult> {
  const { captureId, connection } = request;
  // The usual case in one statement committed on its own: claimed (or nothing to do). A refusal
  // wrote nothing; the capture's wait is recorded below, in a transaction.
  const first = await inOneStatement((client) => tryClaim(client, request), {
    beforeCommit: "claim:before-commit",
    context: { captureId },
    pauseWhen: (claim) => claim.kind === "claimed",
    after: (claim) => finishAfter(claim.kind === "refused" ? claim.checkId : null),
  });
  if (first.kind === "claimed") return { kind: "claimed", attemptNumber: first.attemptNumber! };
  if (first.kind === "refused") return { kind: "refused", reason: first.reason! };
  if (first.kind === "not_runnable" || first.kind === "stale") return { kind: first.kind };
  if (first.kind === "breaker_open") return { kind: "breaker_open", delayMs: first.delayMs! };
  return inTransaction(async (tx) => {
    let claim = await tryClaim(tx, request);
    if (claim.kind === "full") {
      // Every slot was taken: look again once every transition that gave one back meanwhile has
      // committed (they hold this lock shared, transition.ts), and from then on they wait for
      // this claim to commit, so they see it waiting and wake it. No release is missed.
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(${slotWaitLock(connection.connectionId)})`;
      claim = await tryClaim(tx, request);
    }
    switch (claim.kind) {
      case "claimed":
        await pausePoint("claim:before-commit", { tx, captureId });
        return { kind: "claimed", attemptNumber: claim.attemptNumber! } as const;
      case "not_runnable":
      case "stale":
        return { kind: claim.kind } as const;
      case "refused":
        finishAfterCommit(tx, [claim.checkId!]);
        return { kind: "refused", reason: claim.reason! } as const;
      case "breaker_open":
        return { kind: "breaker_open", delayMs: claim.delayMs! } as const;
      case "full":
      case "share":
        await postponeIn(tx, captureId, { waitingFor: "slot", delayMs: SLOT_WAIT_FALLBACK_MS });
        await pausePoint("claim:no-slot-before-commit", { tx, captureId });
        return { kind: "busy" } as const;
      case "no_budget": {
        await pausePoint("claim:no-budget", { tx, captureId });
        // Results give money back without waiting for claims, so one may have committed since the
        // budget was read: look again once every result freeing money in the workspace meanwhile
        // has committed (they hold this lock shared when they look for captures to wake,
        // transition.ts wakeBudgetWaiters); those after it wait for this claim to commit, and see
        // and wake its capture. No freed money is missed.
        await tx.$executeRaw`SELECT pg_advisory_xact_lock(${budgetWaitLock(claim.workspaceId!)})`;
        const fitsNow = await callWouldFit(tx, { workspaceId: claim.workspaceId!, connectionId: connection.connectionId, worstMicros: request.worstCaseMicros });
        await postponeIn(tx, captureId, { waitingFor: "budget", delayMs: fitsNow ? 0 : env().BEACON_BUDGET_RECHECK_SECONDS * 1000 });
        await pausePoint("claim:no-budget-before-commit", { tx, captureId });
        return { kind: "waiting_for_budget" } as const;
      }
    }
  });
}

type TryClaim = {
  kind: "claimed" | "not_runnable" | "refused" | "stale" | "breaker_open" | "full" | "share" | "no_budget";
  attemptNumber: number | null;
  delayMs: number | null;
  workspaceId: string | null;
  /** For `refused`: the capture's check (looked at after the commit) and why. */
  checkId: string | null;
  reason: string | null;
};

/**
 * The claim in one statement (beacon_claim, migrations 20261201140000_lifecycle_hot_path and
 * 20261205110000_kill_switches), in the lock order of every transition: the capture locked; the
 * kill switches read (a capture its workspace may no longer run fails here: `refused`, its hold
 * given back in the statement's last writes); the breaker read (no attempt starts after it
 * opened, except the probe); a slot taken; the capture running with the run token; its attempt
 * opened; the check started if this is its first claim; the call's worst case reserved in the
 * budget and the grant, last, so that their admission rows (which every claim and result of the
 * workspace writes) are held only until the commit. When the budget cannot cover the call it
 * undoes all of it (slot included) and says `no_budget`; with no slot (`full`, `share`) it
 * writes nothing. Either way the caller decides how the capture waits.
 */
async function tryClaim(tx: Tx, request: ClaimRequest): Promise<TryClaim> {
  const { captureId, connection } = request;
  // TRANSITIONS.claim and TRANSITIONS.refuse start from the same statuses: the statement guards both with this list.
  const [claim] = await tx.$queryRaw<TryClaim[]>`
    SELECT * FROM beacon_claim(${captureId}::uuid, ${connection.connectionId}::uuid, ${connection.model}, ${request.runToken}::uuid, ${request.workerId},
                      ${request.probeToken}::uuid, ${request.worstCaseMicros}::bigint, ${connection.breakerOpenSeconds}::int,
                      ${[...TRANSITIONS.claim.from]}::"CaptureStatus"[], ${resultShard()}::smallint, ${WAKE_ON_FREED_MONEY}::int, ${CAPTURE_JOB_SPEC}::jsonb, ${connection.version}::bigint)`;
  if (!claim) throw new Error(`beacon_claim returned nothing for capture ${captureId}`);
  return claim;
}

/**
 * The attempt a claim with `runToken` opened, if it committed: asked by a worker whose claim
 * failed with a lost connection. Read once the capture's row is free: beacon_claim locks it
 * first and holds it to its commit, and a claim still running on the server (PostgreSQL notices
 * a lost client only when it writes the reply) has then committed or rolled back. Read at once,
 * "not yet" looked like "no": the run was given up, and the claim committed later an attempt
 * that nobody ran, which the sweeper charged an estimate for (tests/integration/lifecycle-lost-claim.test.ts).
 */
export async function claimedAttempt(captureId: string, runToken: string): Promise<{ number: number; outcome: string | null } | null> {
  return inTransaction(async (tx) => {
    await tx.$queryRaw`SELECT 1 FROM captures WHERE id = ${captureId}::uuid FOR SHARE`;
    return tx.attempt.findUnique({ where: { runToken }, select: { number: true, outcome: true } });
  });
}

/** A connection's version as beacon_claim compares it: its "updatedAt" in epoch milliseconds (Prisma reads it as UTC). */
export const connectionVersion = (connection: { updatedAt: Date }): bigint => BigInt(connection.updatedAt.getTime());

/**
 * How long a capture that found no free slot waits at most: it is woken as soon as a slot frees
 * (transition.ts handOnSlots). The fallback matters only for one refused at its fair share,
 * which is woken by a release only when no other workspace waits.
 */
const SLOT_WAIT_FALLBACK_MS = 1_000;

/**
 * For an operator's change of who may call a connection (a revoke, a disable, the allowlist or
 * "granted to all" changed): the first statement of the change's transaction. beacon_claim reads
 * the access under this lock taken shared, so the claims in progress commit before the change
 * does, and later ones wait for it and see it: no claim that commits after the change read the
 * state before it.
 */
export async function lockConnectionAccess(tx: Tx, connectionId: string): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(beacon_connection_access_key(${connectionId}::uuid))`;
}

/**
 * Why a call on the connection may not be made for the workspace and model now (the operator
 * revoked, disabled or narrowed it; beacon_access_refusal's words), or null: read under the same
 * lock taken shared, as beacon_claim reads it, for a paid call that is not a capture's (the setup
 * wizard's). Two statements: the read's snapshot must be taken after the lock is held.
 */
export async function accessRefusal(tx: Tx, connectionId: string, workspaceId: string, model: string): Promise<string | null> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock_shared(beacon_connection_access_key(${connectionId}::uuid))`;
  const [row] = await tx.$queryRaw<{ refusal: string | null }[]>`SELECT beacon_access_refusal(${connectionId}::uuid, ${workspaceId}::uuid, ${model}) AS refusal`;
  return row?.refusal ?? null;
}

/**
 * After such a change, in its transaction: the captures waiting on the connection that may no
 * longer run (beacon_access_refusal) get their job now, so that their claim fails them with the
 * reason at once rather than at their next wake (a capture waiting for budget may wait minutes).
 */
export async function wakeRefusedCaptures(tx: Tx, connectionId: string): Promise<void> {
  const refused = await tx.$queryRaw<{ id: string }[]>`
    SELECT id FROM captures
    WHERE "connectionId" = ${connectionId}::uuid AND status = ANY(${[...WAITING_STATUSES]}::"CaptureStatus"[])
      AND beacon_access_refusal("connectionId", "workspaceId", model) IS NOT NULL`;
  await enqueueCaptureJobs(tx, { captureIds: refused.map((c) => c.id) });
}
