// HTTP plumbing the SERP data APIs share (lib/providers/dataforseo.ts, lib/providers/serpapi.ts):
// one fetch per request (no retries: the runner owns them), the AbortSignal passed through so
// an abort closes the connection at once, and failures turned into the retry classes of
// DESIGN.md. These APIs answer with one JSON body, not a stream.
import { CallAbortedError, ProviderError, abortReasonOf, classifyHttpStatus, parseRetryAfter } from "@/lib/providers/errors";
import { classifySdkError } from "@/lib/providers/sdk-errors";

/** Which Google answer a SERP request reads: the AI Overview above the results, or AI Mode. */
export type SerpSurface = "ai_overview" | "ai_mode";

export type SerpHttpResponse = { status: number; headers: Headers; text: string; json: unknown };

/**
 * One request. Resolves with whatever status came back (the caller reads the provider's own
 * error format); rejects with CallAbortedError on our abort and with a classified ProviderError
 * when the connection failed: refused before sending (transient) or broken after (unknown).
 */
export async function serpFetch(url: string, init: { method: "GET" | "POST"; headers?: Record<string, string>; body?: string }, signal: AbortSignal, provider: string): Promise<SerpHttpResponse> {
  if (signal.aborted) throw new CallAbortedError(abortReasonOf(signal));
  try {
    const response = await fetch(url, { ...init, headers: { accept: "application/json", ...init.headers }, signal });
    const text = await response.text();
    let json: unknown;
    try {
      json = text.trim() ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    return { status: response.status, headers: response.headers, text, json };
  } catch (error) {
    throw classifySdkError(error, { signal, streamStarted: false, partialText: "", provider });
  }
}

/** A non-2xx answer: its status decides the class (429 and 5xx transient), Retry-After is kept. */
export function httpFailure(provider: string, response: SerpHttpResponse, message: string, requestId?: string): ProviderError {
  const { status } = response;
  const reason = status === 429 ? "rate_limited" : status >= 500 ? "server_error" : status === 401 || status === 403 ? "auth_failed" : status === 402 ? "quota_exceeded" : "invalid_request";
  return new ProviderError(`${provider} answered HTTP ${status}: ${message.slice(0, 300)}`, {
    retryClass: classifyHttpStatus(status),
    reason,
    httpStatus: status,
    retryAfterMs: parseRetryAfter(response.headers),
    requestId,
  });
}

/** A 200 whose body is not the JSON object the API documents (a proxy's page, nothing at all). */
export function unreadableBody(provider: string, response: SerpHttpResponse): ProviderError {
  const empty = !response.text.trim();
  return new ProviderError(`${provider} answered HTTP ${response.status} with ${empty ? "an empty body" : `a body that is not its JSON: ${response.text.slice(0, 120)}`}`, {
    retryClass: "transient",
    reason: empty ? "empty_answer" : "unparseable_response",
    httpStatus: response.status,
  });
}

/** DataForSEO marks cited passages with `#:~:text=` fragments; the page is the same page. */
export function normalizeSourceUrl(url: string): string {
  const at = url.indexOf("#:~:");
  return at >= 0 ? url.slice(0, at) : url;
}

/** Markdown images (often `<Base64-Image-Removed>` placeholders) say nothing about brands. */
export function withoutImages(markdown: string): string {
  return markdown
    .replace(/!\[[^\]]*\]\((?:<[^>]*>|[^)]*)\)/g, "")
    .replace(/[ \t]+\n/g, "\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}
