// Claude through the Messages API, streamed, with Anthropic's server-side web search tool
// (PROVIDERS.md "Where the data is"). SDK retries are off and the caller's signal aborts the
// request; the runner owns timeouts, retries and aborts (lib/lifecycle/run/run-capture.ts). A turn that
// ends with stop_reason "pause_turn" (the API hands a long search turn back unfinished) is sent
// back a few times: that continues the same answer, it is not a retry. The call's limits hold
// across those requests: each one gets only the output tokens and searches the earlier ones left.
import "server-only";
import type Anthropic from "@anthropic-ai/sdk";
import type { ContentBlock, ContentBlockParam, Message, MessageStreamParams, WebSearchTool20250305 } from "@anthropic-ai/sdk/resources/messages/messages";
import { apiEngine, keyedAdapter, type WithApiKey } from "@/lib/providers/api-engine";
import { apiKeyVariable, baseUrlVariable } from "@/lib/providers/engine";
import { CallAbortedError, ProviderError, type RetryClass } from "@/lib/providers/errors";
import { lazySdk } from "@/lib/providers/lazy-sdk";
import { classifySdkError } from "@/lib/providers/sdk-errors";
import { emptyUsage, type ProviderRequest, type ProviderResponse, type Source, type Usage } from "@/lib/providers/types";

export type AnthropicConnection = { apiKey?: string; baseURL?: string };

const PROVIDER = "Anthropic";

const anthropicSdk = lazySdk(() => import("@anthropic-ai/sdk"));
type AnthropicSdk = Awaited<ReturnType<typeof anthropicSdk>>;

/** Paused turns handed back before we settle for what the model has written so far. */
export const MAX_CONTINUATIONS = 3;

/**
 * Search failures reported inside an HTTP 200 (a web_search_tool_result whose content is an error
 * object) that make the answer worth retrying: the search backend was busy or down, so the model
 * answered without the web. The other codes (max_uses_exceeded, invalid_tool_input,
 * query_too_long, request_too_large) come from the model's own searching and the answer stands,
 * as it does when any search of the answer succeeded.
 */
const TRANSIENT_SEARCH_ERRORS = new Set(["too_many_requests", "unavailable"]);

/** `error.type` of an `error` event inside a 200 stream -> retry class and reason. */
const STREAM_ERROR_TYPES: Record<string, [RetryClass, string]> = {
  overloaded_error: ["transient", "overloaded"],
  rate_limit_error: ["transient", "rate_limited"],
  api_error: ["transient", "server_error"],
  invalid_request_error: ["permanent", "invalid_request"],
  request_too_large: ["permanent", "invalid_request"],
  not_found_error: ["permanent", "invalid_request"],
  authentication_error: ["permanent", "auth_failed"],
  permission_error: ["permanent", "auth_failed"],
  billing_error: ["permanent", "quota_exceeded"],
};

/** What is left of the call's limits for the next request. */
type Remaining = { outputTokens: number; searches: number };

/**
 * One request of the call: `max_tokens` and the tool's `max_uses` are what the earlier requests
 * left, and with no search left the tool is not offered at all. Only the first request may force
 * a search ("on"); a continuation resumes the turn the model already started.
 */
function requestParams(request: ProviderRequest, remaining: Remaining, history: ContentBlock[]): MessageStreamParams {
  const messages: MessageStreamParams["messages"] = [{ role: "user", content: request.prompt }];
  if (history.length) messages.push({ role: "assistant", content: [...history] as ContentBlockParam[] });
  const params: MessageStreamParams = { model: request.model, max_tokens: remaining.outputTokens, messages };
  if (request.searchMode === "off" || remaining.searches <= 0) return params;
  const tool: WebSearchTool20250305 = { type: "web_search_20250305", name: "web_search", max_uses: remaining.searches };
  const country = request.country?.trim().toUpperCase();
  const city = request.city?.trim();
  if (country && /^[A-Z]{2}$/.test(country)) tool.user_location = { type: "approximate", country, ...(city ? { city } : {}) };
  params.tools = [tool];
  // "on" names the tool rather than saying {type: "any"}, so it still means "search" if more tools
  // are ever offered. It forces the first step; the model then answers from what it found.
  if (request.searchMode === "on" && !history.length) params.tool_choice = { type: "tool", name: "web_search" };
  return params;
}

function hasSyntaxError(error: unknown): boolean {
  let current = error as { name?: string; cause?: unknown } | undefined;
  for (let i = 0; current && i < 5; i++, current = current.cause as typeof current) if (current.name === "SyntaxError") return true;
  return false;
}

