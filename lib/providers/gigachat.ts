// GigaChat (Sber) through its REST chat completions API, streamed
// (https://developers.sber.ru/docs/ru/gigachat/api/reference/rest/post-chat and
// https://developers.sber.ru/docs/en/gigachat/api/response-token-streaming: POST
// {base}/chat/completions with `stream: true`, SSE `data:` chunks of `choices[].delta.content`,
// the last with `finish_reason` and `usage`, then `data: [DONE]`). One call() is one request to
// the answer endpoint; the access token comes from gigachat-auth.ts (cached, not an attempt).
//
// Web search: the documented v1 API has no search tool, and its answers carry no sources. The
// official Python SDK also speaks a newer "primary" format (/api/v2/chat/completions with
// `tools: [{web_search: {}}]`, sources in `content[].inline_data.sources`) whose wire format
// Sber has not published; until it is, this adapter never searches, reports no search calls and
// refuses search mode "on" rather than pretend to search.
//
// Cancellation: aborting the signal destroys the connection, which is what stops GigaChat's
// generation and its billing (seeds/004); there is no cancel endpoint to call.
import { randomUUID } from "node:crypto";
import { z } from "zod";
import { contentOf, type CompletionChoice } from "@/lib/providers/chat-completions";
import { apiEngine, credentialedAdapter } from "@/lib/providers/api-engine";
import { apiKeyVariable } from "@/lib/providers/engine";
import { CallAbortedError, ProviderError, abortReasonOf, classifyHttpStatus, parseRetryAfter } from "@/lib/providers/errors";
import { accessToken, dropToken, untrustedCertificateMessage, type GigaChatCredentials } from "@/lib/providers/gigachat-auth";
import { isUntrustedCertificate, readText, send, sseData, type GigaChatTls, type HttpResponse } from "@/lib/providers/gigachat-http";
import { classifySdkError } from "@/lib/providers/sdk-errors";
import type { ProviderRequest, ProviderResponse } from "@/lib/providers/types";

export type GigaChatConnection = { credentials?: string; scope: string; authUrl: string; baseURL: string; tls: GigaChatTls };
type ConfiguredGigaChatConnection = GigaChatConnection & { credentials: string };

const isConfigured = (connection: GigaChatConnection): connection is ConfiguredGigaChatConnection => Boolean(connection.credentials);

const PROVIDER = "GigaChat";

type GigaChatUsage = { prompt_tokens?: number; completion_tokens?: number; precached_prompt_tokens?: number };
/** A chunk (or a whole JSON completion, or an error body); everything is optional. */
type GigaChatChunk = {
  model?: string;
  choices?: CompletionChoice[];
  usage?: GigaChatUsage | null;
  status?: number;
  message?: string;
};

function failure(message: string, options: ConstructorParameters<typeof ProviderError>[1]): ProviderError {
  return new ProviderError(message.slice(0, 400), options);
}

/** An error status from the chat endpoint. 401 there means the token, not the key: see call(). */
function httpError(status: number, body: string, response: HttpResponse, requestId: string): ProviderError {
  let message = body.slice(0, 300);
  try {
    const parsed = JSON.parse(body) as GigaChatChunk;
    if (typeof parsed.message === "string") message = parsed.message;
  } catch {
    // an HTML page from a proxy: keep its start
  }
  const retryAfterMs = parseRetryAfter({ get: (name) => response.header(name) ?? null });
  const base = { httpStatus: status, retryAfterMs, requestId };
  if (status === 401) {
    // The token was refused although it had not expired by our clock (revoked, or the clocks
    // disagree). Transient: the call was refused before any generation, nothing was billed, and
    // the retry fetches a new token; if the key itself is wrong, that token request fails with a
    // permanent auth_failed, so this cannot loop.
    return failure(`${PROVIDER} refused the access token (HTTP 401): ${message}`, { ...base, retryClass: "transient", reason: "token_rejected" });
  }
  const retryClass = classifyHttpStatus(status);
  const reason =
    status === 429 ? "rate_limited" : status >= 500 ? "server_error" : status === 403 ? "auth_failed" : status === 404 ? "model_not_found" : status === 413 ? "request_too_large" : "invalid_request";
  return failure(`${PROVIDER} answered HTTP ${status}: ${message}`, { ...base, retryClass, reason });
}

/** GigaChat's `finish_reason: "blacklist"`: its topic filter replaced the answer with a refusal. */
const CONTENT_FILTERED = "blacklist";

