import "server-only";
import { PENDING_OPERATION_STATUSES } from "@/lib/captures/states";
import { inTransaction } from "@/lib/db/transaction";
import { db } from "@/lib/db/prisma";
import { pausePoint } from "@/lib/db/pause-points";
import { assertCan, canCancelCheck, canRetryCapture, type Actor } from "@/lib/permissions/permissions";
import { budgetStatus } from "@/lib/billing/budget";
import { captureEstimate } from "@/lib/checks/create-check";
import type { Tx } from "@/lib/lifecycle/transition";
import { cancelCaptures, retryCaptures as retryTransition, retryGroups, retryRefusals } from "@/lib/lifecycle/admin";
import { priceTableOf, type PriceTable } from "@/lib/billing/money";
import { Prisma, type CaptureStatus } from "@/lib/generated/prisma/client";
import { isRetryable, isUnfinished } from "@/lib/captures/states";
import { ConflictError, NotFoundError, UserError } from "@/lib/errors";
import type { SearchMode } from "@/lib/providers/types";
import { assertStillCan } from "@/lib/api-keys/api-keys";

// Cancel and retry as people ask for them: find the row in the caller's workspace, authorize,
// then run the lifecycle transition (lib/lifecycle/admin.ts) in one transaction.

export type Caller = Actor & { workspaceId: string; apiKeyId?: string | null };

const lifecycleActor = (caller: Caller) => ({ workspaceId: caller.workspaceId, userId: caller.userId, apiKeyId: caller.apiKeyId ?? null });

export async function cancelCapture(caller: Caller, captureId: string) {
  return inTransaction(async (tx) => {
    // The fields the checks below read, in one statement (not the answer, not the check's row).
    const [capture] = await tx.$queryRaw<{ id: string; status: CaptureStatus; cancelRequestedAt: Date | null; startedById: string | null }[]>`
      SELECT c.id, c.status, c."cancelRequestedAt", k."startedById" FROM captures c JOIN checks k ON k.id = c."checkId"
      WHERE c.id = ${captureId}::uuid AND c."workspaceId" = ${caller.workspaceId}::uuid`;
    if (!capture) throw new NotFoundError("That capture does not exist in this workspace.");
    assertCan(canCancelCheck(caller, capture), "Only admins, owners and the member who started the check can cancel its captures.");
    if (!isUnfinished(capture.status)) throw new UserError(`This capture has already ${capture.status}.`);
    if (capture.status === "running" && capture.cancelRequestedAt) throw new UserError("This capture is already being cancelled.");
    const result = await cancelCaptures(tx, lifecycleActor(caller), { captureId: capture.id });
    if (!result.cancelledNow && !result.aborting) throw new UserError("This capture finished or is already being cancelled.");
    return result;
  });
}

/**
 * A check's operation as its job runs it (lib/checks/operations.ts): which one, and how it records
 * its outcome in the transaction that does its work, so that the job run again (a crash or a lost
 * connection after the commit; a lease taken over) finds it ended and does nothing more.
 */
export type OperationRun = { id: string; complete: (tx: Tx, result: Prisma.InputJsonValue) => Promise<void> };

/**
 * A check's cancel as its operation runs it: the transition alone, authorized when the cancel
 * was asked for. A check that finished meanwhile has nothing waiting and moves nothing.
 */
export async function cancelCheckCaptures(caller: Caller, checkId: string, operation: OperationRun) {
  return inTransaction(async (tx) => {
    // Taken behind a retry of a finished check, which its request did not mark: the retry was
    // refused, and the check is as it finished, with nothing to stop. Read without the check's
    // lock (a claim takes its capture's, then the check's): while this operation is pending no
    // retry runs and no cancel marks a finished check, so this answer cannot change.
    const [check] = await tx.$queryRaw<{ untouched: boolean }[]>`
      SELECT "finishedAt" IS NOT NULL AND "cancelRequestedAt" IS NULL AS untouched FROM checks WHERE id = ${checkId}::uuid`;
    if (check?.untouched) {
      const nothing = { cancelledNow: 0, aborting: 0 };
      await operation.complete(tx, nothing);
      return nothing;
    }
    // Asked when the page recorded it (requestCheckCancel stamped the check then).
    const result = await cancelCaptures(tx, lifecycleActor(caller), { checkId, asked: "before" });
    await operation.complete(tx, result);
    return result;
  });
}

export const NOTHING_TO_RETRY = "This check has no failed or cancelled captures to retry.";

/** Captures of a check's retry that were left as they were, grouped by why. */
export type RefusedRetry = { reason: string; captures: number };

