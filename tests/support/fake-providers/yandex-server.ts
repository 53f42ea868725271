// Local servers speaking Yandex Cloud's wire formats, for tests that put the real adapters (plain
// fetch for the Search API, the openai SDK for AI Studio) in front of a provider that misbehaves
// on purpose:
// - Search API v2 generative response, POST /v2/gen/search
//   (https://yandex.cloud/en/docs/search-api/api-ref/GenSearch/search,
//   https://yandex.cloud/en/docs/search-api/concepts/generative-response): a JSON array of
//   GenSearchResponse objects `{ message: {content, role}, sources: [{url, title, used}],
//   searchQueries: [{text, reqId}], isAnswerRejected, isBulletAnswer }`, written element by element.
// - AI Studio's OpenAI-compatible chat completions, POST /v1/chat/completions
//   (https://yandex.cloud/en/docs/ai-studio/concepts/openai-compatibility), streamed as `data:` chunks.
// Errors come in gRPC terms: `{ "error": { "grpcCode", "httpCode", "message", "httpStatus" } }`.
//
// Scenario choice and recording work as in openai-server.ts: `enqueue`, else a `fake:<name>`
// named by the request (the prompt for the Search API, which takes no model; the model name in
// the model URI for AI Studio), else a normal answer.
import { respondCommon, sse, startScriptedServer, type CommonScenario, type FakeServer, type ScenarioContext } from "./openai-server";

const grpcError = (grpcCode: number, httpCode: number, httpStatus: string, message: string) => ({ error: { grpcCode, httpCode, message, httpStatus, details: [] } });

// ---------------------------------------------------------------------------------------------
// Search API: generative response

export type GenSearchAnswer = {
  content: string;
  sources: { url: string; title: string; used: boolean }[];
  searchQueries: { text: string; reqId: string }[];
  isAnswerRejected?: boolean;
};

export const YANDEX_SEARCH_ANSWER: GenSearchAnswer = {
  content:
    "Для команды из 10 человек чаще всего советуют **amoCRM** и **Битрикс24** [1][2]. " +
    "amoCRM проще внедрить для отдела продаж [1], у Битрикс24 есть бесплатный тариф [3]. Salesforce для такой команды обычно избыточен.",
  sources: [
    { url: "https://www.amocrm.ru/", title: "amoCRM — CRM для продаж", used: true },
    { url: "https://vc.ru/crm/best-crm-2026", title: "Лучшие CRM 2026 — vc.ru", used: true },
    { url: "https://www.bitrix24.ru/prices/", title: "Тарифы Битрикс24", used: false },
    { url: "https://www.salesforce.com/ru/", title: "Salesforce", used: false },
  ],
  searchQueries: [
    { text: "лучшая crm для небольшой команды", reqId: "1764000000000001-1234567890-fake-BAL" },
    { text: "crm для стартапа 10 человек", reqId: "1764000000000002-1234567890-fake-BAL" },
  ],
};

export type YandexSearchScenario =
  | CommonScenario
  | { kind: "answer"; answer?: GenSearchAnswer }
  /** The answer as partial results: three growing responses, each written on its own. */
  | { kind: "partial" }
  /** HTTP 200 whose streamed array carries an error element after the first partial response. */
  | { kind: "error-200"; error: unknown };

export const YANDEX_SEARCH_SCENARIOS: Record<string, YandexSearchScenario> = {
  answer: { kind: "answer" },
  partial: { kind: "partial" },
  rejected: { kind: "answer", answer: { content: "", sources: [], searchQueries: [], isAnswerRejected: true } },
  "rate-limited": { kind: "status", status: 429, headers: { "retry-after": "3" }, body: grpcError(8, 429, "Too Many Requests", "Quota limit searchapi.genSearch.requestsPerSecond exceeded") },
  "server-error": { kind: "status", status: 500, body: grpcError(13, 500, "Internal Server Error", "Internal error") },
  unavailable: { kind: "status", status: 503, body: { code: 14, message: "Service is unavailable", details: [] } },
  "bad-request": { kind: "status", status: 400, body: grpcError(3, 400, "Bad Request", "messages: the number of elements must be in the range 1-100") },
  unauthorized: { kind: "status", status: 401, body: grpcError(16, 401, "Unauthorized", "Unknown api key 'AQVN...'") },
  forbidden: { kind: "status", status: 403, body: grpcError(7, 403, "Forbidden", "Permission denied to folder b1g-fake for search-api.webSearch.user") },
  "error-200": { kind: "error-200", error: grpcError(13, 500, "Internal Server Error", "Generation failed") },
  "error-200-invalid": { kind: "error-200", error: grpcError(3, 400, "Bad Request", "Request rejected by the model") },
  reset: { kind: "reset", afterEvents: 2 },
  hang: { kind: "hang" },
  stall: { kind: "stall", afterEvents: 2 },
  html: { kind: "raw", contentType: "text/html", body: "<html><body><h1>502 Bad Gateway</h1></body></html>" },
  empty: { kind: "raw", contentType: "application/json", body: "" },
};

