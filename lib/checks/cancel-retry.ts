import "server-only";
import { reserveBudget } from "@/lib/billing/budget";
import { costOf, estimateUsage } from "@/lib/billing/money";
import { assertCan, canCancelCheck, canRetryCapture, type Actor } from "@/lib/auth/permissions";
import { refreshCheck } from "@/lib/checks/refresh";
import { db } from "@/lib/db/prisma";
import { NotFoundError, UserError } from "@/lib/errors";
import type { Prisma } from "@/lib/generated/prisma/client";
import { enqueueCaptureJobs } from "@/lib/jobs/enqueue";

type Tx = Prisma.TransactionClient;

export type Caller = Actor & { workspaceId: string; apiKeyId?: string | null };

const WAITING = ["queued", "retry_wait", "postponed"] as const;
const RETRYABLE = ["failed", "cancelled"] as const;

const actorFields = (caller: Caller) => ({ actorUserId: caller.userId, actorApiKeyId: caller.apiKeyId ?? null });

/**
 * Cancel is a flag in the database, never an in-memory handle (DESIGN.md "Cancellation"):
 * waiting captures are cancelled here at once; running ones carry `cancelRequestedAt` and the
 * worker that runs them aborts the provider call within a second and keeps the partial answer.
 */
async function cancelCaptures(tx: Tx, caller: Caller, where: Prisma.CaptureWhereInput) {
  const now = new Date();
  const who = caller.userId ? "Cancelled by user" : "Cancelled through the API";
  // Lock the candidates first: a worker claiming one of them now either finishes its claim
  // before we read (and we flag it as running) or waits and then finds it cancelled.
  const candidates = await tx.capture.findMany({ where: { ...where, status: { in: [...WAITING, "running"] } }, select: { id: true } });
  const locked = await tx.$queryRaw<{ id: string; checkId: string; status: string; cancelRequestedAt: Date | null }[]>`
    SELECT id, "checkId", status::text AS status, "cancelRequestedAt" FROM captures WHERE id = ANY(${candidates.map((c) => c.id)}::uuid[]) ORDER BY id FOR UPDATE`;
  const waiting = locked.filter((c) => (WAITING as readonly string[]).includes(c.status));
  const running = locked.filter((c) => c.status === "running" && !c.cancelRequestedAt);
  await tx.capture.updateMany({
    where: { id: { in: waiting.map((c) => c.id) } },
    data: { status: "cancelled", cancelRequestedAt: now, cancelledById: caller.userId, lastError: who, finishedAt: now, nextAttemptAt: null },
  });
  await tx.capture.updateMany({ where: { id: { in: running.map((c) => c.id) } }, data: { cancelRequestedAt: now, cancelledById: caller.userId } });
  const touched = [...waiting, ...running];
  await tx.event.createMany({
    data: touched.map((c) => ({ workspaceId: caller.workspaceId, checkId: c.checkId, captureId: c.id, kind: "capture_cancelled", ...actorFields(caller) })),
  });
  return { cancelledNow: waiting.length, aborting: running.length };
}

async function findCheck(tx: Tx, caller: Caller, checkId: string) {
  const check = await tx.check.findFirst({ where: { id: checkId, workspaceId: caller.workspaceId } });
  if (!check) throw new NotFoundError("That check does not exist in this workspace.");
  return check;
}

export async function cancelCheck(caller: Caller, checkId: string) {
  return db().$transaction(async (tx) => {
    const check = await findCheck(tx, caller, checkId);
    assertCan(canCancelCheck(caller, check), "Only admins, owners and the member who started a check can cancel it.");
    if (["completed", "completed_with_errors", "failed", "cancelled"].includes(check.status)) {
      throw new UserError("This check has already finished.");
    }
    await tx.check.update({ where: { id: check.id }, data: { cancelRequestedAt: new Date(), cancelledById: caller.userId } });
    await tx.event.create({ data: { workspaceId: caller.workspaceId, checkId: check.id, kind: "check_cancelled", ...actorFields(caller) } });
    const result = await cancelCaptures(tx, caller, { checkId: check.id });
    await refreshCheck(tx, check.id);
    return result;
  });
}

export async function cancelCapture(caller: Caller, captureId: string) {
  return db().$transaction(async (tx) => {
    const capture = await tx.capture.findFirst({ where: { id: captureId, workspaceId: caller.workspaceId }, include: { check: true } });
    if (!capture) throw new NotFoundError("That capture does not exist in this workspace.");
    assertCan(canCancelCheck(caller, capture.check), "Only admins, owners and the member who started the check can cancel its captures.");
    if (!["queued", "retry_wait", "postponed", "running"].includes(capture.status)) throw new UserError(`This capture has already ${capture.status}.`);
    if (capture.cancelRequestedAt) throw new UserError("This capture is already being cancelled.");
    const result = await cancelCaptures(tx, caller, { id: capture.id });
    await refreshCheck(tx, capture.checkId);
    return result;
  });
}

/**
 * Admin retry: failed or cancelled captures go back to the queue with a fresh allowance of
 * attempts, and their estimated cost is reserved again.
 */
export async function retryCaptures(caller: Caller, target: { captureId: string } | { checkId: string }) {
  assertCan(canRetryCapture(caller), "Only admins and owners can retry captures.");
  return db().$transaction(async (tx) => {
    const where: Prisma.CaptureWhereInput =
      "captureId" in target ? { id: target.captureId, workspaceId: caller.workspaceId } : { checkId: target.checkId, workspaceId: caller.workspaceId };
    const candidates = await tx.capture.findMany({
      where,
      select: { id: true, checkId: true, status: true, attemptCount: true, searchMode: true, prompt: { select: { text: true } }, providerConfig: true },
    });
    if (!candidates.length) throw new NotFoundError("captureId" in target ? "That capture does not exist in this workspace." : "That check does not exist in this workspace.");
    const retryable = candidates.filter((c) => (RETRYABLE as readonly string[]).includes(c.status));
    if (!retryable.length) throw new UserError("captureId" in target ? `Only failed or cancelled captures can be retried (this one is ${candidates[0]!.status}).` : "This check has no failed or cancelled captures to retry.");

    const estimate = retryable.reduce((sum, c) => sum + costOf(estimateUsage(c.prompt.text, c.searchMode), c.providerConfig), 0);
    await reserveBudget(tx, caller.workspaceId, estimate);
    const checkIds = [...new Set(retryable.map((c) => c.checkId))];
    for (const c of retryable) {
      await tx.capture.update({
        where: { id: c.id },
        data: {
          status: "queued",
          maxAttempts: c.attemptCount + c.providerConfig.maxAttempts,
          runToken: null,
          cancelRequestedAt: null,
          cancelledById: null,
          lastError: null,
          lastErrorClass: null,
          nextAttemptAt: null,
          finishedAt: null,
        },
      });
    }
    await tx.check.updateMany({ where: { id: { in: checkIds } }, data: { cancelRequestedAt: null, cancelledById: null, reservedMicros: { increment: estimate } } });
    await enqueueCaptureJobs(tx, { captureIds: retryable.map((c) => c.id) });
    await tx.event.createMany({
      data: retryable.map((c) => ({ workspaceId: caller.workspaceId, checkId: c.checkId, captureId: c.id, kind: "capture_retried", ...actorFields(caller) })),
    });
    for (const checkId of checkIds) await refreshCheck(tx, checkId);
    return { retried: retryable.length };
  });
}
