// Yandex Search API v2, generative response (GenSearch.Search): Yandex searches, YandexGPT writes
// the answer, and the response lists the documents it found with a `used` flag for those the
// answer was built from. REST reference: https://yandex.cloud/en/docs/search-api/api-ref/GenSearch/search
// and https://yandex.cloud/en/docs/search-api/concepts/generative-response (request body, response
// fields, the `[n]` footnotes into `sources`). The method is server-streaming in gRPC; over REST the
// body is a JSON array of GenSearchResponse objects (one unless partial results are asked for),
// read here as it arrives. Priced per request, so usage is one search call and no tokens.
//
// One call() is one HTTP request (plain fetch, no retries); aborting the signal closes the
// connection. Yandex documents no cancel endpoint for synchronous requests.
import { apiEngine } from "@/lib/providers/api-engine";
import { baseUrlVariable } from "@/lib/providers/engine";
import { CallAbortedError, ProviderError, abortReasonOf, classifyHttpStatus, parseRetryAfter } from "@/lib/providers/errors";
import { JsonStreamGarbageError, jsonStreamSplitter } from "@/lib/providers/json-stream";
import { classifySdkError } from "@/lib/providers/sdk-errors";
import type { ProviderRequest, ProviderResponse, Source } from "@/lib/providers/types";
import { yandexAccountVariables, yandexAdapter, type ConfiguredYandexConnection } from "@/lib/providers/yandex-connection";
import { yandexErrorOf, yandexProviderError } from "@/lib/providers/yandex-errors";

const DEFAULT_BASE_URL = "https://searchapi.api.cloud.yandex.net";
const PROVIDER = "Yandex Search";

type GenSearchResponse = {
  message?: { content?: string; role?: string } | null;
  sources?: { url?: string; title?: string; used?: boolean }[] | null;
  searchQueries?: { text?: string; reqId?: string }[] | null;
  isAnswerRejected?: boolean;
  isBulletAnswer?: boolean;
};

/** searchType picks the Yandex domain searched (yandex.ru, .com.tr, .kz, .by, .uz, .com). */
const SEARCH_TYPE_BY_COUNTRY: Record<string, string> = { RU: "SEARCH_TYPE_RU", TR: "SEARCH_TYPE_TR", KZ: "SEARCH_TYPE_KK", BY: "SEARCH_TYPE_BE", UZ: "SEARCH_TYPE_UZ" };

function stringList(value: unknown): string[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const list = value.filter((v): v is string => typeof v === "string" && v.trim() !== "").map((v) => v.trim());
  return list.length ? list : undefined;
}

/**
 * The request body. A prompt's country chooses `searchType` (the Yandex domain: RU, TR, KZ, BY
 * and UZ have their own, any other country the international yandex.com); its language becomes a
 * `searchFilters` `lang` filter (ISO 639-1). The Search API has no region (lr) field for the
 * generative response. The connection's settings may restrict the search to `site`, `host` or
 * `url` lists (the API takes one of them) and turn on `fixMisspell`.
 */
export function yandexSearchBody(request: ProviderRequest, folderId: string): Record<string, unknown> {
  const body: Record<string, unknown> = { messages: [{ content: request.prompt, role: "ROLE_USER" }], folderId };
  const country = request.country?.trim().toUpperCase();
  if (country && /^[A-Z]{2}$/.test(country)) body.searchType = SEARCH_TYPE_BY_COUNTRY[country] ?? "SEARCH_TYPE_COM";
  const language = request.language?.trim().toLowerCase().split(/[-_]/)[0];
  if (language && /^[a-z]{2}$/.test(language)) body.searchFilters = [{ lang: language }];
  const settings = request.settings ?? {};
  for (const key of ["site", "host", "url"] as const) {
    const list = stringList(settings[key]);
    if (list) {
      body[key] = { [key]: list };
      break;
    }
  }
  if (settings.fixMisspell === true) body.fixMisspell = true;
  return body;
}

