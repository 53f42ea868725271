// Perplexity (Sonar) through its OpenAI-compatible chat completions API, streamed with the openai
// SDK pointed at PERPLEXITY_BASE_URL (PROVIDERS.md). Sonar models search by themselves; sources
// arrive as `citations[]` and `search_results[]`, usually in the last chunks. One call() is one
// HTTP request: SDK retries are off and the runner owns timeouts, retries and aborts.
import type { ChatCompletionCreateParamsStreaming } from "openai/resources/chat/completions";
import { contentOf, streamChatCompletion, type ChunkReader, type CompletionChoice } from "@/lib/providers/chat-completions";
import { apiEngine, keyedAdapter, type WithApiKey } from "@/lib/providers/api-engine";
import { openaiSdk } from "@/lib/providers/openai-sdk";
import { apiKeyVariable, baseUrlVariable } from "@/lib/providers/engine";
import { ProviderError } from "@/lib/providers/errors";
import type { ProviderRequest, ProviderResponse, SearchMode, Source } from "@/lib/providers/types";

export type PerplexityConnection = { apiKey?: string; baseURL?: string };

const DEFAULT_BASE_URL = "https://api.perplexity.ai";
const PROVIDER = "Perplexity";

type SearchResult = { url?: string; title?: string; date?: string | null };
type PerplexityUsage = { prompt_tokens?: number; completion_tokens?: number; reasoning_tokens?: number; num_search_queries?: number };
/** The parts of a chunk (or of a whole JSON body) the adapter reads; everything is optional. */
type PerplexityChunk = {
  id?: string;
  object?: string;
  status?: string;
  error?: { message?: string; code?: string | number } | null;
  choices?: CompletionChoice[];
  citations?: string[] | null;
  search_results?: SearchResult[] | null;
  usage?: PerplexityUsage | null;
};

/** maxSearchCalls 0 turns search off whatever the mode: Perplexity bills a search per request. */
function searchModeOf(request: ProviderRequest): SearchMode {
  return request.limits.maxSearchCalls <= 0 ? "off" : request.searchMode;
}

/**
 * Deep research runs many searches and bills each, plus reasoning tokens that max_tokens does
 * not bound: no per-call limit can hold it to the worst case the budget reserves.
 */
function isUnboundedModel(model: string): boolean {
  return /deep-research/i.test(model);
}

function requestBody(request: ProviderRequest): ChatCompletionCreateParamsStreaming {
  const searchMode = searchModeOf(request);
  const extra: Record<string, unknown> = {};
  // Search control (docs.perplexity.ai "Search control guide"): `disable_search: true` answers
  // from training data only; `enable_search_classifier: true` lets a classifier decide whether to
  // search. Without either, Sonar always searches. Perplexity's price is the same either way.
  if (searchMode === "off") extra.disable_search = true;
  if (searchMode === "auto") extra.enable_search_classifier = true;
  const country = request.country?.trim().toUpperCase();
  const city = request.city?.trim();
  if (searchMode !== "off" && country && /^[A-Z]{2}$/.test(country)) extra.web_search_options = { user_location: { country, ...(city ? { city } : {}) } };
  // The extra fields are Perplexity's, unknown to the openai SDK's types; the SDK sends them as is.
  // max_tokens bounds the completion, the think block of reasoning models included.
  return {
    model: request.model,
    messages: [{ role: "user", content: request.prompt }],
    stream: true,
    max_tokens: request.limits.maxOutputTokens,
    ...extra,
  } as ChatCompletionCreateParamsStreaming;
}

/**
 * Reasoning models (sonar-reasoning*) open their answer with a `<think>...</think>` block. It is
 * not part of what the user reads, and it names brands the answer may not: drop it while
 * streaming, so the deltas still add up to the stored text.
 */
function thinkFilter(emit: (text: string) => void) {
  let mode: "start" | "think" | "text" = "start";
  let pending = "";
  return {
    push(delta: string) {
      if (mode === "text") return emit(delta);
      pending += delta;
      if (mode === "start") {
        const head = pending.trimStart();
        if (head.length < 7 && "<think>".startsWith(head)) return;
        if (!head.startsWith("<think>")) {
          mode = "text";
          emit(pending);
          pending = "";
          return;
        }
        mode = "think";
      }
      const end = pending.indexOf("</think>");
      if (end < 0) return;
      const rest = pending.slice(end + "</think>".length).trimStart();
      mode = "text";
      pending = "";
      if (rest) emit(rest);
    },
    /** At the end of the stream: text that only looked like the start of a think block. */
    flush() {
      if (mode === "start" && pending) emit(pending);
      pending = "";
    },
  };
}