type TurnState = { text: string; signal: AbortSignal; onText?: (delta: string) => void };

function classify({ APIConnectionError, APIError, APIUserAbortError }: AnthropicSdk, error: unknown, state: TurnState, ctx: { sawEvent: boolean; requestId?: string }): Error {
  const { signal, text: partialText } = state;
  if (signal.aborted || error instanceof ProviderError || error instanceof CallAbortedError) {
    return classifySdkError(error, { signal, streamStarted: ctx.sawEvent, partialText, provider: PROVIDER });
  }
  const e = error as { status?: unknown; type?: unknown; message?: string; cause?: unknown };
  if (error instanceof APIError && e.status === undefined && !(error instanceof APIConnectionError) && !(error instanceof APIUserAbortError)) {
    // An `error` event inside a 200 stream (the API reports overload mid-answer this way): the
    // provider says it failed, which is not a broken connection.
    const [retryClass, reason] = STREAM_ERROR_TYPES[String(e.type)] ?? ["unknown", "stream_error"];
    return new ProviderError(`${PROVIDER} reported an error while answering (${String(e.type)}): ${(e.message ?? "").slice(0, 300)}`, {
      retryClass,
      reason,
      requestId: ctx.requestId,
      partialText,
      cause: error,
    });
  }
  // HTTP 200 with a body that is not a message stream: nothing parseable arrived (an empty body, a
  // proxy's page), so the provider never began answering and a retry may succeed. Garbage after
  // real events is different: the work may have been done and billed.
  const notAStream = (!ctx.sawEvent && e.status === undefined && e.cause === undefined && !(error instanceof APIConnectionError)) || hasSyntaxError(error);
  if (notAStream) {
    return new ProviderError(`${PROVIDER} answered HTTP 200 with a body that is not a message stream`, {
      retryClass: ctx.sawEvent ? "unknown" : "transient",
      reason: "unparseable_response",
      requestId: ctx.requestId,
      partialText,
      cause: error,
    });
  }
  return classifySdkError(error, { signal, streamStarted: ctx.sawEvent, partialText, provider: PROVIDER });
}

/** One HTTP request: streams one assistant message, passing text deltas on as they arrive. */
async function streamTurn(sdk: AnthropicSdk, client: Anthropic, params: MessageStreamParams, state: TurnState): Promise<{ message: Message; requestId?: string }> {
  let sawEvent = false;
  const stream = client.messages.stream(params, { signal: state.signal });
  stream.on("streamEvent", () => (sawEvent = true));
  stream.on("text", (delta) => {
    state.text += delta;
    state.onText?.(delta);
  });
  try {
    const message = await stream.finalMessage();
    return { message, requestId: stream.request_id ?? message.id };
  } catch (error) {
    throw classify(sdk, error, state, { sawEvent, requestId: stream.request_id ?? undefined });
  }
}

function addUsage(total: Usage, message: Message): void {
  const u = message.usage;
  const cached = u.cache_read_input_tokens ?? 0;
  const thinking = u.output_tokens_details?.thinking_tokens ?? 0;
  // input_tokens leaves out cache reads and writes; Usage.inputTokens includes the cached part
  // (lib/billing/money.ts). Cache writes (1.25x input on Anthropic) are counted as plain input.
  total.inputTokens += (u.input_tokens ?? 0) + cached + (u.cache_creation_input_tokens ?? 0);
  total.cachedTokens += cached;
  // output_tokens includes thinking; Usage keeps reasoning apart so it is charged once.
  total.outputTokens += Math.max(0, (u.output_tokens ?? 0) - thinking);
  total.reasoningTokens += thinking;
  total.searchCalls += u.server_tool_use?.web_search_requests ?? 0;
}

type Extracted = { text: string; sources: Source[]; searchQueries: string[]; searchErrors: string[]; searchesSucceeded: number };

function extract(content: ContentBlock[]): Extracted {
  const sources = new Map<string, Source>();
  const out: Extracted = { text: "", sources: [], searchQueries: [], searchErrors: [], searchesSucceeded: 0 };
  for (const block of content) {
    if (block.type === "server_tool_use" && block.name === "web_search") {
      const query = (block.input as { query?: unknown } | null)?.query;
      if (typeof query === "string" && query) out.searchQueries.push(query);
    } else if (block.type === "web_search_tool_result") {
      if (!Array.isArray(block.content)) {
        out.searchErrors.push(block.content.error_code);
        continue;
      }
      out.searchesSucceeded += 1;
      for (const result of block.content) {
        if (!sources.has(result.url)) sources.set(result.url, { url: result.url, title: result.title || undefined, citedInText: false });
      }
    } else if (block.type === "text") {
      out.text += block.text;
      for (const citation of block.citations ?? []) {
        if (citation.type !== "web_search_result_location") continue;
        const known = sources.get(citation.url);
        sources.set(citation.url, { url: citation.url, title: known?.title ?? (citation.title || undefined), citedInText: true });
      }
    }
  }
  out.sources = [...sources.values()];
  return out;
}

