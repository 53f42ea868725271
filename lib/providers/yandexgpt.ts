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
import { contentOf, streamChatCompletion, type ChunkReader, type CompletionChoice } from "@/lib/providers/chat-completions";
import { openaiSdk } from "@/lib/providers/openai-sdk";
import { apiEngine } from "@/lib/providers/api-engine";
import { baseUrlVariable } from "@/lib/providers/engine";
import type { ProviderRequest, ProviderResponse } from "@/lib/providers/types";
import { yandexAccountVariables, yandexAdapter, type ConfiguredYandexConnection } from "@/lib/providers/yandex-connection";
import { yandexErrorOf, yandexProviderError } from "@/lib/providers/yandex-errors";

const DEFAULT_BASE_URL = "https://llm.api.cloud.yandex.net/v1";
const PROVIDER = "YandexGPT";

type ChatUsage = { prompt_tokens?: number; completion_tokens?: number; prompt_tokens_details?: { cached_tokens?: number } | null; completion_tokens_details?: { reasoning_tokens?: number } | null };
type ChatChunk = {
  id?: string;
  error?: unknown;
  choices?: CompletionChoice[];
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

function accumulator(request: ProviderRequest): ChunkReader<ChatChunk> {
  const state = { text: "", id: undefined as string | undefined, usage: undefined as ChatUsage | undefined, finished: false, chunks: 0 };
  return {
    state,
    text: () => state.text,
    add(chunk, requestId) {
      state.chunks += 1;
      state.id ??= chunk.id;
      const error = yandexErrorOf(chunk.error ? { error: chunk.error } : undefined);
      if (error) throw yandexProviderError(PROVIDER, error, { requestId: state.id ?? requestId, partialText: state.text });
      if (chunk.usage) state.usage = chunk.usage;
      const choice = chunk.choices?.[0];
      const content = contentOf(choice);
      if (content) {
        state.text += content;
        request.onText?.(content);
      }
      // "length" (cut off at max_tokens) is an answer too: it was paid for.
      if (choice?.finish_reason) state.finished = true;
    },
    result(requestId) {
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

async function call(connection: ConfiguredYandexConnection, request: ProviderRequest): Promise<ProviderResponse> {
  const { signal } = request;
  return streamChatCompletion<ChatChunk>({
    provider: PROVIDER,
    client: {
      apiKey: connection.apiKey,
      baseURL: connection.baseURL ?? DEFAULT_BASE_URL,
      project: connection.folderId,
      // Yandex Cloud's scheme for API keys (the SDK would send Bearer).
      defaultHeaders: { authorization: `Api-Key ${connection.apiKey}` },
    },
    body: {
      model: yandexModelUri(request.model, connection.folderId),
      messages: [{ role: "user", content: request.prompt }],
      stream: true,
      max_tokens: request.limits.maxOutputTokens,
    },
    signal,
    reader: accumulator(request),
    requestIdHeaders: ["x-request-id", "x-server-trace-id"],
    isCompletion: (body, requestId) => {
      const error = yandexErrorOf(body);
      if (error) throw yandexProviderError(PROVIDER, error, { requestId });
      return Boolean(body.choices);
    },
    errorChunk: (error, { chunkId, headerRequestId, partialText }) =>
      yandexProviderError(PROVIDER, yandexErrorOf({ error: error.error }) ?? { message: error.message }, { requestId: chunkId ?? headerRequestId, partialText }),
  });
}

/** An adapter reading its key, folder and base URL at call time (tests pass their own). */
export const createYandexGptAdapter = yandexAdapter("yandexgpt", PROVIDER, call, openaiSdk);

export const yandexGptEngine = apiEngine({
  name: "yandexgpt",
  label: "YandexGPT / Alice AI",
  writesAnswers: true,
  env: { ...yandexAccountVariables, YANDEX_LLM_BASE_URL: baseUrlVariable },
  adapter: (env) => createYandexGptAdapter(() => ({ apiKey: env().YANDEX_API_KEY, folderId: env().YANDEX_FOLDER_ID, baseURL: env().YANDEX_LLM_BASE_URL })),
  // Yandex prices in roubles (VAT included), converted at 1 USD = 80 RUB. YandexGPT Pro 5
  // (`yandexgpt`), common instance, synchronous: 1.20 RUB per 1,000 tokens in, out and cached
  // (yandex.cloud/ru/docs/ai-studio/pricing, checked 2026-11) = 1,200 RUB = $15 per 1M. Others from
  // the same table: yandexgpt-lite 0.20 RUB ($2.50 per 1M) in and out; Alice AI LLM (`aliceai-llm`)
  // 0.50 RUB in ($6.25) and 1.20 RUB out ($15). No web search.
  listPrice: { model: "yandexgpt", prices: { input: 15_000_000, output: 15_000_000, cached: 15_000_000, reasoning: 15_000_000, search: 0 } },
  defaultConnection: ["YandexGPT", "YandexGPT API", "off"],
});
