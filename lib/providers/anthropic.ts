// Claude through the Messages API, streamed, with Anthropic's server-side web search tool.
// One call() is one logical answer: the SDK never retries (maxRetries 0) and the caller's signal
// aborts the request. A turn that ends with stop_reason "pause_turn" (the API hands back a long
// search turn unfinished) is sent back a few times, because that is how such an answer
// completes; it is a continuation of the same answer, not a retry.
import "server-only";
import Anthropic from "@anthropic-ai/sdk";
import type { ContentBlock, ContentBlockParam, Message, MessageParam, MessageStreamParams, WebSearchTool20250305 } from "@anthropic-ai/sdk/resources/messages/messages";
import { z } from "zod";
import { env } from "@/lib/config/env";
import { CallAbortedError, ProviderError, abortReasonOf } from "@/lib/providers/errors";
import { classifySdkError } from "@/lib/providers/sdk-errors";
import { emptyUsage, type ProviderAdapter, type ProviderRequest, type ProviderResponse, type Source, type Usage } from "@/lib/providers/types";

const settingsSchema = z.object({
  maxTokens: z.number().int().min(1).max(64_000).default(4096),
  maxSearches: z.number().int().min(1).max(20).default(5),
});

/** Paused turns handed back before we settle for what the model has written so far. */
const MAX_CONTINUATIONS = 3;

/**
 * Search failures the API reports inside an HTTP 200 (a web_search_tool_result whose content is
 * an error object) that make the answer worth retrying: the search backend was busy or down, so
 * the model answered without the web. The other codes (max_uses_exceeded, invalid_tool_input,
 * query_too_long, request_too_large) come from the model's own searching; the answer stands.
 */
const TRANSIENT_SEARCH_ERRORS = new Set(["too_many_requests", "unavailable"]);

function requestParams(request: ProviderRequest): MessageStreamParams {
  const parsed = settingsSchema.safeParse(request.settings ?? {});
  if (!parsed.success) {
    throw new ProviderError(`Invalid Anthropic settings: ${parsed.error.issues.map((i) => `${i.path.join(".")} ${i.message}`).join("; ")}`, {
      retryClass: "permanent",
      reason: "invalid_settings",
    });
  }
  const params: MessageStreamParams = { model: request.model, max_tokens: parsed.data.maxTokens, messages: [{ role: "user", content: request.prompt }] };
  if (request.searchMode === "off") return params;
  const tool: WebSearchTool20250305 = { type: "web_search_20250305", name: "web_search", max_uses: parsed.data.maxSearches };
  if (request.country) tool.user_location = { type: "approximate", country: request.country };
  params.tools = [tool];
  // "on" names the tool rather than {type: "any"}: it says "search" even if more tools are ever
  // added. It forces the first step only; the model then answers from what it found.
  if (request.searchMode === "on") params.tool_choice = { type: "tool", name: "web_search" };
  return params;
}

function causeChainHas(error: unknown, test: (e: { name?: string; cause?: unknown }) => boolean): boolean {
  let current = error as { name?: string; cause?: unknown } | undefined;
  for (let i = 0; current && i < 5; i++, current = current.cause as typeof current) if (test(current)) return true;
  return false;
}

type TurnState = { text: string; signal: AbortSignal; onText?: (delta: string) => void };

/** One HTTP request: streams one assistant message, passing text deltas on as they arrive. */
async function streamTurn(client: Anthropic, params: MessageStreamParams, state: TurnState): Promise<{ message: Message; requestId?: string }> {
  let connected = false;
  let sawEvent = false;
  const stream = client.messages.stream(params, { signal: state.signal });
  stream.on("connect", () => (connected = true));
  stream.on("streamEvent", () => (sawEvent = true));
  stream.on("text", (delta) => {
    state.text += delta;
    state.onText?.(delta);
  });
  try {
    const message = await stream.finalMessage();
    return { message, requestId: stream.request_id ?? undefined };
  } catch (error) {
    // HTTP 200 but the body is not the event stream we asked for (an HTML error page from a
    // proxy, JSON garbage). The request was accepted, so the provider may have done and billed
    // the work: outcome unknown, like a broken connection (DESIGN.md "Retries by error class").
    const status = (error as { status?: unknown }).status;
    if (!state.signal.aborted && connected && status === undefined) {
      const cleanEndWithoutEvents = !sawEvent && !(error as { cause?: unknown }).cause;
      if (cleanEndWithoutEvents || causeChainHas(error, (e) => e.name === "SyntaxError")) {
        return Promise.reject(
          new ProviderError("Anthropic answered HTTP 200 with a body that is not a message stream", {
            retryClass: "unknown",
            reason: "unparseable_response",
            requestId: stream.request_id ?? undefined,
            partialText: state.text,
            cause: error,
          }),
        );
      }
    }
    throw classifySdkError(error, { signal: state.signal, streamStarted: connected, partialText: state.text, provider: "anthropic" });
  }
}

