// YandexGPT and Alice AI through Yandex AI Studio's OpenAI-compatible chat completions
// (https://yandex.cloud/en/docs/ai-studio/concepts/openai-compatibility: base URL
// https://llm.api.cloud.yandex.net/v1, the folder as OpenAI-Project, the model as the URI
// `gpt://<folder>/<model>/latest`; supported parameters: temperature, max_tokens, stream,
// response_format), streamed with the openai SDK. These models do not search the web: the answer is
// the model's own knowledge, with no sources and no search calls whatever the search mode.
//
// One call() is one HTTP request: SDK retries are off and the runner owns retries. Aborting closes
// the stream's connection; Yandex documents neither that this stops generation nor a cancel
// endpoint for synchronous completions.
import type { ChatCompletionCreateParamsStreaming } from "openai/resources/chat/completions";
import { env } from "@/lib/config/env";
import { CallAbortedError, ProviderError, abortReasonOf } from "@/lib/providers/errors";
import { lazySdk } from "@/lib/providers/lazy-sdk";
import { classifySdkError } from "@/lib/providers/sdk-errors";
import type { ProviderAdapter, ProviderRequest, ProviderResponse } from "@/lib/providers/types";
import type { YandexConnection } from "@/lib/providers/yandex-search";
import { yandexErrorOf, yandexProviderError } from "@/lib/providers/yandex-errors";

const DEFAULT_BASE_URL = "https://llm.api.cloud.yandex.net/v1";
const PROVIDER = "YandexGPT";

const openaiSdk = lazySdk(() => import("openai"));

type ChatUsage = { prompt_tokens?: number; completion_tokens?: number; prompt_tokens_details?: { cached_tokens?: number } | null; completion_tokens_details?: { reasoning_tokens?: number } | null };
type ChatChunk = {
  id?: string;
  error?: unknown;
  choices?: { delta?: { content?: string | null }; message?: { content?: string | null }; finish_reason?: string | null }[];
  usage?: ChatUsage | null;
};

/**
 * The model URI: a name (`yandexgpt`, `yandexgpt-lite`, `aliceai-llm`) gets the folder and the
 * `latest` branch; `name/rc` a branch of its own; a full `gpt://` URI is sent as is.
 */
export function yandexModelUri(model: string, folderId: string): string {
  const name = model.trim();
  if (name.startsWith("gpt://")) return name;
  return `gpt://${folderId}/${name.includes("/") ? name : `${name}/latest`}`;
}

/** Tokens a text of this length is charged at most, when Yandex sends no usage (about 4 characters a token, rounded up). */
const estimateTokens = (text: string) => Math.ceil(text.length / 4);

function accumulator(request: ProviderRequest) {
  const state = { text: "", id: undefined as string | undefined, usage: undefined as ChatUsage | undefined, finished: false, chunks: 0 };
  return {
    state,
    add(chunk: ChatChunk, requestId: string | undefined) {
      state.chunks += 1;
      state.id ??= chunk.id;
      const error = yandexErrorOf(chunk.error ? { error: chunk.error } : undefined);
      if (error) throw yandexProviderError(PROVIDER, error, { requestId: state.id ?? requestId, partialText: state.text });
      if (chunk.usage) state.usage = chunk.usage;
      const choice = chunk.choices?.[0];
      const content = choice?.delta?.content ?? choice?.message?.content;
      if (content) {
        state.text += content;
        request.onText?.(content);
      }
      // "length" (cut off at max_tokens) is an answer too: it was paid for.
      if (choice?.finish_reason) state.finished = true;
    },
    result(requestId: string | undefined): ProviderResponse {
      if (!state.text.trim()) throw new ProviderError(`${PROVIDER} returned an empty answer`, { retryClass: "transient", reason: "empty_answer", requestId: state.id ?? requestId });
      const u = state.usage;
      const reasoningTokens = u?.completion_tokens_details?.reasoning_tokens ?? 0;
      return {
        text: state.text,
        sources: [],
        searchQueries: [],
        usage: {
          inputTokens: u?.prompt_tokens ?? estimateTokens(request.prompt),
          outputTokens: u ? Math.max(0, (u.completion_tokens ?? 0) - reasoningTokens) : estimateTokens(state.text),
          reasoningTokens,
          cachedTokens: u?.prompt_tokens_details?.cached_tokens ?? 0,
          searchCalls: 0,
        },
        requestId: state.id ?? requestId,
      };
    },
  };
}

