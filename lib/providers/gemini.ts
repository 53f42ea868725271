// Gemini through @google/genai, streamed, grounded with Google Search. One call() is one HTTP
// request: no SDK retries (no httpOptions.retryOptions), no automatic continuation (the SDK would
// otherwise open further requests to resume a stream), and the caller's signal aborts the request.
import "server-only";
import { ApiError, GoogleGenAI, type GenerateContentConfig, type GroundingMetadata, type GenerateContentResponseUsageMetadata } from "@google/genai";
import { env } from "@/lib/config/env";
import { CallAbortedError, ProviderError, abortReasonOf, classifyHttpStatus } from "@/lib/providers/errors";
import { classifySdkError } from "@/lib/providers/sdk-errors";
import type { ProviderAdapter, ProviderRequest, ProviderResponse, Source, Usage } from "@/lib/providers/types";

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

function classifyGeminiError(error: unknown, ctx: { signal: AbortSignal; chunksReceived: boolean; partialText: string }): Error {
  if (error instanceof ProviderError || error instanceof CallAbortedError) return error;
  // The SDK throws a DOMException AbortError; our own abort wins over whatever it made of it.
  if (ctx.signal.aborted) return new CallAbortedError(abortReasonOf(ctx.signal), ctx.partialText);
  if (error instanceof ApiError) {
    const body = errorBody(error.message);
    const detail = body?.error?.message ?? error.message;
    if (ctx.chunksReceived) {
      // An error event in the middle of an answer: Google had started the work.
      return new ProviderError(`Gemini failed while answering (${error.status}): ${detail.slice(0, 300)}`, {
        retryClass: "unknown",
        reason: "stream_error",
        httpStatus: error.status,
        partialText: ctx.partialText,
        cause: error,
      });
    }
    const keyInvalid = JSON.stringify(body?.error?.details ?? []).includes("API_KEY_INVALID");
    const s = error.status;
    const reason = s === 429 ? "rate_limited" : s >= 500 ? "server_error" : s === 401 || s === 403 || keyInvalid ? "auth_failed" : "invalid_request";
    return new ProviderError(`Gemini answered HTTP ${s}: ${detail.slice(0, 300)}`, {
      retryClass: classifyHttpStatus(s),
      reason,
      httpStatus: s,
      retryAfterMs: retryDelayMs(body),
      partialText: ctx.partialText,
      cause: error,
    });
  }
  if (isUnparseable(error)) return unparseable(ctx.partialText, error);
  // Connection refused, reset, broken stream: the same rules as the other SDKs.
  return classifySdkError(error, { signal: ctx.signal, streamStarted: ctx.chunksReceived, partialText: ctx.partialText, provider: "gemini" });
}

/**
 * HTTP 200 whose body is not the event stream we asked for. The request was accepted, so Google
 * may have done and billed the work: outcome unknown, like a broken connection.
 */
function unparseable(partialText: string, cause?: unknown): ProviderError {
  return new ProviderError("Gemini answered HTTP 200 with a body that is not a response stream", { retryClass: "unknown", reason: "unparseable_response", partialText, cause });
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

async function call(request: ProviderRequest): Promise<ProviderResponse> {
  if (request.signal.aborted) throw new CallAbortedError(abortReasonOf(request.signal));
  const { GEMINI_API_KEY: apiKey, GOOGLE_GEMINI_BASE_URL: baseUrl } = env();
  const ai = new GoogleGenAI({ apiKey, vertexai: false, httpOptions: baseUrl ? { baseUrl } : undefined });
  const config: GenerateContentConfig = { abortSignal: request.signal, automaticContinuation: false };
  // Gemini has no way to force a search: "on" and "auto" both offer it and the model decides.
  if (request.searchMode !== "off") config.tools = [{ googleSearch: {} }];

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
      chunks++;
      responseId ??= chunk.responseId;
      // Each chunk's usage is the running total for the request, not an increment.
      usageMetadata = chunk.usageMetadata ?? usageMetadata;
      blockReason ??= chunk.promptFeedback?.blockReason;
      const candidate = chunk.candidates?.[0];
      if (!candidate) continue;
      candidates++;
      for (const part of candidate.content?.parts ?? []) {
        if (!part.text || part.thought) continue;
        text += part.text;
        request.onText?.(part.text);
      }
      finishReason = candidate.finishReason ?? finishReason;
      if (candidate.groundingMetadata) grounding.push(candidate.groundingMetadata);
    }
  } catch (error) {
    throw classifyGeminiError(error, { signal: request.signal, chunksReceived: chunks > 0, partialText: text });
  }

  if (chunks === 0) throw unparseable(text);
  if (!text.trim() && (blockReason || (finishReason && CONTENT_POLICY_FINISH.has(finishReason)))) {
    throw new ProviderError(`Gemini blocked the answer (${blockReason ?? finishReason})`, { retryClass: "permanent", reason: "content_policy", requestId: responseId });
  }
  if (candidates === 0) throw new ProviderError("Gemini returned no candidates", { retryClass: "transient", reason: "empty_answer", requestId: responseId });
  const { sources, searchQueries } = sourcesOf(grounding);
  return { text, sources, searchQueries, usage: usageOf(usageMetadata, request.model, searchQueries.length), requestId: responseId };
}

export const geminiAdapter: ProviderAdapter = { name: "gemini", configured: () => Boolean(env().GEMINI_API_KEY), call };
