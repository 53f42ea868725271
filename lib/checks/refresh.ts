import "server-only";
import { settleBudget } from "@/lib/billing/budget";
import type { Prisma } from "@/lib/generated/prisma/client";

type Tx = Prisma.TransactionClient;

export type CheckStatus = "queued" | "running" | "completed" | "completed_with_errors" | "failed" | "cancelled";
export const TERMINAL_CHECK_STATUSES: CheckStatus[] = ["completed", "completed_with_errors", "failed", "cancelled"];

type Counts = { queued: number; running: number; succeeded: number; failed: number; cancelled: number; total: number };

/** A check's status is derived from its captures (DESIGN.md "Capture state machine"). */
export function deriveCheckStatus(counts: Counts, cancelRequested: boolean): CheckStatus {
  const terminal = counts.succeeded + counts.failed + counts.cancelled;
  if (terminal < counts.total) return counts.running > 0 || terminal > 0 ? "running" : "queued";
  if (cancelRequested && counts.cancelled > 0) return "cancelled";
  if (counts.succeeded === counts.total) return "completed";
  return counts.succeeded > 0 ? "completed_with_errors" : "failed";
}

/**
 * Derives a check's status from its capture counts (kept by a database trigger on every capture
 * status change, see migration 20261129150000) under the check's row lock, so that workers
 * finishing captures at the same moment cannot interleave. NO KEY UPDATE, not UPDATE: the same
 * transactions insert events that reference the check, and the KEY SHARE lock those foreign
 * keys take would deadlock against a full UPDATE lock. When the check becomes terminal, its
 * money is settled: the reservation is released and the accepted cost charged.
 */
export async function refreshCheck(tx: Tx, checkId: string): Promise<CheckStatus> {
  const [check] = await tx.$queryRaw<
    {
      workspaceId: string;
      createdAt: Date;
      status: CheckStatus;
      cancelRequestedAt: Date | null;
      reservedMicros: bigint;
      chargedMicros: bigint;
      finishedAt: Date | null;
      queued: number;
      running: number;
      succeeded: number;
      failed: number;
      cancelled: number;
      total: number;
    }[]
  >`
    SELECT "workspaceId", "createdAt", status, "cancelRequestedAt", "reservedMicros", "chargedMicros", "finishedAt",
           "queuedCount" AS queued, "runningCount" AS running, "succeededCount" AS succeeded, "failedCount" AS failed,
           "cancelledCount" AS cancelled, "totalCaptures" AS total
    FROM checks WHERE id = ${checkId}::uuid FOR NO KEY UPDATE`;
  if (!check) return "failed";
  const status = deriveCheckStatus(check, check.cancelRequestedAt !== null);
  const terminal = TERMINAL_CHECK_STATUSES.includes(status);
  const settle = terminal && check.reservedMicros > 0n;
  if (status === check.status && !settle && (terminal ? check.finishedAt : !check.finishedAt)) return status;

  let accepted = check.chargedMicros;
  if (settle) {
    const [row] = await tx.$queryRaw<{ accepted: bigint }[]>`
      SELECT coalesce(sum("costMicros"), 0)::bigint AS accepted FROM captures WHERE "checkId" = ${checkId}::uuid AND status = 'succeeded'`;
    accepted = row!.accepted;
    await settleBudget(tx, check.workspaceId, check.createdAt, check.reservedMicros, accepted - check.chargedMicros);
  }
  await tx.check.update({
    where: { id: checkId },
    data: {
      status,
      ...(settle ? { reservedMicros: 0n, chargedMicros: accepted } : {}),
      finishedAt: terminal ? (check.finishedAt ?? new Date()) : null,
    },
  });
  return status;
}
