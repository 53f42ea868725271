// The Yandex Search generative-response adapter against a local server speaking the Search API v2
// REST format (POST /v2/gen/search), real HTTP in between: what it sends and extracts, and how
// each way the provider can fail maps to a retry class (DESIGN.md "Retries by error class",
// "Cancellation").
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CallAbortedError, ProviderError } from "@/lib/providers/errors";
import { adapterFor } from "@/lib/providers/registry";
import type { ProviderRequest } from "@/lib/providers/types";
import { createYandexSearchAdapter } from "@/lib/providers/yandex-search";
import { type FakeServer } from "@/tests/support/fake-providers/openai-server";
import { YANDEX_SEARCH_ANSWER, YANDEX_SEARCH_SCENARIOS, startFakeYandexSearch, type YandexSearchScenario } from "@/tests/support/fake-providers/yandex-server";
import { abortAtFirstText, abortOnceReceived, expectClosedByClient, failure, providerError, refusedUrl, requestBuilder } from "@/tests/support/provider-calls";

let server: FakeServer<YandexSearchScenario>;
let adapter: ReturnType<typeof createYandexSearchAdapter>;

beforeAll(async () => {
  server = await startFakeYandexSearch();
  // Before anything reads env(): the registered adapter must see these.
  process.env.YANDEX_API_KEY = "AQVN-registered";
  process.env.YANDEX_FOLDER_ID = "b1g-registered";
  process.env.YANDEX_SEARCH_BASE_URL = server.url;
  adapter = createYandexSearchAdapter(() => ({ apiKey: "AQVN-test", folderId: "b1g-test", baseURL: server.url }));
});

afterAll(async () => {
  await server.close();
});

const request = requestBuilder({
  prompt: "Какая CRM лучше для стартапа из 10 человек?",
  model: "generative-search",
  searchMode: "on",
  limits: { maxOutputTokens: 2048, maxSearchCalls: 3 },
});

async function providerFailure(scenario: YandexSearchScenario, overrides: Partial<ProviderRequest> = {}): Promise<ProviderError> {
  server.enqueue(scenario);
  return providerError(adapter.call(request(overrides)));
}

const SOURCES = [
  { url: "https://www.amocrm.ru/", title: "amoCRM — CRM для продаж", citedInText: true },
  { url: "https://vc.ru/crm/best-crm-2026", title: "Лучшие CRM 2026 — vc.ru", citedInText: true },
  // used: false, but the answer footnotes it ([3]).
  { url: "https://www.bitrix24.ru/prices/", title: "Тарифы Битрикс24", citedInText: true },
  // Found, neither used nor footnoted.
  { url: "https://www.salesforce.com/ru/", title: "Salesforce", citedInText: false },
];