/** Sources the answer used (`used`, or a `[n]` footnote pointing at them) are cited; the others were only found. */
export function yandexSearchSources(text: string, sources: NonNullable<GenSearchResponse["sources"]>): Source[] {
  const footnoted = new Set<number>();
  for (const match of text.matchAll(/\[(\d{1,3})\]/g)) footnoted.add(Number(match[1]) - 1);
  const byUrl = new Map<string, Source>();
  sources.forEach((s, i) => {
    if (!s.url) return;
    const cited = s.used === true || footnoted.has(i);
    const known = byUrl.get(s.url);
    if (known) known.citedInText ||= cited;
    else byUrl.set(s.url, { url: s.url, title: s.title || undefined, citedInText: cited });
  });
  return [...byUrl.values()];
}

function requestIdOf(headers: Headers): string | undefined {
  return headers.get("x-request-id") ?? headers.get("x-server-trace-id") ?? undefined;
}

async function httpFailure(response: Response, requestId: string | undefined): Promise<ProviderError> {
  const raw = await response.text().catch(() => "");
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    parsed = undefined;
  }
  const retryAfterMs = parseRetryAfter(response.headers);
  const error = yandexErrorOf(Array.isArray(parsed) ? parsed[0] : parsed);
  if (error) return yandexProviderError(PROVIDER, error, { httpStatus: response.status, retryAfterMs, requestId });
  const status = response.status;
  return new ProviderError(`${PROVIDER} answered HTTP ${status}: ${raw.slice(0, 200)}`, {
    retryClass: classifyHttpStatus(status),
    reason: status === 429 ? "rate_limited" : status === 401 || status === 403 ? "auth_failed" : status >= 500 ? "server_error" : "invalid_request",
    httpStatus: status,
    retryAfterMs,
    requestId,
  });
}

/** Reads the streamed responses; each one's text replaces the last (partial results grow). */
function answerReader(request: ProviderRequest, requestId: () => string | undefined) {
  let text = "";
  let last: GenSearchResponse | undefined;
  let values = 0;
  return {
    text: () => text,
    last: () => last,
    values: () => values,
    add(json: string) {
      values += 1;
      const value = JSON.parse(json) as unknown;
      const error = yandexErrorOf(value);
      // An error inside the 200 stream: the request had reached Yandex, the body says what failed.
      if (error) throw yandexProviderError(PROVIDER, error, { requestId: requestId(), partialText: text });
      const response = ((value as { result?: unknown }).result ?? value) as GenSearchResponse;
      const content = response.message?.content ?? "";
      // Partial results repeat the answer so far; a part that does not extend it is a piece of its own.
      const delta = content.startsWith(text) ? content.slice(text.length) : content;
      text = content.startsWith(text) ? content : text + content;
      if (delta) request.onText?.(delta);
      last = { ...response, message: { ...response.message, content: text } };
    },
  };
}

function result(last: GenSearchResponse, text: string, headerRequestId: string | undefined): ProviderResponse {
  const queries = (last.searchQueries ?? []).map((q) => q.text?.trim() ?? "").filter(Boolean);
  const requestId = headerRequestId ?? last.searchQueries?.find((q) => q.reqId)?.reqId;
  if (!text.trim()) {
    if (last.isAnswerRejected) {
      throw new ProviderError(`${PROVIDER} declined to answer (isAnswerRejected)`, { retryClass: "permanent", reason: "content_policy", requestId });
    }
    throw new ProviderError(`${PROVIDER} returned an empty answer`, { retryClass: "transient", reason: "empty_answer", requestId });
  }
  return {
    text,
    sources: yandexSearchSources(text, last.sources ?? []),
    searchQueries: [...new Set(queries)],
    // Billed per request whatever the answer (pricing: "synchronous requests with generative response").
    usage: { inputTokens: 0, outputTokens: 0, reasoningTokens: 0, cachedTokens: 0, searchCalls: 1 },
    requestId,
  };
}

