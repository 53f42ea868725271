// The YandexGPT / Alice AI adapter against a local server speaking AI Studio's OpenAI-compatible
// chat completions (POST /v1/chat/completions), with the real openai SDK and real HTTP in between:
// what it sends and extracts, and how each way the provider can fail maps to a retry class.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CallAbortedError, ProviderError } from "@/lib/providers/errors";
import { adapterFor } from "@/lib/providers/registry";
import type { ProviderRequest } from "@/lib/providers/types";
import { createYandexGptAdapter, yandexModelUri } from "@/lib/providers/yandexgpt";
import { type FakeServer } from "@/tests/support/fake-providers/openai-server";
import { YANDEXGPT_ANSWER, YANDEXGPT_SCENARIOS, startFakeYandexGpt, type YandexGptScenario } from "@/tests/support/fake-providers/yandex-server";
import { abortAtFirstText, abortOnceReceived, expectClosedByClient, failure, providerError, requestBuilder } from "@/tests/support/provider-calls";

let server: FakeServer<YandexGptScenario>;
let adapter: ReturnType<typeof createYandexGptAdapter>;

beforeAll(async () => {
  server = await startFakeYandexGpt();
  process.env.YANDEX_API_KEY = "AQVN-registered";
  process.env.YANDEX_FOLDER_ID = "b1g-registered";
  process.env.YANDEX_LLM_BASE_URL = server.url;
  adapter = createYandexGptAdapter(() => ({ apiKey: "AQVN-test", folderId: "b1g-test", baseURL: server.url }));
});

afterAll(async () => {
  await server.close();
});

const request = requestBuilder({
  prompt: "Какая CRM лучше для стартапа из 10 человек?",
  model: "yandexgpt",
  searchMode: "on",
  limits: { maxOutputTokens: 1500, maxSearchCalls: 3 },
});

async function providerFailure(scenario: YandexGptScenario, overrides: Partial<ProviderRequest> = {}): Promise<ProviderError> {
  server.enqueue(scenario);
  return providerError(adapter.call(request(overrides)));
}

describe("a streamed answer", () => {
  it("yields the text, usage and request id; no sources and no search (the models do not search)", async () => {
    const deltas: string[] = [];
    const before = server.requests.length;
    const response = await adapter.call(request({ country: "RU", onText: (d) => deltas.push(d) }));

    expect(server.requests.length).toBe(before + 1);
    const sent = server.requests.at(-1)!;
    expect(sent.path).toBe("/v1/chat/completions");
    expect(sent.headers.authorization).toBe("Api-Key AQVN-test");
    expect(sent.headers["openai-project"]).toBe("b1g-test");
    expect(sent.headers).not.toHaveProperty("openai-organization");
    expect(sent.body).toEqual({
      model: "gpt://b1g-test/yandexgpt/latest",
      messages: [{ role: "user", content: "Какая CRM лучше для стартапа из 10 человек?" }],
      stream: true,
      max_tokens: 1500,
    });

    expect(response.text).toBe(YANDEXGPT_ANSWER.content);
    expect(deltas.length).toBeGreaterThan(3);
    expect(deltas.join("")).toBe(response.text);
    expect(response.sources).toEqual([]);
    expect(response.searchQueries).toEqual([]);
    expect(response.usage).toEqual({ inputTokens: 21, outputTokens: 58, reasoningTokens: 0, cachedTokens: 0, searchCalls: 0 });
    expect(response.requestId).toBe(sent.id);
  });

  it("builds the model URI from the folder: a name gets /latest, a branch is kept, a full URI is sent as is", async () => {
    expect(yandexModelUri("yandexgpt-lite", "b1g")).toBe("gpt://b1g/yandexgpt-lite/latest");
    expect(yandexModelUri("aliceai-llm", "b1g")).toBe("gpt://b1g/aliceai-llm/latest");
    expect(yandexModelUri("yandexgpt/rc", "b1g")).toBe("gpt://b1g/yandexgpt/rc");
    expect(yandexModelUri("gpt://other/yandexgpt/deprecated", "b1g")).toBe("gpt://other/yandexgpt/deprecated");
    await adapter.call(request({ model: "aliceai-llm" }));
    expect(server.requests.at(-1)!.body).toMatchObject({ model: "gpt://b1g-test/aliceai-llm/latest" });
  });
});