describe("a generative answer", () => {
  it("yields the text, cited and retrieved sources, the search queries, one search call and the request id", async () => {
    const deltas: string[] = [];
    const before = server.requests.length;
    const response = await adapter.call(request({ country: "ru", language: "ru-RU", onText: (d) => deltas.push(d) }));

    expect(server.requests.length).toBe(before + 1);
    const sent = server.requests.at(-1)!;
    expect(sent.path).toBe("/v2/gen/search");
    expect(sent.headers.authorization).toBe("Api-Key AQVN-test");
    expect(sent.body).toEqual({
      messages: [{ content: "Какая CRM лучше для стартапа из 10 человек?", role: "ROLE_USER" }],
      folderId: "b1g-test",
      searchType: "SEARCH_TYPE_RU",
      searchFilters: [{ lang: "ru" }],
    });

    expect(response.text).toBe(YANDEX_SEARCH_ANSWER.content);
    expect(deltas.join("")).toBe(response.text);
    expect(response.sources).toEqual(SOURCES);
    expect(response.searchQueries).toEqual(["лучшая crm для небольшой команды", "crm для стартапа 10 человек"]);
    expect(response.usage).toEqual({ inputTokens: 0, outputTokens: 0, reasoningTokens: 0, cachedTokens: 0, searchCalls: 1 });
    expect(response.requestId).toBe(sent.id);
  });

  it("reads partial results as they stream, each growing the answer, and keeps the last", async () => {
    server.enqueue({ kind: "partial" });
    const deltas: string[] = [];
    const response = await adapter.call(request({ onText: (d) => deltas.push(d) }));
    expect(deltas.length).toBe(3);
    expect(deltas.join("")).toBe(YANDEX_SEARCH_ANSWER.content);
    expect(response.text).toBe(YANDEX_SEARCH_ANSWER.content);
    expect(response.sources).toEqual(SOURCES);
  });

  it("maps countries to the Yandex domain searched, sends no filter without a language, and passes a site restriction from the settings", async () => {
    await adapter.call(request({ country: "KZ" }));
    expect(server.requests.at(-1)!.body).toMatchObject({ searchType: "SEARCH_TYPE_KK" });
    expect(server.requests.at(-1)!.body).not.toHaveProperty("searchFilters");

    await adapter.call(request({ country: "DE", language: "de", settings: { host: ["www.amocrm.ru", 3], site: [] } }));
    const sent = server.requests.at(-1)!.body;
    expect(sent).toMatchObject({ searchType: "SEARCH_TYPE_COM", searchFilters: [{ lang: "de" }], host: { host: ["www.amocrm.ru"] } });
    expect(sent).not.toHaveProperty("site");

    await adapter.call(request());
    expect(server.requests.at(-1)!.body).not.toHaveProperty("searchType");
  });

  it("an answer the model declined (isAnswerRejected, no text) is permanent (content_policy)", async () => {
    const error = await providerFailure(YANDEX_SEARCH_SCENARIOS.rejected!);
    expect(error).toMatchObject({ retryClass: "permanent", reason: "content_policy" });
  });

  it("refuses search off or no search allowed without calling: every request is a billed search", async () => {
    const before = server.requests.length;
    for (const overrides of [{ searchMode: "off" as const }, { limits: { maxOutputTokens: 100, maxSearchCalls: 0 } }]) {
      expect(await failure(adapter.call(request(overrides)))).toMatchObject({ retryClass: "permanent", reason: "invalid_request" });
    }
    expect(server.requests.length).toBe(before);
  });
});

describe("HTTP errors with gRPC bodies", () => {
  it("429 is transient and carries Retry-After", async () => {
    const error = await providerFailure(YANDEX_SEARCH_SCENARIOS["rate-limited"]!);
    expect(error).toMatchObject({ retryClass: "transient", reason: "rate_limited", httpStatus: 429, retryAfterMs: 3000, requestId: server.requests.at(-1)!.id });
    expect(error.message).toContain("Quota limit");
  });

  it.each(["server-error", "unavailable"])("%s (5xx) is transient, after exactly one request", async (name) => {
    const before = server.requests.length;
    const error = await providerFailure(YANDEX_SEARCH_SCENARIOS[name]!);
    expect(error).toMatchObject({ retryClass: "transient", reason: "server_error" });
    expect(error.httpStatus).toBeGreaterThanOrEqual(500);
    expect(server.requests.length).toBe(before + 1);
  });

  it.each([
    ["bad-request", 400, "invalid_request"],
    ["unauthorized", 401, "auth_failed"],
    ["forbidden", 403, "auth_failed"],
  ])("%s is permanent (%i, %s)", async (name, status, reason) => {
    const error = await providerFailure(YANDEX_SEARCH_SCENARIOS[name]!);
    expect(error).toMatchObject({ retryClass: "permanent", reason, httpStatus: status });
  });

  it("a scenario can be chosen by the prompt (the API takes no model)", async () => {
    const error = await failure(adapter.call(request({ prompt: "fake:rate-limited CRM?" })));
    expect(error).toMatchObject({ retryClass: "transient", httpStatus: 429 });
  });
});