function isEventStream(response: Response): boolean {
  const type = response.headers.get("content-type");
  return !type || type.includes("text/event-stream");
}

async function call(connection: YandexConnection, request: ProviderRequest): Promise<ProviderResponse> {
  const { signal } = request;
  if (!connection.apiKey || !connection.folderId) {
    throw new ProviderError(`${PROVIDER} is not configured (YANDEX_API_KEY and YANDEX_FOLDER_ID must be set)`, { retryClass: "permanent", reason: "not_configured" });
  }
  if (signal.aborted) throw new CallAbortedError(abortReasonOf(signal));
  const sdk = await openaiSdk();
  const client = new sdk.default({
    apiKey: connection.apiKey,
    baseURL: connection.baseURL ?? DEFAULT_BASE_URL,
    maxRetries: 0,
    organization: null,
    project: connection.folderId,
    // Yandex Cloud's scheme for API keys (the SDK would send Bearer).
    defaultHeaders: { authorization: `Api-Key ${connection.apiKey}` },
  });
  const body: ChatCompletionCreateParamsStreaming = {
    model: yandexModelUri(request.model, connection.folderId),
    messages: [{ role: "user", content: request.prompt }],
    stream: true,
    max_tokens: request.limits.maxOutputTokens,
  };
  const acc = accumulator(request);
  let headerRequestId: string | undefined;
  try {
    const { data: stream, response: http } = await client.chat.completions.create(body, { signal }).withResponse();
    headerRequestId = http.headers.get("x-request-id") ?? http.headers.get("x-server-trace-id") ?? undefined;
    if (!isEventStream(http)) {
      const raw = await http.text();
      let parsed: ChatChunk | undefined;
      try {
        parsed = JSON.parse(raw) as ChatChunk;
      } catch {
        parsed = undefined;
      }
      if (!parsed || typeof parsed !== "object" || (!parsed.choices && !yandexErrorOf(parsed))) {
        throw new ProviderError(`${PROVIDER} answered HTTP 200 with a body that is not a completion: ${raw.slice(0, 120)}`, {
          retryClass: "transient",
          reason: raw.trim() ? "unparseable_response" : "empty_answer",
          requestId: headerRequestId,
        });
      }
      const error = yandexErrorOf(parsed);
      if (error) throw yandexProviderError(PROVIDER, error, { requestId: headerRequestId });
      acc.add(parsed, headerRequestId);
      return acc.result(headerRequestId);
    }
    for await (const chunk of stream) acc.add(chunk as unknown as ChatChunk, headerRequestId);
    // The SDK ends the iteration quietly when the signal aborts mid-stream.
    if (signal.aborted) throw new CallAbortedError(abortReasonOf(signal), acc.state.text);
    if (!acc.state.chunks) throw new ProviderError(`${PROVIDER} answered HTTP 200 without any chunk`, { retryClass: "transient", reason: "empty_answer", requestId: headerRequestId });
    if (!acc.state.finished) {
      throw new ProviderError(`${PROVIDER} ended the stream before the answer finished`, {
        retryClass: "unknown",
        reason: "stream_interrupted",
        requestId: acc.state.id ?? headerRequestId,
        partialText: acc.state.text,
      });
    }
    return acc.result(headerRequestId);
  } catch (error) {
    const { APIConnectionError, APIError, APIUserAbortError } = sdk;
    const errorChunk = error instanceof APIError && error.status === undefined && !(error instanceof APIConnectionError) && !(error instanceof APIUserAbortError);
    if (!signal.aborted && errorChunk) {
      // An `{"error": ...}` chunk inside a 200 stream: the SDK throws it as an APIError without a status.
      const body = yandexErrorOf({ error: error.error }) ?? { message: error.message };
      throw yandexProviderError(PROVIDER, body, { requestId: acc.state.id ?? headerRequestId, partialText: acc.state.text });
    }
    throw classifySdkError(error, { signal, streamStarted: acc.state.chunks > 0, partialText: acc.state.text, provider: PROVIDER });
  }
}

/** An adapter reading its key, folder and base URL at call time (tests pass their own). */
export function createYandexGptAdapter(connection: () => YandexConnection): ProviderAdapter {
  return {
    name: "yandexgpt",
    configured: () => Boolean(connection().apiKey && connection().folderId),
    call: (request) => call(connection(), request),
  };
}

export const yandexGptAdapter = createYandexGptAdapter(() => ({ apiKey: env().YANDEX_API_KEY, folderId: env().YANDEX_FOLDER_ID, baseURL: env().YANDEX_LLM_BASE_URL }));
