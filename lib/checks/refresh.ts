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
 * Recomputes a check's counts and status from its captures, under the check's row lock so that
 * workers finishing captures at the same moment cannot interleave. NO KEY UPDATE, not UPDATE:
 * the same transactions insert events that reference the check, and the KEY SHARE lock those
 * foreign keys take would deadlock against a full UPDATE lock. When the check becomes
 * terminal, its money is settled: the reservation is released and the accepted cost charged.
 */
export async function refreshCheck(tx: Tx, checkId: string): Promise<CheckStatus> {
  const [check] = await tx.$queryRaw<{ workspaceId: string; createdAt: Date; status: CheckStatus; cancelRequestedAt: Date | null; reservedMicros: bigint; chargedMicros: bigint; finishedAt: Date | null }[]>`
    SELECT "workspaceId", "createdAt", status, "cancelRequestedAt", "reservedMicros", "chargedMicros", "finishedAt" FROM checks WHERE id = ${checkId}::uuid FOR NO KEY UPDATE`;
  if (!check) return "failed";
  const [row] = await tx.$queryRaw<{ queued: bigint; running: bigint; succeeded: bigint; failed: bigint; cancelled: bigint; total: bigint; accepted: bigint }[]>`
    SELECT count(*) FILTER (WHERE status IN ('queued', 'retry_wait', 'postponed')) AS queued,
           count(*) FILTER (WHERE status = 'running') AS running,
           count(*) FILTER (WHERE status = 'succeeded') AS succeeded,
           count(*) FILTER (WHERE status = 'failed') AS failed,
           count(*) FILTER (WHERE status = 'cancelled') AS cancelled,
           count(*) AS total,
           coalesce(sum("costMicros") FILTER (WHERE status = 'succeeded'), 0)::bigint AS accepted
    FROM captures WHERE "checkId" = ${checkId}::uuid`;
  const counts: Counts = {
    queued: Number(row!.queued),
    running: Number(row!.running),
    succeeded: Number(row!.succeeded),
    failed: Number(row!.failed),
    cancelled: Number(row!.cancelled),
    total: Number(row!.total),
  };
  const status = deriveCheckStatus(counts, check.cancelRequestedAt !== null);
  const terminal = TERMINAL_CHECK_STATUSES.includes(status);
  const settle = terminal && check.reservedMicros > 0n;
  const accepted = row!.accepted;

  if (settle) await settleBudget(tx, check.workspaceId, check.createdAt, check.reservedMicros, accepted - check.chargedMicros);
  await tx.check.update({
    where: { id: checkId },
    data: {
      status,
      queuedCount: counts.queued,
      runningCount: counts.running,
      succeededCount: counts.succeeded,
      failedCount: counts.failed,
      cancelledCount: counts.cancelled,
      ...(settle ? { reservedMicros: 0n, chargedMicros: accepted } : {}),
      finishedAt: terminal ? (check.finishedAt ?? new Date()) : null,
    },
  });
  return status;
}