describe("failures inside a 200", () => {
  it("an error element after a partial response is classified by its gRPC code and keeps the partial text", async () => {
    const deltas: string[] = [];
    const error = await providerFailure(YANDEX_SEARCH_SCENARIOS["error-200"]!, { onText: (d) => deltas.push(d) });
    expect(error).toMatchObject({ retryClass: "transient", reason: "server_error", httpStatus: 500 });
    expect(error.partialText).toBe(deltas.join(""));
    expect(YANDEX_SEARCH_ANSWER.content.startsWith(error.partialText!)).toBe(true);
    expect(error.partialText).not.toBe("");
  });

  it("an INVALID_ARGUMENT element inside a 200 is permanent", async () => {
    expect(await providerFailure(YANDEX_SEARCH_SCENARIOS["error-200-invalid"]!)).toMatchObject({ retryClass: "permanent", reason: "invalid_request" });
  });

  it("an HTML page with status 200 is transient (unparseable_response)", async () => {
    expect(await providerFailure(YANDEX_SEARCH_SCENARIOS.html!)).toMatchObject({ retryClass: "transient", reason: "unparseable_response" });
  });

  it("an empty 200 is transient (empty_answer)", async () => {
    expect(await providerFailure(YANDEX_SEARCH_SCENARIOS.empty!)).toMatchObject({ retryClass: "transient", reason: "empty_answer" });
  });
});

describe("broken connections", () => {
  it("a reset after a partial response is unknown and keeps the partial text", async () => {
    const deltas: string[] = [];
    const error = await providerFailure({ kind: "reset", afterEvents: 2 }, { onText: (d) => deltas.push(d) });
    expect(error).toMatchObject({ retryClass: "unknown" });
    expect(error.partialText).toBe(deltas.join(""));
    expect(error.partialText).not.toBe("");
  });

  it("a refused connection is transient (connection_failed)", async () => {
    const closedUrl = await refusedUrl();
    const refused = createYandexSearchAdapter(() => ({ apiKey: "AQVN-test", folderId: "b1g-test", baseURL: closedUrl }));
    expect(await failure(refused.call(request()))).toMatchObject({ retryClass: "transient", reason: "connection_failed" });
  });
});

describe("our own abort", () => {
  it("cancelling a call that hangs rejects, though the server never answers, and closes the connection", async () => {
    server.enqueue({ kind: "hang" });
    const { error } = await abortOnceReceived(() => server.requests, (signal) => adapter.call(request({ signal })));
    expect(error).toBeInstanceOf(CallAbortedError);
    expect(error).toMatchObject({ abortReason: "cancelled", partialText: "" });
    await expectClosedByClient(server);
  });

  it("cancelling while partial results stream keeps the partial text and closes the connection", async () => {
    server.enqueue({ kind: "stall", afterEvents: 2 });
    const { error, deltas } = await abortAtFirstText((options) => adapter.call(request(options)), "shutdown");
    expect(error).toBeInstanceOf(CallAbortedError);
    expect(error).toMatchObject({ abortReason: "shutdown" });
    expect((error as CallAbortedError).partialText).toBe(deltas.join(""));
    expect(deltas.join("")).not.toBe("");
    await expectClosedByClient(server);
  });
});

describe("configuration", () => {
  it("is not configured without the key or the folder, and then sends nothing", async () => {
    const before = server.requests.length;
    for (const connection of [{ folderId: "b1g-test" }, { apiKey: "AQVN-test" }]) {
      const unconfigured = createYandexSearchAdapter(() => ({ ...connection, baseURL: server.url }));
      expect(unconfigured.configured()).toBe(false);
      expect(await failure(unconfigured.call(request()))).toMatchObject({ retryClass: "permanent", reason: "not_configured" });
    }
    expect(server.requests.length).toBe(before);
  });

  it("the registered adapter reads YANDEX_API_KEY, YANDEX_FOLDER_ID and YANDEX_SEARCH_BASE_URL", async () => {
    const registered = adapterFor("yandex_search")!;
    expect(registered.configured()).toBe(true);
    const response = await registered.call(request());
    expect(response.text).toBe(YANDEX_SEARCH_ANSWER.content);
    const sent = server.requests.at(-1)!;
    expect(sent.headers.authorization).toBe("Api-Key AQVN-registered");
    expect(sent.body).toMatchObject({ folderId: "b1g-registered" });
  });
});