function accumulator(request: ProviderRequest, requestId: () => string) {
  const state = { text: "", chunks: 0, finishReason: undefined as string | undefined, usage: {} as GigaChatUsage, done: false };
  return {
    state,
    add(chunk: GigaChatChunk) {
      state.chunks += 1;
      if (!chunk.choices && (chunk.status !== undefined || chunk.message !== undefined)) {
        // An error object where a chunk (or a completion) should be: the run failed on their side.
        const retryClass = typeof chunk.status === "number" && chunk.status < 500 && chunk.status !== 429 ? classifyHttpStatus(chunk.status) : "transient";
        throw failure(`${PROVIDER} reported an error inside a 200 response: ${String(chunk.message ?? chunk.status)}`, { retryClass, reason: "provider_failed", requestId: requestId(), partialText: state.text });
      }
      if (chunk.usage) state.usage = chunk.usage;
      const choice = chunk.choices?.[0];
      const content = contentOf(choice);
      if (content) {
        state.text += content;
        request.onText?.(content);
      }
      if (choice?.finish_reason) state.finishReason = choice.finish_reason;
      if (state.finishReason === CONTENT_FILTERED) {
        throw failure(`${PROVIDER} declined the question (its topic filter, finish_reason "blacklist")`, { retryClass: "permanent", reason: "content_policy", requestId: requestId(), partialText: state.text });
      }
      if (state.finishReason === "error") {
        throw failure(`${PROVIDER} ended the answer with an error`, { retryClass: "transient", reason: "provider_failed", requestId: requestId(), partialText: state.text });
      }
    },
    result(): ProviderResponse {
      if (!state.text.trim()) throw failure(`${PROVIDER} returned an empty answer`, { retryClass: "transient", reason: "empty_answer", requestId: requestId() });
      const u = state.usage;
      const cached = u.precached_prompt_tokens ?? 0;
      return {
        text: state.text,
        sources: [],
        searchQueries: [],
        usage: {
          // prompt_tokens is what GigaChat bills, the precached tokens already deducted; Usage
          // counts all input tokens, the cached ones among them.
          inputTokens: (u.prompt_tokens ?? 0) + cached,
          outputTokens: u.completion_tokens ?? 0,
          reasoningTokens: 0,
          cachedTokens: cached,
          searchCalls: 0,
        },
        requestId: requestId(),
      };
    },
  };
}

function parseChunk(data: string, streamStarted: boolean, requestId: string, partialText: string): GigaChatChunk {
  try {
    const parsed = JSON.parse(data) as unknown;
    if (parsed && typeof parsed === "object") return parsed as GigaChatChunk;
  } catch {
    // below
  }
  // Nothing parseable before any chunk: a proxy's page, the provider never began (transient).
  // After chunks had arrived, the answer was under way and may have been billed (unknown).
  throw failure(`${PROVIDER} sent an event that could not be parsed: ${data.slice(0, 120)}`, {
    retryClass: streamStarted ? "unknown" : "transient",
    reason: "unparseable_response",
    requestId,
    partialText,
  });
}

