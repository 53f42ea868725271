import "server-only";
import { BudgetExceededError, reserveCall, settleLedgers } from "@/lib/billing/budget";
import { unknownOutcomeCost } from "@/lib/billing/money";
import { accessRefusal } from "@/lib/lifecycle/claim";
import { wakeBudgetWaiters, type Tx } from "@/lib/lifecycle/transition";
import { pausePoint } from "@/lib/db/pause-points";
import { db } from "@/lib/db/prisma";
import { orphanReason, runIsOrphaned, type OrphanReason } from "@/lib/jobs/heartbeats";
import { inTransaction } from "@/lib/db/transaction";
import type { ProviderConnection, SetupSuggestion } from "@/lib/generated/prisma/client";
import { setupCallLimits, setupPrompt, setupWorstCase } from "@/lib/setup/prompt";
import type { SetupProposal } from "@/lib/setup/schemas";

// A first run's call is fenced the way a capture's run is (docs/architecture.md "Run tokens"
// and "Leases, crashes, shutdown"): one run claims the row with a fresh run token under its
// worker's lease; only the holder of the token finishes it and settles its money; a run whose
// worker's lease ran out, or that its live worker no longer lists, is ended by the sweeper and
// charged its estimate (the provider may have done and billed the work). So two runs of the job
// make one call, and a run that wakes after it was swept writes nothing.

export type SetupOutcome = { status: "succeeded"; result: SetupProposal; costMicros: number } | { status: "failed"; error: string; costMicros: number };

/** A claimed run: the row's money and the token that fences it (null only for rows claimed before fencing existed). */
export type SetupRun = { id: string; runToken: string | null; workspaceId: string; connectionId: string; budgetPeriod: Date; reservedMicros: bigint };

/** A claimed run's row with the connection as the claim read it: what the call is made, reserved and charged with. */
export type ClaimedSetupRun = SetupSuggestion & { connection: ProviderConnection; runToken: string };

export type SetupClaim = { kind: "claimed"; run: ClaimedSetupRun } | { kind: "refused" } | { kind: "skipped" };

/**
 * Claims a queued suggestion for this run: `queued -> running`, stamping the run token, the
 * worker and the database time. A row already running (another run holds it, under its
 * worker's lease) or finished is not claimed: "skipped", and nothing is called. The kill
 * switches hold here as in a capture's claim: a connection disabled, a grant revoked or the model
 * taken off the allowlist since the request ends the row `failed` with the reason, in the same
 * transaction, its reservation given back: "refused", and nothing is called.
 *
 * The connection is read under the access lock (taken shared by accessRefusal, exclusively by
 * every operator edit), and the call is made with that read: as with a capture's claim
 * (beacon_claim's `stale`), a call whose claim commits after an edit uses the edited prices,
 * limits and settings, and one whose claim committed before it uses the old ones. The request
 * reserved the worst case of the connection as it was then; when an edit since has changed it,
 * the claim gives that reservation back and reserves the worst case it will call with, in this
 * month. When that does not fit the budget or the grant, the run fails with the shortfall and
 * nothing is called. The caller registers `runToken` in `activeRuns` before calling this.
 */
export async function claimSetupRun(suggestionId: string, runToken: string, workerId: string): Promise<SetupClaim> {
  const claim = (reserveShortfall: string | null) =>
    inTransaction(async (tx): Promise<SetupClaim> => {
      const [run] = await tx.$queryRaw<(SetupRun & { model: string })[]>`
        UPDATE setup_suggestions SET status = 'running', "runToken" = ${runToken}::uuid, "workerId" = ${workerId},
               "startedAt" = now() AT TIME ZONE 'UTC', "updatedAt" = now()
        WHERE id = ${suggestionId}::uuid AND status = 'queued'
        RETURNING id, "runToken", "workspaceId", "connectionId", "budgetPeriod", "reservedMicros", model`;
      if (!run) return { kind: "skipped" };
      const refusal = (await accessRefusal(tx, run.connectionId, run.workspaceId, run.model)) ?? reserveShortfall;
      if (refusal) {
        await finishIn(tx, run, { status: "failed", error: refusal, costMicros: 0 });
        return { kind: "refused" };
      }
      const row = await tx.setupSuggestion.findUniqueOrThrow({ where: { id: suggestionId }, include: { connection: true } });
      const worst = BigInt(setupWorstCase(row, row.connection));
      if (worst === row.reservedMicros) return { kind: "claimed", run: { ...row, runToken } };
      // Edited since the request: the old worst case goes back, the new one is reserved (the ledgers last).
      await settleLedgers(tx, [], [{ workspaceId: run.workspaceId, connectionId: run.connectionId, period: run.budgetPeriod, reserved: run.reservedMicros, charged: 0n }]);
      const budgetPeriod = await reserveCall(tx, { workspaceId: run.workspaceId, connectionId: run.connectionId, worstMicros: Number(worst) });
      const moved = await tx.setupSuggestion.update({ where: { id: suggestionId }, data: { reservedMicros: worst, budgetPeriod }, include: { connection: true } });
      return { kind: "claimed", run: { ...moved, runToken } };
    });
  return claim(null)
    .catch((error: unknown) => {
      // The edited worst case does not fit (nothing of that attempt was written): the run fails with why.
      if (error instanceof BudgetExceededError) return claim(`The connection was edited after you asked, and the call now could cost more. ${error.message}`);
      throw error;
    })
    .then(async (claimed) => {
      await pausePoint("setup:claim-committed", { suggestionId });
      return claimed;
    })
    .catch(async (error: unknown) => {
      // The claim may have committed before its reply was lost: then the run is ours after all.
      const ours = await claimedBefore(suggestionId, runToken).catch(() => null);
      if (ours) return ours;
      throw error;
    });
}

