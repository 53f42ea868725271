import "server-only";
import { inTransaction } from "@/lib/db/transaction";
import { Effects, applyEffects, cancelAware, guardedUpdate, settleMoved, type Tx } from "@/lib/lifecycle/transition";
import type { CaptureWait } from "@/lib/captures/states";
import { Prisma } from "@/lib/generated/prisma/client";

/**
 * Transition `postpone` (waiting -> postponed): the capture waits without spending an attempt,
 * for an open breaker, for budget or for a free slot, and its job runs again after `delayMs`
 * (database clock) unless it is woken earlier.
 * A capture that carries a cancel request is cancelled instead.
 */
export async function postponeIn(tx: Tx, captureId: string, wait: { waitingFor: CaptureWait; delayMs: number }): Promise<boolean> {
  const effects = new Effects();
  const moved = await guardedUpdate(
    tx,
    "postpone",
    { ids: [captureId] },
    Prisma.sql`status = ${cancelAware("postponed")}, "waitingFor" = ${wait.waitingFor}::"CaptureWait",
               "nextAttemptAt" = now() + make_interval(secs => ${wait.delayMs / 1000}::float8),
               "finishedAt" = CASE WHEN c."cancelRequestedAt" IS NOT NULL THEN now() END`,
  );
  for (const m of moved) {
    if (m.status === "postponed") effects.enqueue([m.id], wait.delayMs);
  }
  await settleMoved(tx, moved, effects);
  await applyEffects(tx, effects);
  return moved.some((m) => m.status === "postponed");
}

export function postponeCapture(captureId: string, wait: { waitingFor: CaptureWait; delayMs: number }): Promise<boolean> {
  return inTransaction((tx) => postponeIn(tx, captureId, wait));
}
