import "server-only";
import { unknownOutcomeCost } from "@/lib/billing/money";
import { decideAfterFailure } from "@/lib/captures/retry-policy";
import { Effects, applyEffects, cancelAware, closeAttempt, guardedUpdate, inTransaction, releaseFinishedHolds } from "@/lib/captures/lifecycle/transition";
import { Prisma } from "@/lib/generated/prisma/client";

export type ExpireReason = "lease_expired" | "abandoned";

/** The event kind of every repair of an impossible or abandoned state (lib/captures/lifecycle/repair.ts). */
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
export async function expireAttempt(runToken: string, reason: ExpireReason): Promise<"queued" | "failed" | "cancelled" | null> {
  return inTransaction(async (tx) => {
    const [attempt] = await tx.$queryRaw<
      { captureId: string; startedAt: Date; promptText: string; searchMode: "on" | "off" | "auto"; maxAttempts: number; unknownRetries: number; spent: number; unknownSpent: number }[]
    >`
      SELECT a."captureId", a."startedAt", p.text AS "promptText", c."searchMode"::text AS "searchMode", c."maxAttempts", pc."unknownRetries",
             (SELECT count(*)::int FROM attempts x WHERE x."captureId" = a."captureId" AND x.outcome IN ('failed', 'unknown')) AS spent,
             (SELECT count(*)::int FROM attempts x WHERE x."captureId" = a."captureId" AND x.outcome = 'unknown') AS "unknownSpent"
      FROM attempts a JOIN captures c ON c.id = a."captureId" JOIN prompts p ON p.id = c."promptId" JOIN provider_configs pc ON pc.id = c."providerConfigId"
      WHERE a."runToken" = ${runToken}::uuid AND a.outcome IS NULL`;
    if (!attempt) return null;
    const lastError = reason === "lease_expired" ? "The worker stopped responding" : "The worker could not record the result";
    // This attempt counts as spent and unknown, on top of those already closed.
    const decision = decideAfterFailure({
      retryClass: "unknown",
      reason: `${lastError}; outcome unknown`,
      spent: attempt.spent + 1,
      unknownSpent: attempt.unknownSpent + 1,
      maxAttempts: attempt.maxAttempts,
      unknownRetries: attempt.unknownRetries,
      // Run again at once: the delay is for providers that failed, this one may not have.
      random: () => 0,
      baseMs: 0,
    });
    const next = cancelAware(decision.next === "retry" ? "queued" : "failed");
    const [moved] = await guardedUpdate(
      tx,
      "expireLease",
      { ids: [attempt.captureId], runToken },
      Prisma.sql`status = ${next}, "runToken" = CASE WHEN ${next} = 'queued' THEN NULL ELSE c."runToken" END,
                 "lastError" = CASE WHEN ${next} = 'cancelled' THEN 'Cancelled by user'
                                    WHEN ${next} = 'failed' THEN ${decision.next === "failed" ? decision.reason : lastError}
                                    ELSE ${`${lastError}; running again`} END,
                 "lastErrorClass" = 'unknown', "finishedAt" = CASE WHEN ${next} IN ('failed', 'cancelled') THEN now() END`,
    );
    const [price] = await tx.$queryRaw<
      { inputPricePerMTokMicros: number; outputPricePerMTokMicros: number; cachedPricePerMTokMicros: number; reasoningPricePerMTokMicros: number; searchPriceMicros: number; maxOutputTokens: number; maxSearchCalls: number }[]
    >`
      SELECT pc."inputPricePerMTokMicros", pc."outputPricePerMTokMicros", pc."cachedPricePerMTokMicros", pc."reasoningPricePerMTokMicros", pc."searchPriceMicros",
             pc."maxOutputTokens", pc."maxSearchCalls"
      FROM captures c JOIN provider_configs pc ON pc.id = c."providerConfigId" WHERE c.id = ${attempt.captureId}::uuid`;
    const estimate = unknownOutcomeCost(attempt.promptText, attempt.searchMode, price!, price!);
    const [latency] = await tx.$queryRaw<{ ms: number }[]>`SELECT (extract(epoch FROM now() AT TIME ZONE 'UTC' - ${attempt.startedAt}::timestamp) * 1000)::int AS ms`;
    const closed = await closeAttempt(tx, runToken, {
      outcome: "unknown",
      reason,
      errorClass: "unknown",
      costMicros: estimate,
      costIsEstimate: true,
      latencyMs: Math.max(0, latency?.ms ?? 0),
    });
    if (!moved) {
      // The capture moved on without closing this attempt (it cannot, but if it did, the
      // attempt must not stay open for ever); its money is settled all the same.
      if (closed) await applyEffects(tx, new Effects().call(closed, (await tx.capture.findUniqueOrThrow({ where: { id: attempt.captureId }, select: { checkId: true } })).checkId));
      return null;
    }
    const effects = new Effects().check(moved.checkId).call(closed, moved.checkId);
    effects.event(
      reason === "lease_expired"
        ? { workspaceId: moved.workspaceId, checkId: moved.checkId, captureId: moved.id, kind: "lease_expired", data: { runToken } }
        : // A live worker gave this run up: not a crash, a repair (counted in beacon_lifecycle_repairs_total).
          { workspaceId: moved.workspaceId, checkId: moved.checkId, captureId: moved.id, kind: REPAIR_EVENT, data: { kind: "abandoned_attempt", runToken } },
    );
    if (moved.status === "queued") effects.enqueue([moved.id]);
    await releaseFinishedHolds(tx, [moved], effects);
    await applyEffects(tx, effects);
    return moved.status as "queued" | "failed" | "cancelled";
  });
}
