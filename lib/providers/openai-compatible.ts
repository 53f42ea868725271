// Any server that speaks OpenAI's chat completions (POST {baseURL}/chat/completions, streamed as
// `data:` chunks): DeepSeek, xAI Grok, Mistral, and local models behind vLLM or Ollama. Each
// connection names its server and the environment variable of its key in its settings
// (lib/providers/openai-compatible-settings.ts); no key means no Authorization header. These
// APIs have no web search to ask for: sources are kept only when a server reports them
// (`citations[]`, `search_results[]`, or `annotations` of type url_citation). One call() is one
// HTTP request: SDK retries are off and the runner owns timeouts, retries and aborts. Aborting
// closes the stream, which is how these servers are told to stop (none has a cancel endpoint).
import type { ChatCompletionCreateParamsStreaming } from "openai/resources/chat/completions";
import { openAICompatibleKey } from "@/lib/config/env";
import { apiKeyVariable, defineEngine } from "@/lib/providers/engine";
import { streamChatCompletion, type ChunkReader } from "@/lib/providers/chat-completions";
import { openaiSdk } from "@/lib/providers/openai-sdk";
import { CallAbortedError, ProviderError, abortReasonOf, classifyHttpStatus, type RetryClass } from "@/lib/providers/errors";
import { openAICompatibleSettingsSchema } from "@/lib/providers/openai-compatible-settings";
import { perplexitySources } from "@/lib/providers/perplexity";
import type { ProviderAdapter, ProviderRequest, ProviderResponse, Source } from "@/lib/providers/types";

const PROVIDER = "The OpenAI-compatible server";

export type OpenAICompatibleConnection = { baseURL: string; apiKey?: string };

type Resolved = { ok: true; connection: OpenAICompatibleConnection } | { ok: false; reason: string };

/** The connection's server and key, or why this server cannot call it. */
export function resolveConnection(settings: Record<string, unknown> | undefined): Resolved {
  const parsed = openAICompatibleSettingsSchema.safeParse(settings ?? {});
  if (!parsed.success) return { ok: false, reason: "The connection has no valid base URL; set one under Instance → Connections → Edit" };
  const { baseURL, apiKeyEnv } = parsed.data;
  if (!apiKeyEnv) return { ok: true, connection: { baseURL } };
  const apiKey = openAICompatibleKey(apiKeyEnv);
  if (!apiKey) return { ok: false, reason: `${apiKeyEnv} is not set in this server's environment` };
  return { ok: true, connection: { baseURL, apiKey } };
}

type Usage = {
  prompt_tokens?: number;
  completion_tokens?: number;
  prompt_tokens_details?: { cached_tokens?: number } | null;
  completion_tokens_details?: { reasoning_tokens?: number } | null;
  /** DeepSeek reports its context cache this way. */
  prompt_cache_hit_tokens?: number;
  /** Perplexity-shaped servers. */
  num_search_queries?: number;
};
type Annotation = { type?: string; url_citation?: { url?: string; title?: string }; url?: string; title?: string };
type Message = { content?: string | null; reasoning_content?: string | null; reasoning?: string | null; annotations?: Annotation[] | null };
/** The parts of a chunk (or of a whole JSON completion) the adapter reads; everything is optional. */
type Chunk = {
  id?: string;
  object?: string;
  error?: { message?: string; type?: string; code?: string | number | null } | null;
  choices?: { delta?: Message; message?: Message; finish_reason?: string | null }[];
  citations?: string[] | null;
  search_results?: { url?: string; title?: string }[] | null;
  usage?: Usage | null;
};

/** Mistral's API refuses `stream_options` (422, extra inputs not permitted) and sends usage anyway. */
function acceptsStreamOptions(baseURL: string): boolean {
  return new URL(baseURL).hostname !== "api.mistral.ai";
}

function requestBody(request: ProviderRequest, connection: OpenAICompatibleConnection): ChatCompletionCreateParamsStreaming {
  // max_tokens, not max_completion_tokens: DeepSeek, vLLM, Ollama, xAI and Mistral all accept it
  // (Mistral refuses max_completion_tokens). There is no search option to send: searchMode is
  // ignored, and maxSearchCalls has nothing to bound.
  return {
    model: request.model,
    messages: [{ role: "user", content: request.prompt }],
    stream: true,
    max_tokens: request.limits.maxOutputTokens,
    ...(acceptsStreamOptions(connection.baseURL) ? { stream_options: { include_usage: true } } : {}),
  };
}

/**
 * An `{"error": ...}` body inside a 200: vLLM streams one when generation fails after the
 * headers went out (serving_engine.py create_streaming_error_response: `{"error": {"message",
 * "type", "code": <HTTP status>}}`), Ollama's OpenAI layer likewise (openai/openai.go NewError:
 * `{"error": {"type", "message"}}`). A status code in it decides the class as for HTTP.
 */
function errorBody(error: NonNullable<Chunk["error"]>, extra: { requestId?: string; partialText: string }): ProviderError {
  const code = typeof error.code === "number" ? error.code : Number.isInteger(Number(error.code)) && error.code !== null && error.code !== "" ? Number(error.code) : undefined;
  let retryClass: RetryClass = "transient";
  if (code !== undefined && code >= 400 && code < 600) retryClass = classifyHttpStatus(code);
  else if (/invalid_request|not_found/.test(error.type ?? "")) retryClass = "permanent";
  const reason = retryClass === "permanent" ? "invalid_request" : "provider_failed";
  const label = [error.type, code].filter((part) => part !== undefined && part !== null && part !== "").join(", ");
  return new ProviderError(`${PROVIDER} reported an error${label ? ` (${label})` : ""}: ${String(error.message ?? "no message").slice(0, 300)}`, { retryClass, reason, ...extra });
}

