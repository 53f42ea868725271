// Provider failures carry their retry class (DESIGN.md "Retries by error class"):
//   permanent  no retry, the capture fails with the reason shown
//   transient  retried with backoff and jitter, honouring Retry-After
//   unknown    the request was sent and we do not know whether it was billed
export type RetryClass = "permanent" | "transient" | "unknown";

export class ProviderError extends Error {
  readonly retryClass: RetryClass;
  /** Short machine-readable reason, e.g. "rate_limited", "server_error", "timeout". */
  readonly reason: string;
  readonly httpStatus?: number;
  /** From Retry-After / retry-after-ms when the provider sent one. */
  readonly retryAfterMs?: number;
  readonly requestId?: string;
  /** Text that streamed in before the failure. */
  readonly partialText?: string;

  constructor(
    message: string,
    options: {
      retryClass: RetryClass;
      reason: string;
      httpStatus?: number;
      retryAfterMs?: number;
      requestId?: string;
      partialText?: string;
      cause?: unknown;
    },
  ) {
    super(message, { cause: options.cause });
    this.name = "ProviderError";
    this.retryClass = options.retryClass;
    this.reason = options.reason;
    this.httpStatus = options.httpStatus;
    this.retryAfterMs = options.retryAfterMs;
    this.requestId = options.requestId;
    this.partialText = options.partialText;
  }
}

/** Why the runner aborted a call. Passed as the AbortSignal's reason. */
export type AbortReason = "cancelled" | "shutdown" | "timeout" | "lease_lost";

export class CallAbortedError extends Error {
  constructor(
    readonly abortReason: AbortReason,
    readonly partialText = "",
    /** False when the call was stopped before its request left: the provider never saw it, nothing to charge. */
    readonly sent = true,
  ) {
    super(`provider call aborted (${abortReason})`);
    this.name = "CallAbortedError";
  }
}

export function abortReasonOf(signal: AbortSignal): AbortReason {
  const reason = signal.reason as unknown;
  return reason === "cancelled" || reason === "shutdown" || reason === "timeout" || reason === "lease_lost" ? reason : "shutdown";
}

/** Status codes DESIGN.md names; anything else in 4xx is permanent, 5xx transient. */
export function classifyHttpStatus(status: number): RetryClass {
  if (status === 408 || status === 409 || status === 425 || status === 429) return "transient";
  if (status >= 500) return "transient";
  return "permanent";
}

/** Parses Retry-After (seconds or HTTP date) and retry-after-ms into milliseconds. */
export function parseRetryAfter(headers: { get(name: string): string | null } | undefined, now = Date.now()): number | undefined {
  if (!headers) return undefined;
  const ms = headers.get("retry-after-ms");
  if (ms && Number.isFinite(Number(ms))) return Math.max(0, Number(ms));
  const value = headers.get("retry-after");
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value.trim())) return Math.max(0, Number(value) * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
