import "server-only";
import { assertCan, canCancelCheck, canRetryCapture } from "@/lib/permissions/permissions";
import { cancelCheckCaptures, NOTHING_TO_RETRY, retryCaptures, type Caller } from "@/lib/checks/cancel-retry";
import { PENDING_OPERATION_STATUSES } from "@/lib/captures/states";
import type { CheckOperationView } from "@/lib/checks/progress-state";
import { isCheckFinished } from "@/lib/captures/states";
import { db } from "@/lib/db/prisma";
import { pausePoint } from "@/lib/db/pause-points";
import { transaction } from "@/lib/db/transaction";
import { enqueueCheckOperation } from "@/lib/jobs/enqueue";
import type { CheckOperationKind, CheckStatus, Prisma } from "@/lib/generated/prisma/client";
import { NotFoundError, UserError } from "@/lib/errors";

// A person's cancel or retry of a whole check from the check page. Next.js runs one browser's
// server actions one at a time, so an action that took seconds (thousands of captures moved,
// their events, jobs and ledgers) held the page's next poll, and a poll held the click. The
// action now only authorizes, records the operation and enqueues its job (milliseconds); a worker
// runs the same transitions the synchronous path ran (lib/checks/cancel-retry.ts), and the
// check's poll carries the operation's status and result (issue 20 item 4). Operations of one
// check run one at a time, in the order they were asked (the job's named queue).

/** Records the operation, or answers with the pending one of its kind. The caller holds the check's row. */
async function record(tx: Prisma.TransactionClient, caller: Caller, checkId: string, kind: CheckOperationKind): Promise<{ operationId: string }> {
  const pending = await tx.checkOperation.findFirst({ where: { checkId, kind, status: { in: [...PENDING_OPERATION_STATUSES] } }, select: { id: true } });
  // A double click, or a second person asking the same: one operation.
  if (pending) return { operationId: pending.id };
  await pausePoint("operation:none-pending", { tx, checkId });
  // Its time by the database's clock, as a cancel's (a retry compares the two: cancel-retry.ts); Prisma fills @default(now()) from the web server's.
  const [operation] = await tx.$queryRaw<{ id: string }[]>`
    INSERT INTO check_operations ("workspaceId", "checkId", kind, "requestedById", "requestedByApiKeyId", "createdAt")
    VALUES (${caller.workspaceId}::uuid, ${checkId}::uuid, ${kind}::"CheckOperationKind", ${caller.userId}, ${caller.apiKeyId ?? null}::uuid, now() AT TIME ZONE 'UTC')
    RETURNING id`;
  if (!operation) throw new Error("check operation not recorded");
  await enqueueCheckOperation(tx, { operationId: operation.id }, checkId);
  return { operationId: operation.id };
}

/** The caller's check, its row locked (FOR NO KEY UPDATE) to the end of `tx`; NotFoundError when the workspace has no such check. */
async function lockedCheck(tx: Prisma.TransactionClient, caller: Caller, checkId: string) {
  const [check] = await tx.$queryRaw<{ id: string; status: CheckStatus; startedById: string | null }[]>`
    SELECT id, status, "startedById" FROM checks WHERE id = ${checkId}::uuid AND "workspaceId" = ${caller.workspaceId}::uuid FOR NO KEY UPDATE`;
  if (!check) throw new NotFoundError("That check does not exist in this workspace.");
  return check;
}

/**
 * Asks for a retry of the check's failed and cancelled captures. Refused at once when the caller
 * may not retry or the check has nothing to retry; everything else (kill switches, a paid answer,
 * the budget: retryCaptures) is decided when the job runs, on the state it finds then.
 */
export async function requestCheckRetry(caller: Caller, checkId: string): Promise<{ operationId: string }> {
  assertCan(canRetryCapture(caller), "Only admins and owners can retry captures.");
  return transaction(async (tx) => {
    // The check's row, locked: two admins asking at once record one operation (record() looks
    // for a pending one, and the second look must see the first's), as a cancel's write does.
    await lockedCheck(tx, caller, checkId);
    // One probe of the captures' ("checkId", status) index, not a count of thousands.
    const retryable = await tx.capture.findFirst({ where: { checkId, status: { in: ["failed", "cancelled"] } }, select: { id: true } });
    if (!retryable) throw new UserError(NOTHING_TO_RETRY);
    return record(tx, caller, checkId, "retry");
  });
}

/**
 * Asks for a check's cancel, from the page or the REST API alike. The check carries the request at
 * once (a claim does not start its waiting captures from then on: beacon_claim), and the job
 * cancels them and tells running ones' workers to stop (cancelCheckCaptures). A check that has
 * finished has nothing to cancel, unless a retry of it is still to run: the cancel then runs after
 * it, and stops what it queued.
 */
