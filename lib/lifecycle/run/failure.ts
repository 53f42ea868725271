import "server-only";
import { unknownOutcomeCost, type PriceTable } from "@/lib/billing/money";
import type { CallOutcome } from "@/lib/breaker/breaker";
import type { Failure } from "@/lib/lifecycle/results";
import { decideAfterFailure } from "@/lib/captures/retry-policy";
import { env } from "@/lib/config/env";
import { db } from "@/lib/db/prisma";
import { CallAbortedError, ProviderError } from "@/lib/providers/errors";
import type { CallLimits } from "@/lib/providers/types";
import type { SearchMode } from "@/lib/providers/types";

// What a failed provider call means (DESIGN.md "Retries by error class", "Cancellation"): for
// the breaker, and for the capture (the `fail` transition a worker records).

/** What a failed call tells the breaker: provider trouble counts, our aborts and bad requests do not. */
export function breakerOutcome(error: unknown): CallOutcome {
  if (error instanceof CallAbortedError) return error.abortReason === "timeout" ? "failure" : "ignored";
  if (error instanceof ProviderError) return error.retryClass === "permanent" ? "ignored" : "failure";
  return "failure";
}

/** What failureOf needs to know of the capture. */
export type FailedCapture = {
  id: string;
  maxAttempts: number;
  searchMode: SearchMode;
  prompt: { text: string };
  connection: PriceTable & { unknownRetries: number };
};

/** The `fail` transition for a failed call. */
export async function failureOf(
  error: unknown,
  capture: FailedCapture,
  ctx: { partialText: string; latencyMs: number; limits: CallLimits; timeoutNoticedAt?: Date },
): Promise<Failure> {
  const config = capture.connection;
  const estimate = unknownOutcomeCost(capture.prompt.text, capture.searchMode, ctx.limits, config);
  const base = { partialText: ctx.partialText || undefined };
  // A call cut off mid-flight may have been billed (charged its estimate); one stopped before its
  // request left was not (nothing charged).
  const sent = !(error instanceof CallAbortedError) || error.sent;
  const aborted = (reason: string) => ({ outcome: "cancelled" as const, reason, costMicros: sent ? estimate : 0, costIsEstimate: sent, latencyMs: ctx.latencyMs });

  if (error instanceof CallAbortedError && error.abortReason === "cancelled") {
    // Two facts (DESIGN.md "Cancellation"): the user cancelled the capture, and the call was cut
    // off mid-flight, so whether the provider billed it is unknown (charged its estimate).
    return {
      ...base,
      next: "cancelled",
      lastError: "Cancelled by user",
      attempt: aborted("cancelled_by_user"),
      events: [{ kind: "attempt_aborted", data: { reason: "cancelled_by_user", billing: sent ? "unknown" : "none" } }],
    };
  }
  if (error instanceof CallAbortedError && error.abortReason === "shutdown") return { ...base, next: "queued", attempt: aborted("shutdown") };

  const failure =
    error instanceof ProviderError
      ? error
      : error instanceof CallAbortedError // timeout: the request was sent and may have been billed
        ? new ProviderError("The provider did not answer in time", { retryClass: "unknown", reason: "timeout" })
        : new ProviderError(`Unexpected error: ${(error as Error)?.message ?? String(error)}`, { retryClass: "unknown", reason: "unexpected_error" });
  const unknown = failure.retryClass === "unknown";
  // The budget spent by the capture's attempts ended so far, read now (not with the capture
  // before the call): counted on its row by beacon_close_attempt, which retention does not undo.
  const budget = await db().capture.findUniqueOrThrow({ where: { id: capture.id }, select: { spentAttempts: true, unknownAttempts: true } });
  const decision = decideAfterFailure({
    retryClass: failure.retryClass,
    reason: failure.message,
    spent: budget.spentAttempts + 1,
    unknownSpent: budget.unknownAttempts + (unknown ? 1 : 0),
    maxAttempts: capture.maxAttempts,
    unknownRetries: config.unknownRetries,
    retryAfterMs: failure.retryAfterMs,
    baseMs: env().BEACON_RETRY_BASE_MS,
  });
  // A timeout's answer may still come after the abort, paid and never read: the attempt is charged
  // its estimate, and the event says when the worker gave up on it (the chaos test's oracle reads it).
  const timedOut = error instanceof CallAbortedError && ctx.timeoutNoticedAt;
  return {
    ...base,
    events: timedOut ? [{ kind: "attempt_timed_out", data: { noticedAt: ctx.timeoutNoticedAt!.toISOString() } }] : undefined,
    next: decision.next === "retry" ? "retry_wait" : "failed",
    // Measured from now, when the response has arrived: Retry-After counts from then.
    delayMs: decision.next === "retry" ? decision.delayMs : undefined,
    lastError: decision.next === "retry" ? failure.message : decision.reason,
    attempt: {
      outcome: unknown ? "unknown" : "failed",
      reason: failure.reason,
      errorClass: failure.retryClass,
      httpStatus: failure.httpStatus,
      providerRequestId: failure.requestId,
      costMicros: unknown ? estimate : 0,
      costIsEstimate: unknown,
      latencyMs: ctx.latencyMs,
    },
  };
}