async function call(connection: WithApiKey<AnthropicConnection>, request: ProviderRequest): Promise<ProviderResponse> {
  const sdk = await anthropicSdk();
  // An explicit key also keeps the SDK from looking for credentials in profiles on disk.
  const client = new sdk.default({ apiKey: connection.apiKey, baseURL: connection.baseURL, maxRetries: 0 });
  const state: TurnState = { text: "", signal: request.signal, onText: request.onText };
  const usage = emptyUsage();
  const content: ContentBlock[] = [];
  const remaining: Remaining = { outputTokens: request.limits.maxOutputTokens, searches: request.limits.maxSearchCalls };
  let requestId: string | undefined;
  let message: Message | undefined;

  // A paused turn goes back as the assistant's message so far, as the API returned it.
  for (let turn = 0; turn <= MAX_CONTINUATIONS; turn++) {
    const result = await streamTurn(sdk, client, requestParams(request, remaining, content), state);
    message = result.message;
    requestId ??= result.requestId;
    addUsage(usage, message);
    content.push(...message.content);
    // output_tokens includes thinking, as max_tokens does.
    remaining.outputTokens -= message.usage.output_tokens ?? 0;
    remaining.searches -= message.usage.server_tool_use?.web_search_requests ?? 0;
    if (message.stop_reason !== "pause_turn") break;
    // max_tokens must be at least 1: with nothing left the turn ends where it is.
    if (remaining.outputTokens <= 0) break;
  }

  // The text blocks, not the deltas, are the answer (a block may start with text of its own).
  const found = extract(content);
  // Paused with the call's output tokens spent is a max_tokens stop: like one, it is accepted below
  // (the text so far is what the call paid for; a retry would pay again for the same).
  if (message?.stop_reason === "pause_turn" && remaining.outputTokens > 0) {
    // Still searching after every continuation: what we have is not the answer yet.
    throw new ProviderError(`${PROVIDER} was still working after ${MAX_CONTINUATIONS} continuations (pause_turn)`, {
      retryClass: "transient",
      reason: "incomplete_output",
      requestId,
      partialText: found.text,
    });
  }
  if (message?.stop_reason === "refusal" && !found.text.trim()) {
    throw new ProviderError(`${PROVIDER} declined to answer (stop_reason refusal)`, { retryClass: "permanent", reason: "content_policy", requestId });
  }
  const searchError = found.searchErrors.find((code) => TRANSIENT_SEARCH_ERRORS.has(code));
  if (searchError && found.searchesSucceeded === 0) {
    throw new ProviderError(`${PROVIDER} web search failed (${searchError}); the answer was written without search results`, {
      retryClass: "transient",
      reason: `search_${searchError}`,
      requestId,
      partialText: found.text,
    });
  }
  if (!found.text.trim()) throw new ProviderError(`${PROVIDER} returned an empty answer`, { retryClass: "transient", reason: "empty_answer", requestId });
  return { text: found.text, sources: found.sources, searchQueries: found.searchQueries, usage, requestId };
}

/** An adapter reading its key and base URL at call time (tests pass their own). */
export const createAnthropicAdapter = keyedAdapter<AnthropicConnection>("anthropic", PROVIDER, "ANTHROPIC_API_KEY", call, anthropicSdk);

export const anthropicEngine = apiEngine({
  name: "anthropic",
  label: "Anthropic",
  writesAnswers: true,
  env: { ANTHROPIC_API_KEY: apiKeyVariable, ANTHROPIC_BASE_URL: baseUrlVariable },
  adapter: (env) => createAnthropicAdapter(() => ({ apiKey: env().ANTHROPIC_API_KEY, baseURL: env().ANTHROPIC_BASE_URL })),
  listPrice: { model: "claude-haiku-4-5", prices: { input: 1_000_000, output: 5_000_000, cached: 100_000, reasoning: 5_000_000, search: 10_000 } },
  defaultConnection: ["Anthropic", "Claude API", "on"],
});