export async function requestCheckCancel(caller: Caller, checkId: string): Promise<{ operationId: string }> {
  return transaction(async (tx) => {
    // Read under the check's lock: a finish committing meanwhile (its last capture ended) is
    // waited for and seen, so a finished check is refused instead of being labelled cancelled.
    const check = await lockedCheck(tx, caller, checkId);
    assertCan(canCancelCheck(caller, check), "Only admins, owners and the member who started a check can cancel it.");
    if (isCheckFinished(check.status)) {
      if (!(await tx.checkOperation.count({ where: { checkId, kind: "retry", status: { in: [...PENDING_OPERATION_STATUSES] } } }))) {
        throw new UserError("This check has already finished.");
      }
      // Behind a retry still to run: the retry's job, finding this cancel waiting, is refused
      // (refuseWhileCancelling), so nothing will run. The finished check is not marked: its
      // status stays what its captures made it (cancelCheckCaptures leaves it as it is).
      return record(tx, caller, checkId, "cancel");
    }
    await tx.$executeRaw`
      UPDATE checks SET "cancelRequestedAt" = now(), "cancelledById" = coalesce("cancelledById", ${caller.userId}), "updatedAt" = now()
      WHERE id = ${checkId}::uuid`;
    return record(tx, caller, checkId, "cancel");
  });
}

/** Thrown in an operation's transaction when another run of its job has already ended it: the work is rolled back. */
class OperationEnded extends Error {}

/** Ends a pending operation, in `client`'s transaction; false when it had already ended (another run of its job). */
async function endOperation(client: Pick<Prisma.TransactionClient, "checkOperation">, operationId: string, data: { status: "completed" | "failed"; result?: Prisma.InputJsonValue; error?: string }) {
  const { count } = await client.checkOperation.updateMany({ where: { id: operationId, status: { in: [...PENDING_OPERATION_STATUSES] } }, data: { ...data, finishedAt: new Date() } });
  return count > 0;
}

/**
 * Runs an operation (the check_operation job). A retry acts as its requester with the role they
 * hold now (a member demoted meanwhile is refused); a cancel was granted when it was asked, and
 * the check has carried it since. A UserError (nothing to retry, every capture refused, the
 * budget, the check cancelled since the retry was asked) is the operation's outcome, shown on the
 * check page; any other error is thrown, so graphile-worker runs the job again.
 *
 * The operation is marked completed in the transaction that does its work, and only if it is
 * still pending: a job run again after that commit (a crash, a lost connection, a lease the
 * sweeper took over while the first run was still going) finds it ended, or rolls its own work
 * back. Without that, a retry run twice retried the captures that had failed again meanwhile,
 * and a cancel run again after a later retry cancelled what that retry queued.
 */
export async function runCheckOperation(operationId: string): Promise<void> {
  const operation = await db().checkOperation.findUnique({ where: { id: operationId } });
  if (!operation || operation.status === "completed" || operation.status === "failed") return;
  // Only a pending one: a run that ended it meanwhile is not undone.
  const started = await db().checkOperation.updateMany({ where: { id: operationId, status: { in: [...PENDING_OPERATION_STATUSES] } }, data: { status: "running", startedAt: new Date() } });
  if (!started.count) return;
  await pausePoint("operation:started", { operationId });
  const membership = operation.requestedById
    ? await db().membership.findFirst({ where: { workspaceId: operation.workspaceId, userId: operation.requestedById }, select: { role: true } })
    : null;
  const caller: Caller = { workspaceId: operation.workspaceId, userId: operation.requestedById, role: membership?.role ?? "viewer", apiKeyId: operation.requestedByApiKeyId };
  const run = {
    id: operationId,
    complete: async (tx: Prisma.TransactionClient, result: Prisma.InputJsonValue) => {
      if (!(await endOperation(tx, operationId, { status: "completed", result }))) throw new OperationEnded();
    },
  };
  // A cancel asked for after this retry was, by any path: retryCaptures refuses, under the
  // check's lock (CANCEL_WAITING while its operation waits to run, CANCELLED_SINCE after).
  try {
    if (operation.kind === "retry") await retryCaptures(caller, { checkId: operation.checkId }, run);
    else await cancelCheckCaptures(caller, operation.checkId, run);
  } catch (error) {
    if (error instanceof OperationEnded) return;
    if (!(error instanceof UserError)) throw error;
    await endOperation(db(), operationId, { status: "failed", error: error.message });
  }
}

/** The check's latest operation, for its poll (index on check_operations ("checkId", "createdAt")). */
export async function latestCheckOperation(checkId: string): Promise<CheckOperationView | null> {
  const operation = await db().checkOperation.findFirst({
    where: { checkId },
    orderBy: { createdAt: "desc" },
    select: { id: true, kind: true, status: true, result: true, error: true },
  });
  return operation ? { ...operation, result: operation.result as CheckOperationView["result"] } : null;
}
