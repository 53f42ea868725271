// What happens to a capture after a failed call (DESIGN.md "Retries by error class"). Pure, so
// the table below is unit-tested directly.
import { formatAge } from "@/lib/format";
import type { RetryClass } from "@/lib/providers/errors";

export const RETRY_BASE_MS = 1_000;

/** What a capture's "failed calls allowed" means, for the places that show it. */
export const FAILED_CALLS_HELP =
  "Every call this capture made is an attempt. Calls that failed or whose outcome is unknown count against the allowance; a call cut off by a cancel or by a worker shutting down does not. A manual retry allows the connection's maximum again, on top of the failed calls already spent.";

export const RETRY_CAP_MS = 60_000;

/**
 * The longest Retry-After a capture waits for. A provider asking for longer (a quota spent for the
 * day, an account suspended "for 24 h") would hold the capture, and its check, open for hours
 * with nothing to show: the capture fails now, saying how long was asked, and is tried again by a
 * retry or the next scheduled check.
 */
export const RETRY_AFTER_MAX_MS = 15 * 60_000;

/**
 * Exponential backoff with full jitter: a uniform delay in [0, min(cap, base * 2^(n-1))] after
 * the n-th spent attempt, but never sooner than the provider's Retry-After.
 */
export function backoffMs(spentAttempts: number, retryAfterMs: number | undefined, random: () => number = Math.random, baseMs = RETRY_BASE_MS): number {
  const ceiling = Math.min(RETRY_CAP_MS, baseMs * 2 ** Math.max(0, spentAttempts - 1));
  const jittered = Math.floor(random() * ceiling);
  return Math.max(jittered, retryAfterMs ?? 0);
}

export type FailureDecision =
  | { next: "retry"; delayMs: number }
  | { next: "failed"; reason: string };

/**
 * @param spent attempts that reached the provider and failed or ended unknown, this one included
 * @param unknownSpent of those, the ones whose outcome is unknown
 */
export function decideAfterFailure(input: {
  retryClass: RetryClass;
  reason: string;
  spent: number;
  unknownSpent: number;
  maxAttempts: number;
  unknownRetries: number;
  retryAfterMs?: number;
  random?: () => number;
  baseMs?: number;
}): FailureDecision {
  const { retryClass, reason, spent, maxAttempts } = input;
  if (retryClass === "permanent") return { next: "failed", reason };
  if (spent >= maxAttempts) return { next: "failed", reason: `${reason} (gave up after ${spent} attempt${spent === 1 ? "" : "s"})` };
  // After an unknown outcome the provider may already have done (and billed) the work, so it is
  // retried only as often as the provider's policy allows.
  if (retryClass === "unknown" && input.unknownSpent > input.unknownRetries) {
    return { next: "failed", reason: `${reason} (outcome unknown; not retried again to avoid paying twice)` };
  }
  if (input.retryAfterMs !== undefined && input.retryAfterMs > RETRY_AFTER_MAX_MS) {
    return { next: "failed", reason: `${reason} (the provider asked to wait ${formatAge(input.retryAfterMs)} before trying again; retry the capture then)` };
  }
  return { next: "retry", delayMs: backoffMs(spent, input.retryAfterMs, input.random, input.baseMs) };
}
