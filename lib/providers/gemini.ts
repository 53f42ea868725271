// Gemini through @google/genai, streamed, grounded with Google Search (PROVIDERS.md "Where the
// data is"). One call() is one HTTP request: no SDK retries (no httpOptions.retryOptions), no
// automatic continuation (the SDK would otherwise open more requests to resume a stream), and the
// caller's signal aborts the request; the runner owns timeouts, retries and aborts.
import "server-only";
import type { GenerateContentConfig, GroundingMetadata, GenerateContentResponseUsageMetadata } from "@google/genai";
import { apiEngine, keyedAdapter, type WithApiKey } from "@/lib/providers/api-engine";
import { apiKeyVariable, baseUrlVariable } from "@/lib/providers/engine";
import { CallAbortedError, ProviderError, abortReasonOf, classifyHttpStatus } from "@/lib/providers/errors";
import { lazySdk } from "@/lib/providers/lazy-sdk";
import { classifySdkError } from "@/lib/providers/sdk-errors";
import type { ProviderRequest, ProviderResponse, Source, Usage } from "@/lib/providers/types";

export type GeminiConnection = { apiKey?: string; baseUrl?: string };

const PROVIDER = "Gemini";

const genaiSdk = lazySdk(() => import("@google/genai"));
type GenaiSdk = Awaited<ReturnType<typeof genaiSdk>>;

const CONTENT_POLICY_FINISH = new Set(["SAFETY", "BLOCKLIST", "PROHIBITED_CONTENT", "SPII", "IMAGE_SAFETY", "IMAGE_PROHIBITED_CONTENT"]);

type ErrorBody = { error?: { code?: number; message?: string; status?: string; details?: Array<Record<string, unknown>> } };

/** ApiError's message is the raw JSON body, sometimes behind a "got status: ..." prefix. */
function errorBody(message: string): ErrorBody | undefined {
  const start = message.indexOf("{");
  if (start < 0) return undefined;
  try {
    return JSON.parse(message.slice(start)) as ErrorBody;
  } catch {
    return undefined;
  }
}

/** ApiError carries no headers, so no Retry-After; google.rpc.RetryInfo says e.g. "38s". */
function retryDelayMs(body: ErrorBody | undefined): number | undefined {
  for (const detail of body?.error?.details ?? []) {
    if (!String(detail["@type"]).endsWith("google.rpc.RetryInfo")) continue;
    const match = /^(\d+(?:\.\d+)?)s$/.exec(String(detail.retryDelay));
    if (match) return Math.round(Number(match[1]) * 1000);
  }
  return undefined;
}

function isUnparseable(error: unknown): boolean {
  let current = error as { name?: string; message?: string; cause?: unknown } | undefined;
  for (let i = 0; current && i < 5; i++, current = current.cause as typeof current) {
    if (current.name === "SyntaxError" || /^(Incomplete JSON segment|exception parsing stream chunk)/.test(current.message ?? "")) return true;
  }
  return false;
}

function classifyGeminiError({ ApiError }: GenaiSdk, error: unknown, ctx: { signal: AbortSignal; chunksReceived: boolean; partialText: string }): Error {
  if (error instanceof ProviderError || error instanceof CallAbortedError) return error;
  // The SDK throws a DOMException AbortError; our own abort wins over whatever it made of it.
  if (ctx.signal.aborted) return new CallAbortedError(abortReasonOf(ctx.signal), ctx.partialText);
  if (error instanceof ApiError) {
    // An HTTP error status, or an error object inside the stream (which the SDK throws with the
    // object's code): either way Google says it failed, so the status decides.
    const body = errorBody(error.message);
    const s = error.status;
    const keyInvalid = JSON.stringify(body?.error?.details ?? []).includes("API_KEY_INVALID");
    const reason = s === 429 ? "rate_limited" : s >= 500 ? "server_error" : s === 401 || s === 403 || keyInvalid ? "auth_failed" : "invalid_request";
    return new ProviderError(`${PROVIDER} answered HTTP ${s}${ctx.chunksReceived ? " while answering" : ""}: ${(body?.error?.message ?? error.message).slice(0, 300)}`, {
      retryClass: classifyHttpStatus(s),
      reason,
      httpStatus: s,
      retryAfterMs: retryDelayMs(body),
      partialText: ctx.partialText,
      cause: error,
    });
  }
  if (isUnparseable(error)) {
    // HTTP 200 with a body that is not an event stream: before any chunk, the provider never began
    // answering (often a proxy's page) and a retry may succeed; after chunks, the work may have
    // been done and billed.
    return new ProviderError(`${PROVIDER} answered HTTP 200 with a body that is not a response stream`, {
      retryClass: ctx.chunksReceived ? "unknown" : "transient",
      reason: "unparseable_response",
      partialText: ctx.partialText,
      cause: error,
    });
  }
  // Connection refused, reset, broken stream: the same rules as for the other SDKs.
  return classifySdkError(error, { signal: ctx.signal, streamStarted: ctx.chunksReceived, partialText: ctx.partialText, provider: PROVIDER });
}

function sourcesOf(grounding: GroundingMetadata[]): { sources: Source[]; searchQueries: string[] } {
  const sources = new Map<string, Source>();
  const queries = new Set<string>();
  for (const metadata of grounding) {
    for (const query of metadata.webSearchQueries ?? []) if (query) queries.add(query);
    const cited = new Set((metadata.groundingSupports ?? []).flatMap((support) => support.groundingChunkIndices ?? []));
    (metadata.groundingChunks ?? []).forEach((chunk, index) => {
      // The uri is a vertexaisearch.cloud.google.com redirect; the title is usually the domain.
      const url = chunk.web?.uri;
      if (!url) return;
      const known = sources.get(url);
      sources.set(url, { url, title: known?.title ?? chunk.web?.title, citedInText: (known?.citedInText ?? false) || cited.has(index) });
    });
  }
  return { sources: [...sources.values()], searchQueries: [...queries] };
}