/**
 * Admin retry: failed or cancelled captures go back to the queue with a fresh allowance of
 * attempts, and their expected cost is held against this month's budget again.
 *
 * A capture that cannot run again is refused with the reason and left as it is (409): one holding
 * a paid answer, or one whose connection the workspace may no longer call (revoked, disabled, its
 * model off the allowlist; see retryRefusals). A check's retry retries the captures that can run
 * and reports the others by reason (`refused`); when none can, it is refused as a whole, saying why.
 */
export async function retryCaptures(caller: Caller, target: { captureId: string }): Promise<{ retried: number }>;
export async function retryCaptures(caller: Caller, target: { checkId: string }, operation?: OperationRun): Promise<{ retried: number; refused: RefusedRetry[] }>;
export async function retryCaptures(caller: Caller, target: { captureId: string } | { checkId: string }, operation?: OperationRun): Promise<{ retried: number; refused?: RefusedRetry[] }> {
  assertCan(canRetryCapture(caller), "Only admins and owners can retry captures.");
  return inTransaction(async (tx) => {
    // The caller's role again, share-locked to the commit (as createCheck does): a retry pays, and
    // its job may plan for a while; a requester removed or demoted meanwhile waits for it or is refused.
    if (caller.userId) {
      await assertStillCan(tx, { workspaceId: caller.workspaceId, userId: caller.userId, apiKeyId: caller.apiKeyId }, canRetryCapture, "You can no longer retry captures in this workspace.");
    }
    await refuseWhileCancelling(tx, caller.workspaceId, target, operation?.id ?? null);
    const { holds, refused } = await planRetry(tx, caller, target, operation?.id ?? null);
    await pausePoint("retry:after-plan", { tx, ..."checkId" in target ? { checkId: target.checkId } : { captureId: target.captureId } });
    const moved = await retryTransition(tx, lifecycleActor(caller), holds);
    // Another retry of the same captures won the race (a double click, a client retrying).
    if (!moved.retried) throw new UserError("These captures are already being retried.");
    const result = "captureId" in target ? moved : { ...moved, refused };
    await operation?.complete(tx, result);
    return result;
  });
}

/**
 * What retrying a check's failed and cancelled captures would do, asked before it is done: how
 * many would run again, their expected cost (the estimate a new check shows and holds,
 * captureEstimate) and this month's budget left; the captures that could not run, by reason.
 * Refused like the retry itself when none can run.
 */
export async function estimateRetry(caller: Caller, checkId: string) {
  assertCan(canRetryCapture(caller), "Only admins and owners can retry captures.");
  // Counted in SQL by connection, search mode, prompt and refusal: the dialog must answer within a
  // poll's interval on a check of thousands (issue 20 item 4), and every capture of a group costs alike.
  const groups = await retryGroups(db(), caller.workspaceId, checkId);
  const retryable = groups.filter((g) => g.retryable);
  const runnable = retryable.filter((g) => g.reason === null);
  const refused = groupByReason(retryable.flatMap((g) => (g.reason === null ? [] : [[g.reason, g.captures] as const])));
  refuseWhenNothingRuns({ checkId }, { found: groups.length > 0, retryable: retryable.length > 0, runnable: runnable.length > 0, refused });
  const connections = await db().providerConnection.findMany({ where: { id: { in: [...new Set(runnable.map((g) => g.connectionId))] } } });
  const prices = new Map(connections.map((c) => [c.id, priceTableOf(c)]));
  const estimateMicros = runnable.reduce((sum, g) => sum + captureEstimate(g.promptText, { ...prices.get(g.connectionId)!, searchMode: g.searchMode }) * g.captures, 0);
  return { captures: runnable.reduce((sum, g) => sum + g.captures, 0), estimateMicros, refused, budget: await budgetStatus(caller.workspaceId) };
}

export const CANCEL_WAITING = "A cancel of this check is waiting to run; nothing was retried.";
export const CANCELLED_SINCE = "This check was cancelled after the retry was asked for; nothing was retried.";

/**
 * Refuses a retry while a cancel of its check waits to run (its operation queued or running: the
 * person's latest word is "stop"). The check's row is locked first, as a cancel's request writes it
 * (requestCheckCancel): a cancel asked meanwhile has either committed, and is found here, or waits
 * for this retry's commit and then carries the check's cancel, which a claim honours, until its job
 * stops what the retry queued. Reading without the lock, a retry cleared a cancel asked while it
 * ran (syncCheck), and workers started the retried captures before the cancel's job came.
 */