function genSearchResponse(answer: GenSearchAnswer, content = answer.content) {
  return {
    message: { content, role: "ROLE_ASSISTANT" },
    sources: answer.sources,
    searchQueries: answer.searchQueries,
    isAnswerRejected: answer.isAnswerRejected ?? false,
    isBulletAnswer: false,
  };
}

/** The frames of an answer as partial results: `[`, three growing responses between commas, `]`. */
function partialFrames(answer: GenSearchAnswer = YANDEX_SEARCH_ANSWER): string[] {
  const cuts = [Math.floor(answer.content.length / 3), Math.floor((2 * answer.content.length) / 3), answer.content.length];
  const parts = cuts.map((cut) => JSON.stringify(genSearchResponse(answer, answer.content.slice(0, cut))));
  return ["[", parts[0]!, ",\n", parts[1]!, ",\n", parts[2]!, "]"];
}

function writeFrames(ctx: ScenarioContext, frames: string[]): void {
  const { res } = ctx;
  // One write per frame, each on its own turn, so that the client reads them as they come.
  const next = (i: number) => {
    if (i >= frames.length) return void res.end();
    res.write(frames[i]!, () => setImmediate(() => next(i + 1)));
  };
  next(0);
}

function respondYandexSearch(scenario: YandexSearchScenario, ctx: ScenarioContext): void {
  const { res, record } = ctx;
  const headers = { "content-type": "application/json", "x-request-id": record.id, "x-server-trace-id": `trace-${record.id}` };
  if (respondCommon(scenario, ctx, headers)) return;
  switch (scenario.kind) {
    case "answer":
      res.writeHead(200, headers);
      res.end(JSON.stringify([genSearchResponse(scenario.answer ?? YANDEX_SEARCH_ANSWER)]));
      return;
    case "partial":
      res.writeHead(200, headers);
      writeFrames(ctx, partialFrames());
      return;
    case "error-200":
      res.writeHead(200, headers);
      writeFrames(ctx, [...partialFrames().slice(0, 2), ",\n", JSON.stringify(scenario.error), "]"]);
      return;
  }
}

function pickYandexSearch(body: Record<string, unknown>): YandexSearchScenario {
  const first = Array.isArray(body.messages) ? (body.messages[0] as { content?: unknown } | undefined) : undefined;
  const prompt = typeof first?.content === "string" ? first.content : "";
  const name = /^fake:([\w-]+)/.exec(prompt)?.[1] ?? "answer";
  return YANDEX_SEARCH_SCENARIOS[name] ?? { kind: "status", status: 400, body: grpcError(3, 400, "Bad Request", `unknown scenario ${name}`) };
}

export function startFakeYandexSearch(): Promise<FakeServer<YandexSearchScenario>> {
  return startScriptedServer<YandexSearchScenario>({
    pathPrefix: "",
    endpoint: "/v2/gen/search",
    idPrefix: "",
    pick: pickYandexSearch,
    respond: respondYandexSearch,
    answerEvents: () => partialFrames(),
  });
}

// ---------------------------------------------------------------------------------------------
// AI Studio: OpenAI-compatible chat completions

export const YANDEXGPT_ANSWER = {
  content:
    "Для небольшой команды подойдут amoCRM и Битрикс24: обе CRM поддерживают воронку продаж и интеграции с телефонией. " +
    "HubSpot тоже популярен, но его сложнее оплатить из России.",
  usage: { prompt_tokens: 21, completion_tokens: 58, total_tokens: 79 },
};

export type YandexGptScenario =
  | CommonScenario
  | { kind: "answer" }
  /** The first chunks of an answer, then an `{"error": ...}` chunk inside the 200 stream. */
  | { kind: "error-chunk"; error: unknown }
  /** HTTP 200 with a JSON body (not a stream) carrying an error. */
  | { kind: "error-json-200"; error: unknown };

