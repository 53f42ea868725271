// The capture state machine's vocabulary (DESIGN.md "Capture state machine"), pure so that the
// server, the client components, the zod schemas and the OpenAPI document all read the same
// lists. The transitions themselves, the only code that writes a capture's status, live in
// lib/lifecycle/.
//
//   queued -> running -> succeeded            also when a cancel request came after the answer
//                                              had arrived: it was paid for, so it is kept and analysed
//   running -> retry_wait -> queued            transient error, attempts left
//   running -> failed                          permanent error, or attempts exhausted
//   queued  -> postponed -> running            breaker open, no budget for the next attempt, or
//                                              every slot of the connection taken
//   queued | retry_wait | postponed -> cancelled
//   queued | retry_wait | postponed -> failed  claim refused: the operator revoked the grant,
//                                              disabled the connection or took the model off
//                                              the allowlist (no attempt, nothing called)
//   running -> cancelled                       provider call aborted, partial answer kept
//   failed | cancelled -> queued               admin retry

export const CAPTURE_STATUSES = ["queued", "running", "retry_wait", "postponed", "succeeded", "failed", "cancelled"] as const;
export type CaptureStatus = (typeof CAPTURE_STATUSES)[number];

/** Waiting for a worker: a job exists for each of these, and a claim may start an attempt. */
export const WAITING_STATUSES = ["queued", "retry_wait", "postponed"] as const satisfies readonly CaptureStatus[];
export const TERMINAL_STATUSES = ["succeeded", "failed", "cancelled"] as const satisfies readonly CaptureStatus[];
/** Not finished: waiting or running. */
export const UNFINISHED_STATUSES = [...WAITING_STATUSES, "running"] as const satisfies readonly CaptureStatus[];
/** What an admin may put back in the queue. */
export const RETRYABLE_STATUSES = ["failed", "cancelled"] as const satisfies readonly CaptureStatus[];

const within = (list: readonly string[]) => (status: string) => list.includes(status);
export const isWaiting = within(WAITING_STATUSES);
export const isTerminal = within(TERMINAL_STATUSES);
export const isUnfinished = within(UNFINISHED_STATUSES);
export const isRetryable = within(RETRYABLE_STATUSES);

/**
 * Every named transition with the statuses it may start from and may end in. A transition whose
 * capture is not in `from` (or no longer carries the caller's run token) loses and writes
 * nothing. A capture that carries a cancel request ends `cancelled` whatever the transition
 * meant to do, unless it already finished or its answer had arrived (`succeed`: the paid answer
 * is kept, and the capture succeeded, with a note that the cancel came too late).
 */
export const TRANSITIONS = {
  claim: { from: WAITING_STATUSES, to: ["running"] },
  /**
   * The claim found that the workspace may no longer call the capture's connection with its model
   * (revoked, disabled, off the allowlist): the capture fails at once with the reason, without an
   * attempt. Run by the claim's own statement (beacon_claim), so it starts from the same statuses.
   */
  refuse: { from: WAITING_STATUSES, to: ["failed"] },
  postpone: { from: WAITING_STATUSES, to: ["postponed"] },
  succeed: { from: ["running"], to: ["succeeded"] },
  fail: { from: ["running"], to: ["retry_wait", "failed", "cancelled", "queued"] },
  expireLease: { from: ["running"], to: ["queued", "failed", "cancelled"] },
  cancel: { from: UNFINISHED_STATUSES, to: ["cancelled", "running"] },
  adminRetry: { from: RETRYABLE_STATUSES, to: ["queued"] },
} as const satisfies Record<string, { from: readonly CaptureStatus[]; to: readonly CaptureStatus[] }>;
export type TransitionName = keyof typeof TRANSITIONS;

/** Why a postponed capture waits (capture.waitingFor). */
export type CaptureWait = "breaker" | "budget" | "slot";

const WAIT_LABELS: Record<CaptureWait, string> = { breaker: "postponed (breaker open)", budget: "waiting for budget", slot: "waiting for a free slot" };

/** What the grid and the jobs page call a status; a postponed capture says what it waits for. */
export function captureStatusLabel(status: CaptureStatus, waitingFor?: CaptureWait | null): string {
  if (status === "postponed") return WAIT_LABELS[waitingFor ?? "breaker"];
  return status === "retry_wait" ? "waiting to retry" : status;
}

// ---------------------------------------------------------------------------------------------
// Checks: their status is derived from their captures' counts.

export const CHECK_STATUSES = ["queued", "running", "completed", "completed_with_errors", "failed", "cancelled"] as const;
export type CheckStatus = (typeof CHECK_STATUSES)[number];
export const TERMINAL_CHECK_STATUSES = ["completed", "completed_with_errors", "failed", "cancelled"] as const satisfies readonly CheckStatus[];
export const isCheckFinished = within(TERMINAL_CHECK_STATUSES);

/** A check's cancel or retry from its page (check_operations) asked for and not done yet: a worker runs it. */
export const PENDING_OPERATION_STATUSES = ["queued", "running"] as const;

export type CheckCounts = { queued: number; running: number; succeeded: number; failed: number; cancelled: number; total: number };

/** A check's status from its captures' counts (queued counts every waiting capture). */
export function deriveCheckStatus(counts: CheckCounts, cancelRequested: boolean): CheckStatus {
  const terminal = counts.succeeded + counts.failed + counts.cancelled;
  if (terminal < counts.total) return counts.running > 0 || terminal > 0 ? "running" : "queued";
  if (cancelRequested && counts.cancelled > 0) return "cancelled";
  if (counts.succeeded === counts.total) return "completed";
  if (counts.succeeded > 0) return "completed_with_errors";
  // Nothing answered: failed if anything failed, else every capture was cancelled one by one.
  return counts.failed > 0 ? "failed" : "cancelled";
}
