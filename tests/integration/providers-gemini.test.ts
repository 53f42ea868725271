// The Gemini adapter against a local server speaking the Gemini API wire format, with the real
// @google/genai SDK and real HTTP in between: what it extracts, and how each way a provider can
// fail maps to a retry class (DESIGN.md "Retries by error class", "Cancellation").
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CallAbortedError, ProviderError } from "@/lib/providers/errors";
import { createGeminiAdapter } from "@/lib/providers/gemini";
import { adapterFor } from "@/lib/providers/registry";
import type { ProviderRequest } from "@/lib/providers/types";
import { GEMINI_ANSWER, GEMINI_SCENARIOS, geminiAnswerChunks, startFakeGemini, type GeminiScenario } from "@/tests/support/fake-providers/gemini-server";
import { sse, type FakeServer } from "@/tests/support/fake-providers/openai-server";
import { abortOnceReceived, expectClosedByClient, failure, providerError, refusedUrl, requestBuilder } from "@/tests/support/provider-calls";

let server: FakeServer<GeminiScenario>;
let adapter: ReturnType<typeof createGeminiAdapter>;

beforeAll(async () => {
  server = await startFakeGemini();
  // Before anything reads env(): the registered adapter must see these.
  process.env.GEMINI_API_KEY = "gemini-registered";
  process.env.GOOGLE_GEMINI_BASE_URL = server.url;
  adapter = createGeminiAdapter(() => ({ apiKey: "gemini-test", baseUrl: server.url }));
});

afterAll(async () => {
  await server.close();
});

const request = requestBuilder({
  prompt: "What is the best CRM for a 10-person startup?",
  model: "gemini-2.5-flash",
  searchMode: "auto",
  limits: { maxOutputTokens: 4096, maxSearchCalls: 5 },
});

async function providerFailure(scenario: GeminiScenario, overrides: Partial<ProviderRequest> = {}): Promise<ProviderError> {
  server.enqueue(scenario);
  return providerError(adapter.call(request(overrides)));
}

const scenario = (name: string) => GEMINI_SCENARIOS[name]!;

describe("a streamed, grounded answer", () => {
  it("yields the text, cited and retrieved sources, the searches, usage and the response id", async () => {
    const deltas: string[] = [];
    const before = server.requests.length;
    const response = await adapter.call(request({ searchMode: "on", onText: (d) => deltas.push(d) }));

    expect(server.requests.length).toBe(before + 1);
    const sent = server.requests.at(-1)!;
    expect(sent.path).toBe("/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse");
    expect(sent.headers["x-goog-api-key"]).toBe("gemini-test");
    expect(sent.body).toMatchObject({
      contents: [{ role: "user", parts: [{ text: "What is the best CRM for a 10-person startup?" }] }],
      tools: [{ googleSearch: {} }],
      generationConfig: { maxOutputTokens: 4096 },
    });

    expect(response.text).toBe(GEMINI_ANSWER.text);
    expect(deltas.length).toBeGreaterThan(3);
    expect(deltas.join("")).toBe(response.text);
    // The redirect links stay the URLs; the titles carry the domains.
    expect(response.sources).toEqual([
      { url: GEMINI_ANSWER.chunks[0]!.uri, title: "hubspot.com", citedInText: true },
      { url: GEMINI_ANSWER.chunks[1]!.uri, title: "pipedrive.com", citedInText: true },
      { url: GEMINI_ANSWER.chunks[2]!.uri, title: "g2.com", citedInText: false },
    ]);
    expect(response.searchQueries).toEqual(GEMINI_ANSWER.queries);
    // Gemini 2.x bills grounding once per grounded prompt, however many queries it ran.
    expect(response.usage).toEqual({ inputTokens: 14, outputTokens: 96, reasoningTokens: 310, cachedTokens: 4, searchCalls: 1 });
    expect(response.requestId).toBe(sent.id);
  });

  it("counts every search query as a search call on Gemini 3", async () => {
    const response = await adapter.call(request({ model: "gemini-3-flash" }));
    expect(response.usage.searchCalls).toBe(GEMINI_ANSWER.queries.length);
  });

  it("sends no tools when search is off, and an ungrounded answer has no sources and no search calls", async () => {
    server.enqueue({ kind: "answer", answer: { ...GEMINI_ANSWER, chunks: [], supports: [], queries: [] } });
    const response = await adapter.call(request({ searchMode: "off" }));
    expect(server.requests.at(-1)!.body).not.toHaveProperty("tools");
    expect(response).toMatchObject({ sources: [], searchQueries: [], usage: { searchCalls: 0 } });
  });
});