/**
 * A claim whose reply was lost: the run is ours if the row carries its token. Read again under
 * the access lock, the connection is the one the call would use; when its worst case is no longer
 * what the claim reserved, an edit committed after the claim, and the run ends `failed` (nothing
 * called, its reservation given back) rather than call with settings its reservation does not cover.
 */
async function claimedBefore(suggestionId: string, runToken: string): Promise<SetupClaim | null> {
  return inTransaction(async (tx): Promise<SetupClaim | null> => {
    const row = await tx.setupSuggestion.findUnique({ where: { id: suggestionId }, include: { connection: true } });
    if (row?.runToken !== runToken) return null;
    if (row.status !== "running") return { kind: "refused" };
    await accessRefusal(tx, row.connectionId, row.workspaceId, row.model); // for its lock: the claim already judged the access
    const connection = await tx.providerConnection.findUniqueOrThrow({ where: { id: row.connectionId } });
    if (BigInt(setupWorstCase(row, connection)) === row.reservedMicros) return { kind: "claimed", run: { ...row, connection, runToken } };
    await finishIn(tx, { ...row, runToken }, { status: "failed", error: "The connection was edited as this call was starting, so nothing was called. Ask again.", costMicros: 0 });
    return { kind: "refused" };
  });
}


/**
 * The guarded finish: moves the row out of `running` only if it still carries this run's token,
 * and in the same transaction settles its money (the worst case leaves "in flight", the cost is
 * charged, in the month reserved; the ledgers last, as in every transition) and wakes captures
 * waiting for budget. Returns false when the run had lost its token (swept): nothing written.
 */
export async function finishSetupRun(run: SetupRun, outcome: SetupOutcome): Promise<boolean> {
  return inTransaction((tx) => finishIn(tx, run, outcome));
}

/**
 * The cost charged is at most the reservation (beacon_attempt_charge, the rule every capture's
 * attempt is charged by): an estimate reads the connection's prices and limits as they are now,
 * which an operator may have raised during the call, and the hard cap counted only what was
 * reserved.
 */
async function finishIn(tx: Tx, run: SetupRun, outcome: SetupOutcome): Promise<boolean> {
  const result = outcome.status === "succeeded" ? JSON.stringify(outcome.result) : null;
  const error = outcome.status === "failed" ? outcome.error : null;
  const [moved] = await tx.$queryRaw<{ charged: bigint }[]>`
    UPDATE setup_suggestions
       SET status = ${outcome.status}::"SetupSuggestionStatus", result = coalesce(${result}::jsonb, result), error = ${error},
           "costMicros" = beacon_attempt_charge(${BigInt(outcome.costMicros)}::bigint, "reservedMicros"), "finishedAt" = now()
     WHERE id = ${run.id}::uuid AND status = 'running' AND "runToken" IS NOT DISTINCT FROM ${run.runToken}::uuid
    RETURNING "costMicros" AS charged`;
  if (!moved) return false;
  await settleLedgers(tx, [], [{ workspaceId: run.workspaceId, connectionId: run.connectionId, period: run.budgetPeriod, reserved: run.reservedMicros, charged: moved.charged }]);
  // Money the reservation gave back may let captures that wait for budget run.
  await wakeBudgetWaiters(tx, run.workspaceId, 100);
  return true;
}

const STOPPED: Record<OrphanReason, string> = {
  lease_expired: "The worker running this call stopped before it could record the answer.",
  abandoned: "The worker running this call stopped following it before it could record the answer.",
};

export type OrphanedSetupRun = SetupRun & { reason: OrphanReason };

/** The sweeper's read (in its transaction, lib/worker/sweeper.ts): running suggestions nobody will finish (runIsOrphaned). */
export function orphanedSetupRuns(tx: Tx): Promise<OrphanedSetupRun[]> {
  return tx.$queryRaw<OrphanedSetupRun[]>`
    SELECT s.id, s."runToken", s."workspaceId", s."connectionId", s."budgetPeriod", s."reservedMicros", ${orphanReason("h")} AS reason
    FROM setup_suggestions s LEFT JOIN worker_heartbeats h ON h."workerId" = s."workerId"
    WHERE s.status = 'running' AND ${runIsOrphaned("s", "h")}
    ORDER BY s."startedAt"`;
}

/**
 * The sweeper's part: each orphaned suggestion (orphanedSetupRuns) ends `failed` through the
 * guarded finish, charged its estimate. Nobody calls again: a person asks again if they want to.
 * Returns how many it ended.
 */
export async function expireSetupRuns(orphaned: OrphanedSetupRun[]): Promise<number> {
  let ended = 0;
  for (const run of orphaned) {
    const row = await db().setupSuggestion.findUniqueOrThrow({ where: { id: run.id }, include: { connection: true } });
    const estimate = unknownOutcomeCost(setupPrompt(row), "off", setupCallLimits(row.connection), row.connection);
    const error = `${STOPPED[run.reason]} The provider may have billed it, so its estimate is charged. Ask again.`;
    if (await finishSetupRun(run, { status: "failed", error, costMicros: estimate })) ended++;
  }
  return ended;
}