async function refuseWhileCancelling(tx: Tx, workspaceId: string, target: { captureId: string } | { checkId: string }, operationId: string | null) {
  const checkOf = "checkId" in target ? Prisma.sql`${target.checkId}::uuid` : Prisma.sql`(SELECT c."checkId" FROM captures c WHERE c.id = ${target.captureId}::uuid)`;
  // A retry asked as an operation, run later by its job: was the check cancelled since it was
  // asked (a cancel's job run before it: a lease taken over, a job run again)? The check's
  // "cancelRequestedAt" is its latest cancel's time, both written by the database's clock.
  const [check] = await tx.$queryRaw<{ id: string; cancelledSince: boolean }[]>`
    SELECT id, coalesce("cancelRequestedAt" > (SELECT o."createdAt" FROM check_operations o WHERE o.id = ${operationId}::uuid), false) AS "cancelledSince"
    FROM checks WHERE id = ${checkOf} AND "workspaceId" = ${workspaceId}::uuid FOR NO KEY UPDATE`;
  // No such check here: planRetry says so.
  if (!check) return;
  const cancel = await tx.checkOperation.findFirst({ where: { checkId: check.id, kind: "cancel", status: { in: [...PENDING_OPERATION_STATUSES] } }, select: { id: true } });
  if (cancel) throw new UserError(CANCEL_WAITING);
  if (check.cancelledSince) throw new UserError(CANCELLED_SINCE);
}

/**
 * The captures a retry of `target` runs again, with what each holds, and those it leaves (by
 * reason). A retry asked as an operation leaves a capture whose cancel was asked after it (a
 * person's later "stop"; a cancel asked before it and run by its job since is the earlier word).
 */
async function planRetry(tx: Tx, caller: Caller, target: { captureId: string } | { checkId: string }, operationId: string | null) {
  const scope = "captureId" in target ? Prisma.sql`c.id = ${target.captureId}::uuid` : Prisma.sql`c."checkId" = ${target.checkId}::uuid`;
  // One statement with the text each capture asks (its prompt version) and the connection's prices, not the rows around them.
  const candidates = await tx.$queryRaw<(PriceTable & { id: string; status: CaptureStatus; cancelledSince: boolean; searchMode: SearchMode; promptText: string; maxAttempts: number })[]>`
    SELECT c.id, c.status,
           coalesce(c.status = 'cancelled' AND c."cancelRequestedAt" > (SELECT o."createdAt" FROM check_operations o WHERE o.id = ${operationId}::uuid), false) AS "cancelledSince",
           c."searchMode", p.text AS "promptText", pc."maxAttempts", pc."inputPricePerMTokMicros", pc."outputPricePerMTokMicros",
           pc."cachedPricePerMTokMicros", pc."reasoningPricePerMTokMicros", pc."searchPriceMicros"
    FROM captures c JOIN prompt_versions p ON p.id = c."promptVersionId" JOIN provider_connections pc ON pc.id = c."connectionId"
    WHERE ${scope} AND c."workspaceId" = ${caller.workspaceId}::uuid`;
  const retryable = candidates.filter((c) => isRetryable(c.status) && !c.cancelledSince);
  const refusals = await retryRefusals(tx, retryable.map((c) => c.id));
  const refused = groupByReason([...refusals.values()].map((reason) => [reason, 1] as const));
  const runnable = retryable.filter((c) => !refusals.has(c.id));
  refuseWhenNothingRuns(target, { found: candidates.length > 0, retryable: retryable.length > 0, runnable: runnable.length > 0, refused, status: candidates[0]?.status });
  const holds = new Map(runnable.map((c) => [c.id, { micros: captureEstimate(c.promptText, c), maxAttempts: c.maxAttempts }]));
  return { holds, refused };
}

/** A retry (or its estimate) that would run nothing is refused, saying why. */
function refuseWhenNothingRuns(
  target: { captureId: string } | { checkId: string },
  found: { found: boolean; retryable: boolean; runnable: boolean; refused: RefusedRetry[]; status?: string },
) {
  const one = "captureId" in target;
  if (!found.found) throw new NotFoundError(one ? "That capture does not exist in this workspace." : "That check does not exist in this workspace.");
  if (!found.retryable) throw new UserError(one ? `Only failed or cancelled captures can be retried (this one is ${found.status}).` : NOTHING_TO_RETRY);
  if (!found.runnable) {
    throw new ConflictError(
      one
        ? `This capture cannot be retried. ${found.refused[0]!.reason}`
        : `None of this check's failed or cancelled captures can be retried. ${found.refused.map((r) => `${r.captures} capture(s): ${r.reason}`).join(" ")}`,
    );
  }
}

function groupByReason(refusals: (readonly [reason: string, captures: number])[]): RefusedRetry[] {
  const counts = new Map<string, number>();
  for (const [reason, captures] of refusals) counts.set(reason, (counts.get(reason) ?? 0) + captures);
  return [...counts].map(([reason, captures]) => ({ reason, captures }));
}