function addUsage(total: Usage, message: Message): void {
  const u = message.usage;
  const cached = u.cache_read_input_tokens ?? 0;
  const thinking = u.output_tokens_details?.thinking_tokens ?? 0;
  // input_tokens excludes cache reads and writes; Usage.inputTokens includes cached tokens (see
  // lib/billing/money.ts). Cache writes are billed at 1.25x input, counted here as plain input.
  total.inputTokens += u.input_tokens + cached + (u.cache_creation_input_tokens ?? 0);
  total.cachedTokens += cached;
  // output_tokens includes thinking; reasoning tokens are priced separately.
  total.outputTokens += u.output_tokens - thinking;
  total.reasoningTokens += thinking;
  total.searchCalls += u.server_tool_use?.web_search_requests ?? 0;
}

type Extracted = { sources: Source[]; searchQueries: string[]; searchErrors: string[]; searchesSucceeded: number };

function extract(content: ContentBlock[]): Extracted {
  const sources = new Map<string, Source>();
  const out: Extracted = { sources: [], searchQueries: [], searchErrors: [], searchesSucceeded: 0 };
  for (const block of content) {
    if (block.type === "server_tool_use" && block.name === "web_search") {
      const query = (block.input as { query?: unknown } | null)?.query;
      if (typeof query === "string" && query) out.searchQueries.push(query);
    } else if (block.type === "web_search_tool_result") {
      if (!Array.isArray(block.content)) {
        out.searchErrors.push(block.content.error_code);
        continue;
      }
      out.searchesSucceeded++;
      for (const result of block.content) {
        if (!sources.has(result.url)) sources.set(result.url, { url: result.url, title: result.title || undefined, citedInText: false });
      }
    } else if (block.type === "text") {
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

async function call(request: ProviderRequest): Promise<ProviderResponse> {
  const { ANTHROPIC_API_KEY: apiKey, ANTHROPIC_BASE_URL: baseURL } = env();
  const params = requestParams(request);
  if (request.signal.aborted) throw new CallAbortedError(abortReasonOf(request.signal));
  const client = new Anthropic({ apiKey, baseURL, maxRetries: 0 });
  const state: TurnState = { text: "", signal: request.signal, onText: request.onText };
  const usage = emptyUsage();
  const content: ContentBlock[] = [];
  let requestId: string | undefined;
  let message: Message | undefined;

  for (let turn = 0; turn <= MAX_CONTINUATIONS; turn++) {
    const messages: MessageParam[] = turn === 0 ? params.messages : [...params.messages, { role: "assistant", content: content as ContentBlockParam[] }];
    const result = await streamTurn(client, { ...params, messages }, state);
    message = result.message;
    requestId ??= result.requestId ?? message.id;
    addUsage(usage, message);
    content.push(...message.content);
    if (message.stop_reason !== "pause_turn") break;
  }

  // The text blocks, not the deltas, are the answer: a block may start with text of its own.
  const text = content.map((block) => (block.type === "text" ? block.text : "")).join("");
  if (message?.stop_reason === "refusal" && !text.trim()) {
    throw new ProviderError("Claude declined to answer (stop_reason refusal)", { retryClass: "permanent", reason: "content_policy", requestId });
  }
  const found = extract(content);
  const searchError = found.searchErrors.find((code) => TRANSIENT_SEARCH_ERRORS.has(code));
  if (searchError && found.searchesSucceeded === 0) {
    throw new ProviderError(`Anthropic web search failed (${searchError}); the answer was written without search results`, {
      retryClass: "transient",
      reason: `search_${searchError}`,
      requestId,
      partialText: text,
    });
  }
  return { text, sources: found.sources, searchQueries: found.searchQueries, usage, requestId };
}

export const anthropicAdapter: ProviderAdapter = { name: "anthropic", configured: () => Boolean(env().ANTHROPIC_API_KEY), call };
