// OpenAI (ChatGPT) through the Responses API, streamed, with the hosted web_search tool
// (PROVIDERS.md "Where the data is"). One call() is one HTTP request: SDK retries are off and the
// runner owns timeouts, retries and aborts (lib/lifecycle/run/run-capture.ts).
import type { Response as OpenAIResponse, ResponseCreateParamsStreaming, Tool } from "openai/resources/responses/responses";
import { apiEngine, keyedAdapter, type WithApiKey } from "@/lib/providers/api-engine";
import { apiKeyVariable, baseUrlVariable } from "@/lib/providers/engine";
import { CallAbortedError, ProviderError, abortReasonOf, type RetryClass } from "@/lib/providers/errors";
import { isErrorEvent, isEventStream, openaiClient, openaiSdk, type OpenAISdk } from "@/lib/providers/openai-sdk";
import { classifySdkError } from "@/lib/providers/sdk-errors";
import type { ProviderRequest, ProviderResponse, Source } from "@/lib/providers/types";

export type OpenAIConnection = { apiKey?: string; baseURL?: string };

const DEFAULT_BASE_URL = "https://api.openai.com/v1";
const PROVIDER = "OpenAI";

/** `max_tool_calls` is an API field the SDK's create types leave out; the SDK sends it as is. */
type RequestBody = ResponseCreateParamsStreaming & { max_tool_calls?: number };

function requestBody(request: ProviderRequest): RequestBody {
  const { maxOutputTokens, maxSearchCalls } = request.limits;
  // max_output_tokens bounds visible and reasoning tokens together, as the budget's worst case does.
  const body: RequestBody = { model: request.model, input: request.prompt, stream: true, max_output_tokens: maxOutputTokens };
  if (request.searchMode === "off" || maxSearchCalls <= 0) return body;
  const country = request.country?.trim().toUpperCase();
  const city = request.city?.trim();
  const tool: Tool = { type: "web_search" };
  if (country && /^[A-Z]{2}$/.test(country)) tool.user_location = { type: "approximate", country, ...(city ? { city } : {}) };
  // "on" forces at least one search; "auto" leaves the decision to the model. max_tool_calls
  // bounds the web_search_call items, which is how usage counts search calls.
  return {
    ...body,
    tools: [tool],
    tool_choice: request.searchMode === "on" ? "required" : "auto",
    max_tool_calls: maxSearchCalls,
    include: ["web_search_call.action.sources"],
  };
}

/** A failed response or an in-stream `error` event: the provider's code decides the class. */
function providerFailure(code: string | null | undefined, message: string, extra: { requestId?: string; partialText: string; httpStatus?: number }): ProviderError {
  const c = code ?? "";
  let retryClass: RetryClass = "transient";
  let reason = "provider_failed";
  if (c === "rate_limit_exceeded") reason = "rate_limited";
  else if (c === "insufficient_quota") [retryClass, reason] = ["permanent", "quota_exceeded"];
  else if (/content_policy|content_filter/.test(c)) [retryClass, reason] = ["permanent", "content_policy"];
  else if (/^invalid_|^unsupported_|_too_large$|_too_small$/.test(c)) [retryClass, reason] = ["permanent", "invalid_request"];
  return new ProviderError(`${PROVIDER} reported a failure${c ? ` (${c})` : ""}: ${message.slice(0, 300)}`, { retryClass, reason, ...extra });
}

function failureOf(response: OpenAIResponse, partialText: string): ProviderError {
  const requestId = response.id;
  if (response.status === "failed") return providerFailure(response.error?.code, response.error?.message ?? "response failed", { requestId, partialText });
  if (response.status === "incomplete") {
    const why = response.incomplete_details?.reason ?? "unknown";
    return why === "content_filter"
      ? new ProviderError(`${PROVIDER} stopped the answer (content filter)`, { retryClass: "permanent", reason: "content_policy", requestId, partialText })
      : new ProviderError(`${PROVIDER} returned an incomplete answer (${why})`, { retryClass: "transient", reason: "incomplete_output", requestId, partialText });
  }
  return new ProviderError(`${PROVIDER} returned a response with status ${response.status ?? "unknown"}`, { retryClass: "transient", reason: "unexpected_status", requestId, partialText });
}