/** Collects chunks; the same code reads a whole (non-streamed) JSON completion. */
function accumulator(request: ProviderRequest): ChunkReader<Chunk> {
  let text = "";
  const state = {
    id: undefined as string | undefined,
    citations: [] as string[],
    searchResults: [] as { url?: string; title?: string }[],
    annotations: new Map<string, Source>(),
    usage: undefined as Usage | undefined,
    finished: false,
    chunks: 0,
  };
  return {
    state,
    text: () => text,
    add(chunk: Chunk) {
      state.chunks += 1;
      state.id ??= chunk.id;
      if (chunk.error) throw errorBody(chunk.error, { requestId: state.id, partialText: text });
      if (chunk.citations?.length) state.citations = chunk.citations;
      if (chunk.search_results?.length) state.searchResults = chunk.search_results;
      if (chunk.usage) state.usage = chunk.usage;
      const choice = chunk.choices?.[0];
      const message = choice?.delta ?? choice?.message;
      // reasoning_content (DeepSeek, vLLM's reasoning parsers) and reasoning (Ollama) are the
      // model's thinking, not its answer: they never reach the text.
      const content = message?.content;
      if (content) {
        text += content;
        request.onText?.(content);
      }
      for (const a of message?.annotations ?? []) {
        const url = a.url_citation?.url ?? a.url;
        if (a.type === "url_citation" && url && !state.annotations.has(url)) state.annotations.set(url, { url, title: a.url_citation?.title ?? a.title ?? undefined, citedInText: true });
      }
      // "length" (cut off at max_tokens) finishes the answer too: it was paid for, and a retry
      // would pay again to be cut off at the same limit.
      if (choice?.finish_reason) state.finished = true;
    },
    result(headerRequestId) {
      const reported = perplexitySources(text, state.citations, state.searchResults as { url?: string; title?: string; date?: string | null }[]);
      const sources = [...state.annotations.values(), ...reported.filter((s) => !state.annotations.has(s.url))];
      const u = state.usage ?? {};
      const reasoningTokens = u.completion_tokens_details?.reasoning_tokens ?? 0;
      return {
        text,
        sources,
        searchQueries: [],
        // A server that ignores stream_options sends no usage: the call is recorded with 0
        // tokens (and so costs nothing), not with a guess.
        usage: {
          inputTokens: u.prompt_tokens ?? 0,
          cachedTokens: u.prompt_tokens_details?.cached_tokens ?? u.prompt_cache_hit_tokens ?? 0,
          // completion_tokens includes the reasoning tokens (OpenAI's convention, which DeepSeek
          // and vLLM follow); Usage keeps them apart so that each is charged once.
          outputTokens: Math.max(0, (u.completion_tokens ?? 0) - reasoningTokens),
          reasoningTokens,
          searchCalls: u.num_search_queries ?? 0,
        },
        requestId: state.id ?? headerRequestId,
      };
    },
  };
}

async function call(request: ProviderRequest): Promise<ProviderResponse> {
  const { signal } = request;
  const resolved = resolveConnection(request.settings);
  if (!resolved.ok) throw new ProviderError(`The OpenAI-compatible connection is not configured: ${resolved.reason}`, { retryClass: "permanent", reason: "not_configured" });
  if (signal.aborted) throw new CallAbortedError(abortReasonOf(signal));
  const { connection } = resolved;
  return streamChatCompletion<Chunk>({
    provider: PROVIDER,
    // Without a key, the Authorization header is removed (the SDK would send its placeholder, or
    // OPENAI_API_KEY if it were given none).
    client: { apiKey: connection.apiKey ?? "none", baseURL: connection.baseURL, defaultHeaders: connection.apiKey ? undefined : { Authorization: null } },
    body: requestBody(request, connection),
    signal,
    reader: accumulator(request),
    isCompletion: (body) => Boolean(body.choices) || Boolean(body.error),
    // The SDK's `error` is the chunk's error object.
    errorChunk: (error, { chunkId, headerRequestId, partialText }) =>
      errorBody((error.error ?? { message: error.message }) as NonNullable<Chunk["error"]>, { requestId: chunkId ?? headerRequestId, partialText }),
  });
}

export const openAICompatibleAdapter: ProviderAdapter = {
  name: "openai_compatible",
  load: openaiSdk,
  configured: (settings) => resolveConnection(settings).ok,
  notConfiguredReason: (settings) => {
    const resolved = resolveConnection(settings);
    return resolved.ok ? "" : resolved.reason;
  },
  call,
};

/**
 * Any server speaking OpenAI's chat completions (DeepSeek, xAI, Mistral, a local vLLM or Ollama):
 * no list price, since its price table is only the operator's; each connection names its server
 * and its key's variable (OPENAI_COMPATIBLE_<NAME>, read at call time by openAICompatibleKey in
 * lib/config/env.ts), so none exists by default.
 */
export const openAICompatibleEngine = defineEngine({
  name: "openai_compatible",
  label: "OpenAI-compatible (DeepSeek, Grok, Mistral, vLLM, Ollama)",
  writesAnswers: true,
  // What the CLI's `capture --provider openai-compatible` sends unless given --api-key-env.
  env: { OPENAI_COMPATIBLE_API_KEY: apiKeyVariable },
  listPrice: null,
  defaultConnections: [],
  adapter: openAICompatibleAdapter,
});
