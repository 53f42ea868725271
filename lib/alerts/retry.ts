// The delivery retry policy, pure so it is unit-tested: which outcomes are retried, and when.
// DESIGN.md's "Retries by error class" for provider calls, applied to alert receivers.

/**
 * How a send ended. `unknown`: the message went out and no answer came back (a timeout, a
 * connection cut after the request was sent): the receiver may have it. A webhook is then sent
 * again (its webhook-id tells a repeat); email and Slack cannot tell one, so they are not.
 */
export type Outcome =
  | { kind: "delivered"; responseStatus?: number }
  | { kind: "permanent" | "transient" | "unknown"; responseStatus?: number; error: string };

/** An HTTP answer: 2xx delivered; 408, 429 and 5xx worth another try; any other status not. */
export function classifyHttpStatus(status: number, detail = ""): Outcome {
  if (status >= 200 && status < 300) return { kind: "delivered", responseStatus: status };
  const error = `HTTP ${status}${detail ? `: ${detail}` : ""}`;
  if (status >= 300 && status < 400) return { kind: "permanent", responseStatus: status, error: `${error} (redirects are not followed; use the final URL)` };
  if (status === 408 || status === 429 || status >= 500) return { kind: "transient", responseStatus: status, error };
  return { kind: "permanent", responseStatus: status, error };
}

/** Attempt `attempt` (1-based) failed: wait base x 5^(attempt-1), with jitter, before the next. */
export function retryDelayMs(attempt: number, baseMs: number, random: () => number = Math.random): number {
  const ceiling = baseMs * 5 ** Math.max(0, attempt - 1);
  // "Equal jitter": at least half the step, so retries keep spreading out, never in lockstep.
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

/** Error text fit for the log: one line, short, and without the URL's credentials or query. */
export function shortError(message: string, max = 300): string {
  const line = message.replace(/\s+/g, " ").trim();
  const scrubbed = line.replace(/\b(https?|smtps?):\/\/[^\s]+/gi, (u) => {
    try {
      const parsed = new URL(u);
      return `${parsed.protocol}//${parsed.host}${parsed.pathname === "/" ? "" : "/…"}`;
    } catch {
      return "<url>";
    }
  });
  return scrubbed.length > max ? `${scrubbed.slice(0, max - 1)}…` : scrubbed;
}