describe("HTTP errors with gRPC bodies", () => {
  it("429 is transient and carries Retry-After", async () => {
    const error = await providerFailure(YANDEXGPT_SCENARIOS["rate-limited"]!);
    expect(error).toMatchObject({ retryClass: "transient", reason: "rate_limited", httpStatus: 429, retryAfterMs: 2000 });
  });

  it.each(["server-error", "unavailable"])("%s (5xx) is transient, after exactly one request", async (name) => {
    const before = server.requests.length;
    const error = await providerFailure(YANDEXGPT_SCENARIOS[name]!);
    expect(error).toMatchObject({ retryClass: "transient", reason: "server_error" });
    expect(error.httpStatus).toBeGreaterThanOrEqual(500);
    expect(server.requests.length).toBe(before + 1); // SDK retries are off
  });

  it.each([
    ["bad-request", 400, "invalid_request"],
    ["not-found", 404, "invalid_request"],
    ["unauthorized", 401, "auth_failed"],
    ["forbidden", 403, "auth_failed"],
  ])("%s is permanent (%i, %s)", async (name, status, reason) => {
    const error = await providerFailure(YANDEXGPT_SCENARIOS[name]!);
    expect(error).toMatchObject({ retryClass: "permanent", reason, httpStatus: status });
  });

  it("a scenario can be chosen by model name (for worker processes)", async () => {
    const error = await failure(adapter.call(request({ model: "fake:rate-limited" })));
    expect(error).toMatchObject({ retryClass: "transient", httpStatus: 429, retryAfterMs: 2000 });
  });
});

describe("failures inside a 200", () => {
  it("an error chunk mid-stream is classified by its gRPC code and keeps the partial text", async () => {
    const error = await providerFailure(YANDEXGPT_SCENARIOS["error-chunk"]!);
    expect(error).toMatchObject({ retryClass: "transient", reason: "rate_limited", httpStatus: 429 });
    expect(error.message).toContain("Too many tokens in flight");
    expect(error.partialText).not.toBe("");
    expect(YANDEXGPT_ANSWER.content.startsWith(error.partialText!)).toBe(true);
  });

  it("a JSON error body with status 200 is classified by its codes (INVALID_ARGUMENT: permanent)", async () => {
    const error = await providerFailure(YANDEXGPT_SCENARIOS["error-json-200"]!);
    expect(error).toMatchObject({ retryClass: "permanent", reason: "invalid_request", requestId: server.requests.at(-1)!.id });
  });

  it("an HTML page with status 200 is transient (unparseable_response)", async () => {
    expect(await providerFailure(YANDEXGPT_SCENARIOS.html!)).toMatchObject({ retryClass: "transient", reason: "unparseable_response" });
  });
});

describe("broken connections", () => {
  it("a reset mid-stream is unknown (stream_interrupted) and keeps the partial text", async () => {
    const deltas: string[] = [];
    const error = await providerFailure({ kind: "reset", afterEvents: 3 }, { onText: (d) => deltas.push(d) });
    expect(error).toMatchObject({ retryClass: "unknown", reason: "stream_interrupted" });
    expect(error.partialText).toBe(deltas.join(""));
    expect(error.partialText).not.toBe("");
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

  it("cancelling mid-stream keeps the partial text and closes the connection", async () => {
    server.enqueue({ kind: "stall", afterEvents: 3 });
    const { error, deltas } = await abortAtFirstText((options) => adapter.call(request(options)));
    expect(error).toBeInstanceOf(CallAbortedError);
    expect((error as CallAbortedError).partialText).toBe(deltas.join(""));
    expect(deltas.join("")).not.toBe("");
    await expectClosedByClient(server);
  });
});

describe("configuration", () => {
  it("is not configured without the key or the folder, and then sends nothing", async () => {
    const before = server.requests.length;
    for (const connection of [{ folderId: "b1g-test" }, { apiKey: "AQVN-test" }]) {
      const unconfigured = createYandexGptAdapter(() => ({ ...connection, baseURL: server.url }));
      expect(unconfigured.configured()).toBe(false);
      expect(await failure(unconfigured.call(request()))).toMatchObject({ retryClass: "permanent", reason: "not_configured" });
    }
    expect(server.requests.length).toBe(before);
  });

  it("the registered adapter reads YANDEX_API_KEY, YANDEX_FOLDER_ID and YANDEX_LLM_BASE_URL", async () => {
    const registered = adapterFor("yandexgpt")!;
    expect(registered.configured()).toBe(true);
    const response = await registered.call(request());
    expect(response.text).toBe(YANDEXGPT_ANSWER.content);
    const sent = server.requests.at(-1)!;
    expect(sent.headers.authorization).toBe("Api-Key AQVN-registered");
    expect(sent.body).toMatchObject({ model: "gpt://b1g-registered/yandexgpt/latest" });
  });
});