async function call(connection: ConfiguredYandexConnection, request: ProviderRequest): Promise<ProviderResponse> {
  const { signal } = request;
  if (request.searchMode === "off" || request.limits.maxSearchCalls <= 0) {
    throw new ProviderError(`${PROVIDER} always searches (one billed search per request); allow at least one search or pick another provider`, {
      retryClass: "permanent",
      reason: "invalid_request",
    });
  }
  const url = `${(connection.baseURL ?? DEFAULT_BASE_URL).replace(/\/+$/, "")}/v2/gen/search`;
  let headerRequestId: string | undefined;
  let bodyStarted = false;
  const reader = answerReader(request, () => headerRequestId);
  try {
    const response = await fetch(url, {
      method: "POST",
      headers: { authorization: `Api-Key ${connection.apiKey}`, "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify(yandexSearchBody(request, connection.folderId)),
      signal,
    });
    headerRequestId = requestIdOf(response.headers);
    if (!response.ok) throw await httpFailure(response, headerRequestId);
    const splitter = jsonStreamSplitter();
    const decoder = new TextDecoder();
    const body = response.body?.getReader();
    try {
      for (let chunk = await body?.read(); chunk && !chunk.done; chunk = await body?.read()) {
        bodyStarted = true;
        for (const value of splitter.push(decoder.decode(chunk.value, { stream: true }))) reader.add(value);
      }
    } catch (error) {
      // An error element or garbage: close the connection instead of reading the rest.
      await body?.cancel().catch(() => {});
      throw error;
    }
    for (const value of splitter.push(decoder.decode())) reader.add(value);
    if (signal.aborted) throw new CallAbortedError(abortReasonOf(signal), reader.text());
    const last = reader.last();
    if (!last) {
      if (splitter.pending()) throw new SyntaxError("the body ended inside a JSON value");
      throw new ProviderError(`${PROVIDER} answered HTTP 200 without a response`, { retryClass: "transient", reason: "empty_answer", requestId: headerRequestId });
    }
    if (splitter.pending()) {
      // A clean end in the middle of a further partial response: the answer may not be final.
      throw new ProviderError(`${PROVIDER} ended the response before it finished`, {
        retryClass: "unknown",
        reason: "stream_interrupted",
        requestId: headerRequestId,
        partialText: reader.text(),
      });
    }
    return result(last, reader.text(), headerRequestId);
  } catch (error) {
    if (error instanceof JsonStreamGarbageError || (error instanceof SyntaxError && !signal.aborted)) {
      // A 200 whose body is not the API's JSON (a proxy's page, a truncated value).
      throw new ProviderError(`${PROVIDER} sent a response that could not be parsed: ${error.message.slice(0, 160)}`, {
        retryClass: reader.values() > 0 ? "unknown" : "transient",
        reason: "unparseable_response",
        requestId: headerRequestId,
        partialText: reader.text(),
        cause: error,
      });
    }
    throw classifySdkError(error, { signal, streamStarted: bodyStarted, partialText: reader.text(), provider: PROVIDER });
  }
}

/** An adapter reading its key, folder and base URL at call time (tests pass their own). */
export const createYandexSearchAdapter = yandexAdapter("yandex_search", PROVIDER, call);

export const yandexSearchEngine = apiEngine({
  name: "yandex_search",
  label: "Yandex Search (generative)",
  writesAnswers: false,
  env: { ...yandexAccountVariables, YANDEX_SEARCH_BASE_URL: baseUrlVariable },
  adapter: (env) => createYandexSearchAdapter(() => ({ apiKey: env().YANDEX_API_KEY, folderId: env().YANDEX_FOLDER_ID, baseURL: env().YANDEX_SEARCH_BASE_URL })),
  // Yandex prices in roubles (VAT included), converted at 1 USD = 80 RUB. Generative search:
  // 5,080 RUB per 1,000 synchronous requests (aistudio.yandex.ru/docs/ru/search-api/pricing.html,
  // checked 2026-11) = 5.08 RUB = $0.0635 per request, charged as its one search call; no tokens.
  // The USD price list for contracts outside Russia says $41.64 per 1,000 without VAT.
  listPrice: { model: "generative-search", prices: { input: 0, output: 0, cached: 0, reasoning: 0, search: 63_500 } },
  defaultConnection: ["Yandex Search", "Yandex Search (generative)", "on"],
});
