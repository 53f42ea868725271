// Classification of the errors the openai and @anthropic-ai/sdk SDKs throw (they share a shape:
// APIError with status and headers, APIConnectionError, APIConnectionTimeoutError,
// APIUserAbortError) into the retry classes of DESIGN.md. Adapters call `classifySdkError`
// from their catch block; `streamStarted` tells whether the provider had begun answering, which
// decides between "never reached the provider" (transient) and "outcome unknown".
import { CallAbortedError, ProviderError, abortReasonOf, classifyHttpStatus, parseRetryAfter } from "@/lib/providers/errors";

type HeadersLike = { get(name: string): string | null };
type SdkErrorShape = { name?: string; status?: number; headers?: HeadersLike | Record<string, string>; message?: string; cause?: unknown; request_id?: string; requestID?: string };

// Failures that happen before any byte of the request can have reached the provider.
const CONNECT_FAILURES = /ECONNREFUSED|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH|UND_ERR_CONNECT_TIMEOUT/i;

function headersOf(error: SdkErrorShape): HeadersLike | undefined {
  const h = error.headers;
  if (!h) return undefined;
  if (typeof (h as HeadersLike).get === "function") return h as HeadersLike;
  return new Headers(h as Record<string, string>);
}

function causeChain(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let i = 0; current && i < 5; i++) {
    const e = current as { code?: string; message?: string; cause?: unknown };
    parts.push(`${e.code ?? ""} ${e.message ?? ""}`);
    current = e.cause;
  }
  return parts.join(" | ");
}

export function classifySdkError(error: unknown, context: { signal: AbortSignal; streamStarted: boolean; partialText: string; provider: string }): Error {
  if (error instanceof ProviderError || error instanceof CallAbortedError) return error;
  // Our own abort (cancel, shutdown, timeout, lost lease) wins over whatever the SDK made of it.
  if (context.signal.aborted) return new CallAbortedError(abortReasonOf(context.signal), context.partialText);

  const e = (error ?? {}) as SdkErrorShape;
  const name = e.name ?? "";
  const requestId = e.request_id ?? e.requestID ?? headersOf(e)?.get("x-request-id") ?? headersOf(e)?.get("request-id") ?? undefined;

  if (typeof e.status === "number" && e.status > 0) {
    const retryClass = classifyHttpStatus(e.status);
    const reason = e.status === 429 ? "rate_limited" : e.status === 529 ? "overloaded" : e.status >= 500 ? "server_error" : e.status === 401 || e.status === 403 ? "auth_failed" : "invalid_request";
    return new ProviderError(`${context.provider} answered HTTP ${e.status}: ${(e.message ?? "").slice(0, 300)}`, {
      retryClass,
      reason,
      httpStatus: e.status,
      retryAfterMs: parseRetryAfter(headersOf(e)),
      requestId: requestId ?? undefined,
      partialText: context.partialText,
      cause: error,
    });
  }
  // The SDK could not parse what came back (a 200 with garbage: a proxy's HTML page, a truncated
  // JSON body, a malformed event). Before any event the provider never began answering, so it is
  // a transient failure (the breaker counts it); once events had arrived the outcome is unknown.
  if (error instanceof SyntaxError) {
    return new ProviderError(`${context.provider} sent a response that could not be parsed: ${(e.message ?? "").slice(0, 200)}`, {
      retryClass: context.streamStarted ? "unknown" : "transient",
      reason: "unparseable_response",
      requestId: requestId ?? undefined,
      partialText: context.partialText,
      cause: error,
    });
  }
  if (/Timeout/i.test(name)) {
    return new ProviderError(`${context.provider} did not answer in time`, { retryClass: "unknown", reason: "timeout", partialText: context.partialText, cause: error });
  }
  const chain = causeChain(error);
  if (!context.streamStarted && CONNECT_FAILURES.test(chain)) {
    return new ProviderError(`Could not connect to ${context.provider}: ${chain.trim().slice(0, 200)}`, { retryClass: "transient", reason: "connection_failed", partialText: context.partialText, cause: error });
  }
  // The request was sent and the connection broke (or something unexpected happened): the
  // provider may have done and billed the work.
  return new ProviderError(`Connection to ${context.provider} broke ${context.streamStarted ? "while it was answering" : "after the request was sent"}: ${chain.trim().slice(0, 200)}`, {
    retryClass: "unknown",
    reason: context.streamStarted ? "stream_interrupted" : "connection_lost",
    partialText: context.partialText,
    cause: error,
  });
}