/** Text, cited and retrieved sources, the model's searches and usage of a finished response. */
export function extractOpenAIResponse(response: OpenAIResponse, headerRequestId?: string): ProviderResponse {
  const texts: string[] = [];
  const sources = new Map<string, Source>();
  const retrieved: string[] = [];
  const searchQueries: string[] = [];
  let searchCalls = 0;
  for (const item of response.output ?? []) {
    if (item.type === "message") {
      let text = "";
      for (const part of item.content ?? []) {
        if (part.type === "refusal") text += part.refusal;
        if (part.type !== "output_text") continue;
        text += part.text;
        for (const a of part.annotations ?? []) {
          if (a.type === "url_citation" && a.url && !sources.has(a.url)) sources.set(a.url, { url: a.url, title: a.title || undefined, citedInText: true });
        }
      }
      if (text) texts.push(text);
    } else if (item.type === "web_search_call") {
      searchCalls += 1;
      const action = item.action;
      if (action?.type === "search") {
        searchQueries.push(...(action.queries?.length ? action.queries : action.query ? [action.query] : []));
        retrieved.push(...(action.sources ?? []).map((s) => s.url));
      } else if (action?.type === "open_page" && action.url) {
        retrieved.push(action.url);
      }
    }
  }
  for (const url of retrieved) if (url && !sources.has(url)) sources.set(url, { url, citedInText: false });
  const usage = response.usage;
  const reasoningTokens = usage?.output_tokens_details?.reasoning_tokens ?? 0;
  return {
    // Deltas of a second message item are streamed after the same separator (see call()).
    text: texts.join("\n\n"),
    sources: [...sources.values()],
    searchQueries: [...new Set(searchQueries)],
    usage: {
      inputTokens: usage?.input_tokens ?? 0,
      cachedTokens: usage?.input_tokens_details?.cached_tokens ?? 0,
      // output_tokens includes the reasoning tokens; Usage keeps them apart (lib/billing/money.ts
      // prices each separately), so they are subtracted here to be charged once.
      outputTokens: Math.max(0, (usage?.output_tokens ?? 0) - reasoningTokens),
      reasoningTokens,
      searchCalls,
    },
    requestId: response.id || headerRequestId,
  };
}

/**
 * Stopped at max_output_tokens: the answer so far is the answer. It was paid for, and a retry
 * would pay again to be cut off at the same limit.
 */
function stoppedAtLimit(response: OpenAIResponse): boolean {
  return response.status === "incomplete" && response.incomplete_details?.reason === "max_output_tokens";
}

function finished(response: OpenAIResponse, headerRequestId: string | undefined, partialText: string): ProviderResponse {
  if (response.status !== "completed" && !stoppedAtLimit(response)) throw failureOf(response, partialText);
  const result = extractOpenAIResponse(response, headerRequestId);
  if (!result.text.trim()) {
    throw new ProviderError(`${PROVIDER} returned an empty answer`, { retryClass: "transient", reason: "empty_answer", requestId: result.requestId });
  }
  return result;
}

/** A 200 that is not an event stream (a proxy's page, or a whole JSON response). */
function fromPlainBody(body: string, headerRequestId: string | undefined): ProviderResponse {
  if (!body.trim()) throw new ProviderError(`${PROVIDER} answered HTTP 200 with an empty body`, { retryClass: "transient", reason: "empty_answer", requestId: headerRequestId });
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    parsed = undefined;
  }
  const response = parsed as OpenAIResponse | undefined;
  if (response?.object === "response" && Array.isArray(response.output)) return finished(response, headerRequestId, "");
  throw new ProviderError(`${PROVIDER} answered HTTP 200 with a body that is not a response: ${body.slice(0, 120)}`, {
    retryClass: "transient",
    reason: "unparseable_response",
    requestId: headerRequestId,
  });
}