describe("call limits", () => {
  it("sends generationConfig.maxOutputTokens, with search on or off", async () => {
    await adapter.call(request({ limits: { maxOutputTokens: 500, maxSearchCalls: 1 } }));
    expect(server.requests.at(-1)!.body).toMatchObject({ generationConfig: { maxOutputTokens: 500 }, tools: [{ googleSearch: {} }] });
    await adapter.call(request({ searchMode: "off", limits: { maxOutputTokens: 600, maxSearchCalls: 1 } }));
    expect(server.requests.at(-1)!.body).toMatchObject({ generationConfig: { maxOutputTokens: 600 } });
  });

  it.each(["on", "auto"] as const)("maxSearchCalls 0 sends no googleSearch tool in %s mode", async (searchMode) => {
    server.enqueue({ kind: "answer", answer: { ...GEMINI_ANSWER, chunks: [], supports: [], queries: [] } });
    const response = await adapter.call(request({ searchMode, limits: { maxOutputTokens: 500, maxSearchCalls: 0 } }));
    const sent = server.requests.at(-1)!.body;
    expect(sent).not.toHaveProperty("tools");
    expect(sent).toMatchObject({ generationConfig: { maxOutputTokens: 500 } });
    expect(response.usage.searchCalls).toBe(0);
  });

  const maxTokensChunks = (text: string) => [
    { candidates: [{ content: { parts: [{ text }], role: "model" }, index: 0 }], usageMetadata: { promptTokenCount: 14, totalTokenCount: 14 }, responseId: "cut-off" },
    {
      candidates: [{ content: { parts: [{ text: "" }], role: "model" }, finishReason: "MAX_TOKENS", index: 0 }],
      usageMetadata: { promptTokenCount: 14, candidatesTokenCount: text ? 12 : 0, thoughtsTokenCount: text ? 88 : 100, totalTokenCount: 114 },
      responseId: "cut-off",
    },
  ];

  it("an answer cut off at the limit (finishReason MAX_TOKENS) is accepted, with its usage", async () => {
    server.enqueue({ kind: "chunks", chunks: maxTokensChunks("For a 10-person startup, HubSpot CRM is") });
    const response = await adapter.call(request({ searchMode: "off", limits: { maxOutputTokens: 100, maxSearchCalls: 0 } }));
    expect(response.text).toBe("For a 10-person startup, HubSpot CRM is");
    expect(response.usage).toEqual({ inputTokens: 14, outputTokens: 12, reasoningTokens: 88, cachedTokens: 0, searchCalls: 0 });
    expect(response.requestId).toBe("cut-off");
  });

  it("a MAX_TOKENS stop spent entirely on thinking is an empty answer (transient)", async () => {
    const error = await providerFailure({ kind: "chunks", chunks: maxTokensChunks("") });
    expect(error).toMatchObject({ retryClass: "transient", reason: "empty_answer" });
  });
});

describe("HTTP errors", () => {
  it("429 is transient and carries the RetryInfo delay, after exactly one request", async () => {
    const before = server.requests.length;
    const error = await providerFailure(scenario("rate-limited"));
    expect(error).toMatchObject({ retryClass: "transient", reason: "rate_limited", httpStatus: 429, retryAfterMs: 38_000 });
    expect(server.requests.length).toBe(before + 1); // no SDK retries
  });

  it("429 without RetryInfo is transient with no delay (the SDK exposes no headers)", async () => {
    const error = await providerFailure(scenario("rate-limited-bare"));
    expect(error).toMatchObject({ retryClass: "transient", reason: "rate_limited", httpStatus: 429 });
    expect(error.retryAfterMs).toBeUndefined();
  });

  it.each([
    ["server-error", 500],
    ["bad-gateway", 502],
    ["unavailable", 503],
  ])("%s (%i) is transient, after exactly one request", async (name, status) => {
    const before = server.requests.length;
    const error = await providerFailure(scenario(name));
    expect(error).toMatchObject({ retryClass: "transient", reason: "server_error", httpStatus: status });
    expect(server.requests.length).toBe(before + 1);
  });

  it.each([
    ["bad-request", 400, "invalid_request"],
    ["bad-key", 400, "auth_failed"],
    ["unauthorized", 401, "auth_failed"],
    ["forbidden", 403, "auth_failed"],
  ])("%s (%i) is permanent (%s)", async (name, status, reason) => {
    const error = await providerFailure(scenario(name));
    expect(error).toMatchObject({ retryClass: "permanent", reason, httpStatus: status });
  });

  it("a scenario can be chosen by model name (for worker processes)", async () => {
    const error = await failure(adapter.call(request({ model: "fake:unavailable" })));
    expect(error).toMatchObject({ retryClass: "transient", httpStatus: 503 });
  });
});