function usageOf(metadata: GenerateContentResponseUsageMetadata | undefined, model: string, searchQueries: number): Usage {
  return {
    // promptTokenCount includes the cached part; thoughts are not part of candidatesTokenCount.
    inputTokens: metadata?.promptTokenCount ?? 0,
    outputTokens: metadata?.candidatesTokenCount ?? 0,
    reasoningTokens: metadata?.thoughtsTokenCount ?? 0,
    cachedTokens: metadata?.cachedContentTokenCount ?? 0,
    // Grounding is billed per grounded prompt on Gemini 2.x (one "search call" however many
    // queries the model ran) and per search query on Gemini 3 (PROVIDERS.md list prices).
    searchCalls: /^(models\/)?gemini-[3-9]/.test(model) ? searchQueries : searchQueries > 0 ? 1 : 0,
  };
}

async function call(connection: WithApiKey<GeminiConnection>, request: ProviderRequest): Promise<ProviderResponse> {
  const sdk = await genaiSdk();
  // vertexai false: GOOGLE_GENAI_USE_VERTEXAI in the environment must not switch the backend.
  const ai = new sdk.GoogleGenAI({ apiKey: connection.apiKey, vertexai: false, httpOptions: connection.baseUrl ? { baseUrl: connection.baseUrl } : undefined });
  // maxOutputTokens bounds the answer and the thinking tokens together (generationConfig).
  const config: GenerateContentConfig = { abortSignal: request.signal, automaticContinuation: false, maxOutputTokens: request.limits.maxOutputTokens };
  // Gemini cannot be made to search: "on" and "auto" both offer Google Search and the model
  // decides. Nor can its searches be counted out per request, so a limit of 0 is the only one
  // that can be honoured here: then no search tool at all.
  if (request.searchMode !== "off" && request.limits.maxSearchCalls > 0) config.tools = [{ googleSearch: {} }];

  let text = "";
  let chunks = 0;
  let candidates = 0;
  let responseId: string | undefined;
  let usageMetadata: GenerateContentResponseUsageMetadata | undefined;
  let finishReason: string | undefined;
  let blockReason: string | undefined;
  const grounding: GroundingMetadata[] = [];
  try {
    const stream = await ai.models.generateContentStream({ model: request.model, contents: request.prompt, config });
    for await (const chunk of stream) {
      chunks += 1;
      responseId ??= chunk.responseId;
      // Each chunk's usage is the running total of the request, not an increment.
      usageMetadata = chunk.usageMetadata ?? usageMetadata;
      blockReason ??= chunk.promptFeedback?.blockReason;
      const candidate = chunk.candidates?.[0];
      if (!candidate) continue;
      candidates += 1;
      for (const part of candidate.content?.parts ?? []) {
        if (!part.text || part.thought) continue;
        text += part.text;
        request.onText?.(part.text);
      }
      finishReason = candidate.finishReason ?? finishReason;
      if (candidate.groundingMetadata) grounding.push(candidate.groundingMetadata);
    }
  } catch (error) {
    throw classifyGeminiError(sdk, error, { signal: request.signal, chunksReceived: chunks > 0, partialText: text });
  }
  if (request.signal.aborted) throw new CallAbortedError(abortReasonOf(request.signal), text);

  const requestId = responseId;
  if (!text.trim() && (blockReason || (finishReason && CONTENT_POLICY_FINISH.has(finishReason)))) {
    throw new ProviderError(`${PROVIDER} blocked the answer (${blockReason ?? finishReason})`, { retryClass: "permanent", reason: "content_policy", requestId });
  }
  // A MAX_TOKENS stop with text is accepted like STOP: the answer so far was paid for, and a retry
  // would pay again to be cut off at the same limit.
  if (!text.trim()) {
    const what = chunks === 0 ? "answered HTTP 200 without any chunk" : candidates === 0 ? "returned no candidates" : `returned an empty answer (${finishReason ?? "no finish reason"})`;
    throw new ProviderError(`${PROVIDER} ${what}`, { retryClass: "transient", reason: "empty_answer", requestId });
  }
  const { sources, searchQueries } = sourcesOf(grounding);
  return { text, sources, searchQueries, usage: usageOf(usageMetadata, request.model, searchQueries.length), requestId };
}

/** An adapter reading its key and base URL at call time (tests pass their own). */
export const createGeminiAdapter = keyedAdapter<GeminiConnection>("gemini", PROVIDER, "GEMINI_API_KEY", call, genaiSdk);

export const geminiEngine = apiEngine({
  name: "gemini",
  label: "Google Gemini",
  writesAnswers: true,
  env: { GEMINI_API_KEY: apiKeyVariable, GOOGLE_GEMINI_BASE_URL: baseUrlVariable },
  adapter: (env) => createGeminiAdapter(() => ({ apiKey: env().GEMINI_API_KEY, baseUrl: env().GOOGLE_GEMINI_BASE_URL })),
  listPrice: { model: "gemini-2.5-flash", prices: { input: 300_000, output: 2_500_000, cached: 75_000, reasoning: 2_500_000, search: 35_000 } },
  defaultConnection: ["Gemini", "Gemini API", "auto"],
});