/** `[n]` markers (1-based) in the answer point into citations[] (or search_results[]). */
export function perplexitySources(text: string, citations: string[], searchResults: SearchResult[]): Source[] {
  const indexed = citations.length ? citations : searchResults.map((r) => r.url ?? "");
  const cited = new Set<string>();
  for (const match of text.matchAll(/\[(\d{1,3})\]/g)) {
    const url = indexed[Number(match[1]) - 1];
    if (url) cited.add(url);
  }
  const titles = new Map(searchResults.filter((r) => r.url).map((r) => [r.url as string, r.title || undefined]));
  const urls = [...new Set([...citations, ...searchResults.map((r) => r.url ?? "")])].filter(Boolean);
  return urls.map((url) => ({ url, title: titles.get(url), citedInText: cited.has(url) }));
}

function failedBody(chunk: PerplexityChunk, requestId: string | undefined, partialText: string): ProviderError {
  const message = chunk.error?.message ?? "the run failed";
  return new ProviderError(`${PROVIDER} reported a failed run: ${String(message).slice(0, 300)}`, { retryClass: "transient", reason: "provider_failed", requestId, partialText });
}

/** Collects chunks; the same code reads a whole (non-streamed) JSON completion. */
function accumulator(request: ProviderRequest): ChunkReader<PerplexityChunk> {
  let text = "";
  const filter = thinkFilter((delta) => {
    text += delta;
    request.onText?.(delta);
  });
  const state = { id: undefined as string | undefined, citations: [] as string[], searchResults: [] as SearchResult[], usage: {} as PerplexityUsage, finished: false, chunks: 0 };
  return {
    state,
    text: () => text,
    add(chunk: PerplexityChunk) {
      state.chunks += 1;
      state.id ??= chunk.id;
      // HTTP 200 carrying a failed run (the Agent API's way to report errors).
      if (chunk.status === "failed") throw failedBody(chunk, state.id, text);
      if (chunk.citations?.length) state.citations = chunk.citations;
      if (chunk.search_results?.length) state.searchResults = chunk.search_results;
      if (chunk.usage) state.usage = chunk.usage;
      const choice = chunk.choices?.[0];
      const content = contentOf(choice);
      if (content) filter.push(content);
      // "length" (cut off at max_tokens) finishes the answer too: it was paid for, and a retry
      // would pay again to be cut off at the same limit.
      if (choice?.finish_reason) state.finished = true;
    },
    result(headerRequestId) {
      filter.flush();
      const searchMode = searchModeOf(request);
      const sources = perplexitySources(text, state.citations, state.searchResults);
      const u = state.usage;
      return {
        text,
        sources,
        searchQueries: [],
        usage: {
          inputTokens: u.prompt_tokens ?? 0,
          // Perplexity counts reasoning tokens apart from completion tokens (deep research bills
          // them at their own price), which is also how Usage keeps them.
          outputTokens: u.completion_tokens ?? 0,
          reasoningTokens: u.reasoning_tokens ?? 0,
          cachedTokens: 0,
          // Sonar bills one search per request however many queries it ran (deep research, which
          // bills each query, is refused before the call).
          searchCalls: searchMode !== "off" && (u.num_search_queries ?? sources.length) > 0 ? 1 : 0,
        },
        requestId: state.id ?? headerRequestId,
      };
    },
  };
}

async function call(connection: WithApiKey<PerplexityConnection>, request: ProviderRequest): Promise<ProviderResponse> {
  const { signal } = request;
  if (isUnboundedModel(request.model)) {
    throw new ProviderError(`${PROVIDER} ${request.model} cannot be held to a per-call limit (it runs and bills many searches); choose a Sonar model`, {
      retryClass: "permanent",
      reason: "invalid_request",
    });
  }
  return streamChatCompletion<PerplexityChunk>({
    provider: PROVIDER,
    client: { apiKey: connection.apiKey, baseURL: connection.baseURL ?? DEFAULT_BASE_URL },
    body: requestBody(request),
    signal,
    reader: accumulator(request),
    isCompletion: (body) => Boolean(body.choices) || body.status === "failed",
    errorChunk: (error, { chunkId, partialText }) =>
      new ProviderError(`${PROVIDER} reported an error mid-stream: ${error.message.slice(0, 300)}`, {
        retryClass: "transient",
        reason: "provider_failed",
        requestId: chunkId,
        partialText,
        cause: error,
      }),
  });
}

/** An adapter reading its key and base URL at call time (tests pass their own). */
export const createPerplexityAdapter = keyedAdapter<PerplexityConnection>("perplexity", PROVIDER, "PERPLEXITY_API_KEY", call, openaiSdk);

export const perplexityEngine = apiEngine({
  name: "perplexity",
  label: "Perplexity",
  writesAnswers: true,
  env: { PERPLEXITY_API_KEY: apiKeyVariable, PERPLEXITY_BASE_URL: baseUrlVariable },
  adapter: (env) => createPerplexityAdapter(() => ({ apiKey: env().PERPLEXITY_API_KEY, baseURL: env().PERPLEXITY_BASE_URL })),
  listPrice: { model: "sonar", prices: { input: 1_000_000, output: 1_000_000, cached: 1_000_000, reasoning: 0, search: 5_000 } },
  defaultConnection: ["Perplexity", "Perplexity API", "on"],
});