describe("failures inside a 200", () => {
  it("an error object in the stream is classified by its code and keeps the partial text", async () => {
    const deltas: string[] = [];
    const error = await providerFailure(scenario("error-chunk"), { onText: (d) => deltas.push(d) });
    expect(error).toMatchObject({ retryClass: "transient", reason: "server_error", httpStatus: 503 });
    expect(error.partialText).toBeTruthy();
    expect(error.partialText).toBe(deltas.join(""));
  });

  it.each(["safety", "prompt-blocked"])("a blocked answer without text (%s) is permanent (content_policy)", async (name) => {
    const error = await providerFailure(scenario(name));
    expect(error).toMatchObject({ retryClass: "permanent", reason: "content_policy" });
  });

  it("a response without candidates is transient (empty_answer)", async () => {
    expect(await providerFailure(scenario("no-candidates"))).toMatchObject({ retryClass: "transient", reason: "empty_answer" });
  });

  // Nothing parseable arrived, so the provider never began answering (often a proxy's page): a
  // retry may succeed, and the breaker counts it as a failure. The same rule as the OpenAI adapter.
  it.each(["garbage", "html"])("a 200 that is not an event stream (%s) is transient (unparseable_response)", async (name) => {
    expect(await providerFailure(scenario(name))).toMatchObject({ retryClass: "transient", reason: "unparseable_response" });
  });

  it("garbage after real chunks is unknown: the work may have been done", async () => {
    const first = geminiAnswerChunks("garbled", "gemini-2.5-flash")[0]!;
    const error = await providerFailure({ kind: "raw", contentType: "text/event-stream", body: sse(first) + "data: {\"candidates\": [{\"content\"\n\n" });
    expect(error).toMatchObject({ retryClass: "unknown", reason: "unparseable_response" });
    expect(error.partialText).toBe((first.candidates as { content: { parts: { text: string }[] } }[])[0]!.content.parts[0]!.text);
  });

  it("an empty 200 is transient (empty_answer)", async () => {
    expect(await providerFailure(scenario("empty"))).toMatchObject({ retryClass: "transient", reason: "empty_answer" });
  });
});

describe("broken connections", () => {
  it("a reset mid-stream is unknown (stream_interrupted) and keeps the partial text", async () => {
    const deltas: string[] = [];
    const error = await providerFailure(scenario("reset"), { onText: (d) => deltas.push(d) });
    expect(error).toMatchObject({ retryClass: "unknown", reason: "stream_interrupted" });
    expect(error.partialText).toBeTruthy();
    expect(error.partialText).toBe(deltas.join(""));
    expect(GEMINI_ANSWER.text.startsWith(error.partialText!)).toBe(true);
  });

  it("a refused connection is transient (connection_failed)", async () => {
    const closedUrl = await refusedUrl();
    const refused = createGeminiAdapter(() => ({ apiKey: "gemini-test", baseUrl: closedUrl }));
    const error = await failure(refused.call(request()));
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ retryClass: "transient", reason: "connection_failed" });
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
    server.enqueue(scenario("stall"));
    const controller = new AbortController();
    const deltas: string[] = [];
    const onText = (d: string) => {
      deltas.push(d);
      if (deltas.length === 2) {
        controller.abort("cancelled");
      }
    };
    const error = await failure(adapter.call(request({ signal: controller.signal, onText })));
    expect(error).toBeInstanceOf(CallAbortedError);
    expect(error).toMatchObject({ abortReason: "cancelled", partialText: deltas.join("") });
    expect(deltas).toHaveLength(2);
    await expectClosedByClient(server);
  });

  it("a signal aborted before the call sends nothing", async () => {
    const before = server.requests.length;
    const error = await failure(adapter.call(request({ signal: AbortSignal.abort("shutdown") })));
    expect(error).toMatchObject({ abortReason: "shutdown" });
    expect(server.requests.length).toBe(before);
  });
});

describe("configuration", () => {
  it("is not configured without a key, and then sends nothing", async () => {
    const unconfigured = createGeminiAdapter(() => ({ apiKey: undefined, baseUrl: server.url }));
    expect(unconfigured.configured()).toBe(false);
    const before = server.requests.length;
    expect(await failure(unconfigured.call(request()))).toMatchObject({ retryClass: "permanent", reason: "not_configured" });
    expect(server.requests.length).toBe(before);
  });

  it("the registered adapter reads GEMINI_API_KEY and GOOGLE_GEMINI_BASE_URL", async () => {
    const registered = adapterFor("gemini")!;
    expect(registered.configured()).toBe(true);
    const response = await registered.call(request());
    expect(response.text).toBe(GEMINI_ANSWER.text);
    expect(server.requests.at(-1)!.headers["x-goog-api-key"]).toBe("gemini-registered");
  });
});