function classify(sdk: OpenAISdk, error: unknown, context: { signal: AbortSignal; streamStarted: boolean; partialText: string; requestId?: string }): Error {
  if (!context.signal.aborted && isErrorEvent(sdk, error)) {
    return providerFailure(error.code ?? error.type, error.message, { requestId: context.requestId, partialText: context.partialText });
  }
  if (!context.signal.aborted && error instanceof sdk.APIError && error.code === "insufficient_quota") {
    // HTTP 429, but no retry can succeed until someone adds credit.
    return providerFailure(error.code, error.message, { requestId: error.requestID ?? undefined, partialText: context.partialText, httpStatus: error.status });
  }
  return classifySdkError(error, { ...context, provider: PROVIDER });
}

async function call(connection: WithApiKey<OpenAIConnection>, request: ProviderRequest): Promise<ProviderResponse> {
  const { signal } = request;
  const sdk = await openaiSdk();
  const client = openaiClient(sdk, { apiKey: connection.apiKey, baseURL: connection.baseURL ?? DEFAULT_BASE_URL });
  let streamed = "";
  let streamStarted = false;
  let headerRequestId: string | undefined;
  let responseId: string | undefined;
  let textItemId: string | undefined;
  let final: OpenAIResponse | undefined;
  try {
    const { data: stream, response: http } = await client.responses.create(requestBody(request), { signal }).withResponse();
    headerRequestId = http.headers.get("x-request-id") ?? undefined;
    if (!isEventStream(http)) return fromPlainBody(await http.text(), headerRequestId);

    for await (const event of stream) {
      streamStarted = true;
      if (event.type === "response.output_text.delta" || event.type === "response.refusal.delta") {
        const separator = textItemId !== undefined && textItemId !== event.item_id && streamed ? "\n\n" : "";
        textItemId = event.item_id;
        streamed += separator + event.delta;
        request.onText?.(separator + event.delta);
      } else if (event.type === "response.created" || event.type === "response.in_progress") {
        responseId = event.response.id;
      } else if (event.type === "response.completed" || event.type === "response.failed" || event.type === "response.incomplete") {
        final = event.response;
      } else if (event.type === "error") {
        throw providerFailure(event.code, event.message, { requestId: responseId ?? headerRequestId, partialText: streamed });
      }
    }
    // The SDK ends the iteration quietly when the signal aborts mid-stream.
    if (signal.aborted) throw new CallAbortedError(abortReasonOf(signal), streamed);
    if (final) return finished(final, headerRequestId, streamed);
    if (!streamStarted) {
      throw new ProviderError(`${PROVIDER} answered HTTP 200 without any event`, { retryClass: "transient", reason: "empty_answer", requestId: headerRequestId });
    }
    // A clean end of the connection before response.completed: the work may have been done.
    throw new ProviderError(`${PROVIDER} ended the stream before the response completed`, {
      retryClass: "unknown",
      reason: "stream_interrupted",
      requestId: responseId ?? headerRequestId,
      partialText: streamed,
    });
  } catch (error) {
    // The last event had arrived: a connection dropped after it must not cost the answer.
    if (final && !signal.aborted && !(error instanceof ProviderError)) return finished(final, headerRequestId, streamed);
    throw classify(sdk, error, { signal, streamStarted, partialText: streamed, requestId: responseId ?? headerRequestId });
  }
}

/** An adapter reading its key and base URL at call time (tests pass their own). */
export const createOpenAIAdapter = keyedAdapter<OpenAIConnection>("openai", PROVIDER, "OPENAI_API_KEY", call, openaiSdk);

export const openaiEngine = apiEngine({
  name: "openai",
  label: "OpenAI",
  writesAnswers: true,
  env: { OPENAI_API_KEY: apiKeyVariable, OPENAI_BASE_URL: baseUrlVariable },
  adapter: (env) => createOpenAIAdapter(() => ({ apiKey: env().OPENAI_API_KEY, baseURL: env().OPENAI_BASE_URL })),
  listPrice: { model: "gpt-5-mini", prices: { input: 250_000, output: 2_000_000, cached: 25_000, reasoning: 2_000_000, search: 10_000 } },
  defaultConnection: ["OpenAI", "OpenAI API", "auto"],
});