async function call(connection: ConfiguredGigaChatConnection, request: ProviderRequest): Promise<ProviderResponse> {
  const { signal } = request;
  if (request.searchMode === "on" && request.limits.maxSearchCalls > 0) {
    throw new ProviderError(`${PROVIDER}'s API offers no documented web search: set this provider's search mode to off or "model decides"`, { retryClass: "permanent", reason: "invalid_request" });
  }
  const credentials: GigaChatCredentials = { credentials: connection.credentials, scope: connection.scope, authUrl: connection.authUrl, tls: connection.tls };
  const token = await accessToken(credentials, signal);

  const ourRequestId = randomUUID();
  let headerRequestId: string | undefined;
  const requestId = () => headerRequestId ?? ourRequestId;
  const acc = accumulator(request, requestId);
  const chatUrl = `${connection.baseURL.replace(/\/+$/, "")}/chat/completions`;
  try {
    const response = await send(chatUrl, {
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json", accept: "text/event-stream", "x-request-id": ourRequestId },
      body: JSON.stringify({ model: request.model, messages: [{ role: "user", content: request.prompt }], stream: true, max_tokens: request.limits.maxOutputTokens }),
      signal,
      tls: connection.tls,
    });
    headerRequestId = response.header("x-request-id") ?? undefined;
    if (response.status !== 200) {
      const body = await readText(response.body);
      if (response.status === 401) dropToken(credentials, token);
      throw httpError(response.status, body, response, requestId());
    }
    if (!(response.header("content-type") ?? "").includes("text/event-stream")) {
      // A whole JSON body instead of a stream: a completion, an error object, or garbage.
      const body = await readText(response.body);
      if (!body.trim()) throw failure(`${PROVIDER} answered HTTP 200 with an empty body`, { retryClass: "transient", reason: "empty_answer", requestId: requestId() });
      acc.add(parseChunk(body, false, requestId(), ""));
      return acc.result();
    }
    for await (const data of sseData(response.body)) {
      if (data.trim() === "[DONE]") {
        acc.state.done = true;
        break;
      }
      acc.add(parseChunk(data, acc.state.chunks > 0, requestId(), acc.state.text));
    }
    if (signal.aborted) throw new CallAbortedError(abortReasonOf(signal), acc.state.text);
    if (!acc.state.chunks) throw failure(`${PROVIDER} answered HTTP 200 without any chunk`, { retryClass: "transient", reason: "empty_answer", requestId: requestId() });
    if (!acc.state.done && !acc.state.finishReason) {
      throw failure(`${PROVIDER} ended the stream before the answer finished`, { retryClass: "unknown", reason: "stream_interrupted", requestId: requestId(), partialText: acc.state.text });
    }
    // "length" (cut off at max_tokens) is an answer too: it was paid for, and a retry would pay
    // again to be cut off at the same limit.
    return acc.result();
  } catch (error) {
    if (!signal.aborted && isUntrustedCertificate(error)) {
      throw failure(untrustedCertificateMessage(new URL(chatUrl).host), { retryClass: "permanent", reason: "tls_untrusted", cause: error });
    }
    throw classifySdkError(error, { signal, streamStarted: acc.state.chunks > 0, partialText: acc.state.text, provider: PROVIDER });
  }
}

/** An adapter reading its credentials and URLs at call time (tests pass their own). */
export const createGigaChatAdapter = credentialedAdapter({ name: "gigachat", provider: PROVIDER, configured: isConfigured, unconfigured: "GIGACHAT_CREDENTIALS is not set", call });

export const gigachatEngine = apiEngine({
  name: "gigachat",
  label: "GigaChat",
  writesAnswers: true,
  // The authorization key (base64 of client_id:client_secret) is exchanged for an access token at
  // GIGACHAT_AUTH_URL with GIGACHAT_SCOPE. Sber's endpoints use the Russian Trusted Root CA: give
  // its certificate in NODE_EXTRA_CA_CERTS or GIGACHAT_CA_CERT_FILE.
  env: {
    GIGACHAT_CREDENTIALS: apiKeyVariable,
    GIGACHAT_SCOPE: z.enum(["GIGACHAT_API_PERS", "GIGACHAT_API_B2B", "GIGACHAT_API_CORP"]).default("GIGACHAT_API_PERS"),
    GIGACHAT_AUTH_URL: z.string().url().default("https://ngw.devices.sberbank.ru:9443/api/v2/oauth"),
    GIGACHAT_BASE_URL: z.string().url().default("https://gigachat.devices.sberbank.ru/api/v1"),
    GIGACHAT_CA_CERT_FILE: z.string().min(1).optional(),
  },
  adapter: (env) =>
    createGigaChatAdapter(() => {
      const e = env();
      return { credentials: e.GIGACHAT_CREDENTIALS, scope: e.GIGACHAT_SCOPE, authUrl: e.GIGACHAT_AUTH_URL, baseURL: e.GIGACHAT_BASE_URL, tls: { caFile: e.GIGACHAT_CA_CERT_FILE } };
    }),
  // GigaChat bills roubles per token, input and output alike: GigaChat-2-Pro 500 RUB per 1M tokens
  // (Sber's pay-as-you-go list price for businesses, developers.sber.ru/docs/ru/gigachat/tariffs,
  // as last seen in 2025; new tariffs apply from 2026-02-01 and could not be checked here),
  // converted at 1 USD = 80 RUB: $6.25 per 1M. Precached prompt tokens are deducted from what
  // GigaChat bills, hence cached 0. No search: this adapter never searches.
  listPrice: { model: "GigaChat-2-Pro", prices: { input: 6_250_000, output: 6_250_000, cached: 0, reasoning: 6_250_000, search: 0 } },
  defaultConnection: ["GigaChat", "GigaChat API", "off"],
});