export const YANDEXGPT_SCENARIOS: Record<string, YandexGptScenario> = {
  answer: { kind: "answer" },
  "rate-limited": { kind: "status", status: 429, headers: { "retry-after": "2" }, body: grpcError(8, 429, "Too Many Requests", "ai.languageModels.completion.requestsPerSecond exceeded") },
  "server-error": { kind: "status", status: 500, body: grpcError(13, 500, "Internal Server Error", "Internal error") },
  unavailable: { kind: "status", status: 503, body: { code: 14, message: "Service is unavailable", details: [] } },
  "bad-request": { kind: "status", status: 400, body: grpcError(3, 400, "Bad Request", "Model gpt://b1g-fake/yandexgpt-xl/latest not found") },
  "not-found": { kind: "status", status: 404, body: grpcError(5, 404, "Not Found", "Model not found") },
  unauthorized: { kind: "status", status: 401, body: grpcError(16, 401, "Unauthorized", "Unknown api key") },
  forbidden: { kind: "status", status: 403, body: grpcError(7, 403, "Forbidden", "Permission to [resource-manager.folder b1g-fake] denied") },
  "error-chunk": { kind: "error-chunk", error: { grpcCode: 8, httpCode: 429, message: "Too many tokens in flight", httpStatus: "Too Many Requests" } },
  "error-json-200": { kind: "error-json-200", error: { grpcCode: 3, httpCode: 400, message: "Invalid max_tokens", httpStatus: "Bad Request" } },
  reset: { kind: "reset", afterEvents: 3 },
  hang: { kind: "hang" },
  stall: { kind: "stall", afterEvents: 3 },
  html: { kind: "raw", contentType: "text/html", body: "<html><body>upstream connect error</body></html>" },
};

/** The chunks of a streamed answer in the OpenAI shape, usage on the last, then `[DONE]`. */
export function yandexGptChunks(id: string, model: string): string[] {
  const created = Math.floor(Date.now() / 1000);
  const pieces = YANDEXGPT_ANSWER.content.match(/[\s\S]{1,24}/g) ?? [];
  const frames = pieces.map((content) => sse({ id, object: "chat.completion.chunk", created, model, choices: [{ index: 0, delta: { role: "assistant", content }, finish_reason: null }] }));
  frames.push(sse({ id, object: "chat.completion.chunk", created, model, choices: [{ index: 0, delta: {}, finish_reason: "stop" }], usage: YANDEXGPT_ANSWER.usage }));
  frames.push("data: [DONE]\n\n");
  return frames;
}

function respondYandexGpt(scenario: YandexGptScenario, ctx: ScenarioContext): void {
  const { res, record } = ctx;
  const headers = { "content-type": "text/event-stream; charset=utf-8", "x-request-id": record.id };
  if (respondCommon(scenario, ctx, headers)) return;
  switch (scenario.kind) {
    case "answer":
      res.writeHead(200, headers);
      res.end(ctx.answerEvents().join(""));
      return;
    case "error-chunk":
      res.writeHead(200, headers);
      res.end(ctx.answerEvents().slice(0, 2).join("") + sse({ error: scenario.error }));
      return;
    case "error-json-200":
      res.writeHead(200, { "content-type": "application/json", "x-request-id": record.id });
      res.end(JSON.stringify({ error: scenario.error }));
      return;
  }
}

/** `gpt://<folder>/fake:<name>/latest` asks for a scenario. */
function pickYandexGpt(body: Record<string, unknown>): YandexGptScenario {
  const name = /^gpt:\/\/[^/]+\/fake:([\w-]+)/.exec(typeof body.model === "string" ? body.model : "")?.[1] ?? "answer";
  return YANDEXGPT_SCENARIOS[name] ?? { kind: "status", status: 404, body: grpcError(5, 404, "Not Found", `unknown scenario ${name}`) };
}

export function startFakeYandexGpt(): Promise<FakeServer<YandexGptScenario>> {
  return startScriptedServer<YandexGptScenario>({
    pathPrefix: "/v1",
    endpoint: "/chat/completions",
    idPrefix: "",
    pick: pickYandexGpt,
    respond: respondYandexGpt,
    answerEvents: (record) => yandexGptChunks(record.id, String(record.body.model ?? "")),
  });
}
