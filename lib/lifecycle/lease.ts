import "server-only";
import { inTransaction } from "@/lib/db/transaction";
import { unknownOutcomeCost, type PriceTable } from "@/lib/billing/money";
import { decideAfterFailure } from "@/lib/captures/retry-policy";
import { TERMINAL_STATUSES } from "@/lib/captures/states";
import { Effects, applyEffects, cancelAware, chargeFinishedCheck, closeAttempt, guardedUpdate, settleMoved } from "@/lib/lifecycle/transition";
import { Prisma } from "@/lib/generated/prisma/client";
import type { CallLimits } from "@/lib/providers/types";
import type { OrphanReason } from "@/lib/jobs/heartbeats";
import type { SearchMode } from "@/lib/providers/types";


/** The event kind of every repair of an impossible or abandoned state (lib/lifecycle/repair.ts). */
export const REPAIR_EVENT = "lifecycle_repaired";

/**
 * Transition `expireLease` (running -> queued | failed | cancelled) for one attempt whose run is
 * over without a result: its worker's lease expired (crash, freeze, lost network), or its worker
 * is alive but no longer runs it (a result it could not write). The attempt ends `unknown` and
 * is charged its estimate (the provider may have billed it); the capture runs again unless the
 * retry policy says it has had enough, or it carries a cancel request.
 *
 * Guarded by the run token: if the worker, slow but alive, wrote its result first, the capture
 * is not touched, and the attempt is already closed. Returns what became of the capture, or
 * null when the guard was lost.
 */
export async function expireAttempt(runToken: string, reason: OrphanReason): Promise<"queued" | "failed" | "cancelled" | null> {
  return inTransaction(async (tx) => {
    const [run] = await tx.$queryRaw<(ExpiredRun & PriceTable & CallLimits)[]>`
      SELECT a."captureId", c."checkId", c."workspaceId", p.text AS "promptText", c."searchMode"::text AS "searchMode", c."maxAttempts",
             pc."unknownRetries", pc."inputPricePerMTokMicros", pc."outputPricePerMTokMicros", pc."cachedPricePerMTokMicros",
             pc."reasoningPricePerMTokMicros", pc."searchPriceMicros", pc."maxOutputTokens", pc."maxSearchCalls",
             (extract(epoch FROM clock_timestamp() AT TIME ZONE 'UTC' - a."startedAt") * 1000)::int AS "latencyMs",
             c."spentAttempts" AS spent, c."unknownAttempts" AS "unknownSpent"
      FROM attempts a JOIN captures c ON c.id = a."captureId" JOIN prompt_versions p ON p.id = c."promptVersionId" JOIN provider_connections pc ON pc.id = c."connectionId"
      WHERE a."runToken" = ${runToken}::uuid AND a.outcome IS NULL`;
    if (!run) return null;
    const lastError = reason === "lease_expired" ? "The worker stopped responding" : "The worker could not record the result";
    // This attempt counts as spent and unknown, on top of those already closed (the capture's
    // counters, beacon_close_attempt: retention deletes attempts, not what they spent).
    const decision = decideAfterFailure({
      retryClass: "unknown",
      reason: `${lastError}; outcome unknown`,
      spent: run.spent + 1,
      unknownSpent: run.unknownSpent + 1,
      maxAttempts: run.maxAttempts,
      unknownRetries: run.unknownRetries,
      // Run again at once: the delay is for providers that failed, this one may not have.
      random: () => 0,
      baseMs: 0,
    });
    const next = cancelAware(decision.next === "retry" ? "queued" : "failed");
    const [moved] = await guardedUpdate(
      tx,
      "expireLease",
      { ids: [run.captureId], runToken },
      Prisma.sql`status = ${next}, "runToken" = CASE WHEN ${next} = 'queued' THEN NULL ELSE c."runToken" END,
                 "lastError" = CASE WHEN ${next} = 'cancelled' THEN 'Cancelled by user'
                                    WHEN ${next} = 'failed' THEN ${decision.next === "failed" ? decision.reason : lastError}
                                    ELSE ${`${lastError}; running again`} END,
                 "lastErrorClass" = 'unknown', "finishedAt" = CASE WHEN ${next} = ANY(${[...TERMINAL_STATUSES]}::"CaptureStatus"[]) THEN now() END`,
    );
    // The provider may have done (and billed) the work: charged its estimate.
    const closed = await closeAttempt(tx, runToken, {
      outcome: "unknown",
      reason,
      errorClass: "unknown",
      costMicros: unknownOutcomeCost(run.promptText, run.searchMode, run, run),
      costIsEstimate: true,
      latencyMs: Math.max(0, run.latencyMs),
    });
    const effects = new Effects().call(closed);
    // The capture moved on without closing this attempt (it cannot; if it did, the attempt must
    // not stay open for ever): its money is settled all the same, its finished check charged.
    if (!moved) {
      if (closed) await chargeFinishedCheck(tx, run.checkId, closed);
      await applyEffects(tx, effects);
      return null;
    }
    effects.event(
      reason === "lease_expired"
        ? { workspaceId: moved.workspaceId, checkId: moved.checkId, captureId: moved.id, kind: "lease_expired", data: { runToken } }
        : // A live worker gave this run up: not a crash, a repair (counted in beacon_lifecycle_repairs_total).
          { workspaceId: moved.workspaceId, checkId: moved.checkId, captureId: moved.id, kind: REPAIR_EVENT, data: { kind: "abandoned_attempt", runToken } },
    );
    if (moved.status === "queued") effects.enqueue([moved.id]);
    await settleMoved(tx, [moved], effects);
    await applyEffects(tx, effects);
    return moved.status as "queued" | "failed" | "cancelled";
  });
}

type ExpiredRun = {
  captureId: string;
  checkId: string;
  workspaceId: string;
  promptText: string;
  searchMode: SearchMode;
  maxAttempts: number;
  unknownRetries: number;
  latencyMs: number;
  spent: number;
  unknownSpent: number;
};
