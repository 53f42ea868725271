// The OpenAI-compatible adapter against a local server speaking chat completions as DeepSeek,
// xAI, vLLM and Ollama do, with the real openai SDK and real HTTP in between: what it extracts
// (never the reasoning), what a connection's settings decide (base URL, key variable, no key at
// all), and how each way a server can fail maps to a retry class (DESIGN.md "Retries by error
// class", "Cancellation").
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createConnection, listConnections, testConnection } from "@/lib/connections/connections";
import { db } from "@/lib/db/prisma";
import { CallAbortedError, ProviderError } from "@/lib/providers/errors";
import { openAICompatibleAdapter as adapter } from "@/lib/providers/openai-compatible";
import { adapterFor, connectionInputSchema, isConfigured, notConfiguredReason } from "@/lib/providers/registry";
import type { ProviderRequest } from "@/lib/providers/types";
import { type FakeServer } from "@/tests/support/fake-providers/openai-server";
import {
  COMPATIBLE_ANNOTATED_ANSWER,
  COMPATIBLE_ANSWER,
  COMPATIBLE_CITED_ANSWER,
  COMPATIBLE_REASONING_ANSWER,
  OLLAMA_STREAM_ERROR,
  VLLM_BAD_REQUEST_CHUNK,
  VLLM_STREAM_ERROR,
  startFakeOpenAICompatible,
  type CompatibleScenario,
} from "@/tests/support/fake-providers/openai-compatible-server";
import { abortAtFirstText, abortOnceReceived, expectClosedByClient, failure, providerError, refusedUrl, requestBuilder } from "@/tests/support/provider-calls";

const KEY_ENV = "OPENAI_COMPATIBLE_TEST_KEY";
let server: FakeServer<CompatibleScenario>;
let settings: Record<string, unknown>;

beforeAll(async () => {
  server = await startFakeOpenAICompatible();
  process.env[KEY_ENV] = "sk-compatible-test";
  // Must never reach a compatible server, with or without a key of its own.
  process.env.OPENAI_API_KEY = "sk-openai-must-not-leak";
  process.env.OPENAI_ORG_ID = "org-must-not-leak";
  settings = { baseURL: server.url, apiKeyEnv: KEY_ENV };
});

afterAll(async () => {
  await server.close();
  delete process.env[KEY_ENV];
});

const baseRequest = requestBuilder({
  prompt: "What is the best CRM for a 10-person startup?",
  model: "deepseek-chat",
  searchMode: "auto",
  limits: { maxOutputTokens: 1024, maxSearchCalls: 3 },
});

function request(overrides: Partial<ProviderRequest> = {}): ProviderRequest {
  return baseRequest({ settings, ...overrides });
}

async function providerFailure(scenario: CompatibleScenario, overrides: Partial<ProviderRequest> = {}): Promise<ProviderError> {
  server.enqueue(scenario);
  return providerError(adapter.call(request(overrides)));
}

describe("a streamed answer", () => {
  it("yields the text, usage and the request id; sends max_tokens, include_usage and the key of the named variable", async () => {
    const deltas: string[] = [];
    const before = server.requests.length;
    const response = await adapter.call(request({ searchMode: "on", onText: (d) => deltas.push(d) }));

    expect(server.requests.length).toBe(before + 1);
    const sent = server.requests.at(-1)!;
    expect(sent.path).toBe("/v1/chat/completions");
    expect(sent.headers.authorization).toBe("Bearer sk-compatible-test");
    expect(sent.headers).not.toHaveProperty("openai-organization");
    expect(sent.body).toEqual({
      model: "deepseek-chat",
      messages: [{ role: "user", content: "What is the best CRM for a 10-person startup?" }],
      stream: true,
      max_tokens: 1024,
      stream_options: { include_usage: true },
    });

    expect(response.text).toBe(COMPATIBLE_ANSWER.content);
    expect(deltas.length).toBeGreaterThan(3);
    expect(deltas.join("")).toBe(response.text);
    // searchMode "on" cannot be honoured: nothing asks for a search, and no source is invented.
    expect(response.sources).toEqual([]);
    expect(response.searchQueries).toEqual([]);
    expect(response.usage).toEqual({ inputTokens: 18, outputTokens: 64, reasoningTokens: 0, cachedTokens: 0, searchCalls: 0 });
    expect(response.requestId).toBe(sent.id);
  });

  it("keeps reasoning_content out of the text and the deltas, and counts reasoning tokens apart", async () => {
    server.enqueue({ kind: "answer", answer: COMPATIBLE_REASONING_ANSWER });
    const deltas: string[] = [];
    const response = await adapter.call(request({ model: "deepseek-reasoner", onText: (d) => deltas.push(d) }));
    expect(response.text).toBe(COMPATIBLE_ANSWER.content);
    expect(response.text).not.toContain("Zoho");
    expect(deltas.join("")).toBe(response.text);
    // completion_tokens (364) includes the 300 reasoning tokens: each is charged once.
    expect(response.usage).toEqual({ inputTokens: 18, outputTokens: 64, reasoningTokens: 300, cachedTokens: 12, searchCalls: 0 });
  });

  it("records 0 tokens when the server sends no usage (it ignores stream_options)", async () => {
    server.enqueue({ kind: "answer", usage: "never" });
    const response = await adapter.call(request());
    expect(response.text).toBe(COMPATIBLE_ANSWER.content);
    expect(response.usage).toEqual({ inputTokens: 0, outputTokens: 0, reasoningTokens: 0, cachedTokens: 0, searchCalls: 0 });
  });

  it("keeps the sources a server reports: citations[] (cited when marked in the text, else retrieved)", async () => {
    server.enqueue({ kind: "answer", answer: COMPATIBLE_CITED_ANSWER });
    const response = await adapter.call(request({ model: "grok-4" }));
    expect(response.text).toBe(COMPATIBLE_CITED_ANSWER.content);
    expect(response.sources).toEqual([
      { url: "https://www.hubspot.com/products/crm", citedInText: true },
      { url: "https://www.g2.com/categories/crm", citedInText: false },
    ]);
  });

  it("keeps url_citation annotations as cited sources", async () => {
    server.enqueue({ kind: "answer", answer: COMPATIBLE_ANNOTATED_ANSWER });
    const response = await adapter.call(request());
    expect(response.sources).toEqual([{ url: "https://www.pipedrive.com/en/pricing", title: "Pipedrive pricing", citedInText: true }]);
  });

  it("accepts a cut-off answer (finish_reason length) with its usage", async () => {
    const content = "For a 10-person startup, **HubSpot CRM** is";
    server.enqueue({ kind: "answer", answer: { ...COMPATIBLE_ANSWER, content, finish_reason: "length", usage: { prompt_tokens: 18, completion_tokens: 10 } } });
    const response = await adapter.call(request({ limits: { maxOutputTokens: 10, maxSearchCalls: 0 } }));
    expect(server.requests.at(-1)!.body).toMatchObject({ max_tokens: 10 });
    expect(response.text).toBe(content);
    expect(response.usage).toMatchObject({ inputTokens: 18, outputTokens: 10 });
  });

  it("an answer that is all reasoning is an empty answer (transient)", async () => {
    const error = await providerFailure({ kind: "answer", answer: { ...COMPATIBLE_REASONING_ANSWER, content: "" } });
    expect(error).toMatchObject({ retryClass: "transient", reason: "empty_answer" });
  });

  it("reads a whole JSON completion sent instead of a stream", async () => {
    server.enqueue({ kind: "json", answer: COMPATIBLE_REASONING_ANSWER });
    const response = await adapter.call(request());
    expect(response.text).toBe(COMPATIBLE_ANSWER.content);
    expect(response.usage).toMatchObject({ inputTokens: 18, outputTokens: 364 });
    expect(response.requestId).toBe(server.requests.at(-1)!.id);
  });
});

describe("HTTP errors", () => {
  it("429 is transient and carries Retry-After", async () => {
    const error = await providerFailure({ kind: "status", status: 429, headers: { "retry-after": "7" } });
    expect(error).toMatchObject({ retryClass: "transient", reason: "rate_limited", httpStatus: 429, retryAfterMs: 7000 });
  });

  it.each([500, 502, 503])("%i is transient, after exactly one request", async (status) => {
    const before = server.requests.length;
    const error = await providerFailure({ kind: "status", status });
    expect(error).toMatchObject({ retryClass: "transient", reason: "server_error", httpStatus: status });
    expect(server.requests.length).toBe(before + 1); // SDK retries are off
  });

  it.each([
    [400, "invalid_request"],
    [401, "auth_failed"],
    [403, "auth_failed"],
    [404, "invalid_request"],
    [422, "invalid_request"],
  ])("%i is permanent (%s)", async (status, reason) => {
    const error = await providerFailure({ kind: "status", status });
    expect(error).toMatchObject({ retryClass: "permanent", reason, httpStatus: status });
  });

  it("a scenario can be chosen by model name (for worker processes)", async () => {
    const error = await failure(adapter.call(request({ model: "fake:rate-limited" })));
    expect(error).toMatchObject({ retryClass: "transient", httpStatus: 429, retryAfterMs: 7000 });
  });

  it("a refused connection (a local Ollama that is down) is transient (connection_failed)", async () => {
    const closedUrl = await refusedUrl();
    const error = await failure(adapter.call(request({ settings: { baseURL: `${closedUrl}/v1` } })));
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ retryClass: "transient", reason: "connection_failed" });
  });
});

describe("errors inside a 200", () => {
  it("vLLM's error chunk mid-stream (code 500) is transient and keeps the partial text", async () => {
    const deltas: string[] = [];
    const error = await providerFailure({ kind: "error-chunk", afterChunks: 3, error: VLLM_STREAM_ERROR }, { onText: (d) => deltas.push(d) });
    expect(error).toMatchObject({ retryClass: "transient", reason: "provider_failed", requestId: server.requests.at(-1)!.id });
    expect(error.message).toContain("The engine failed while generating");
    expect(error.partialText).toBe(deltas.join(""));
    expect(error.partialText).not.toBe("");
  });

  it("an error as the first chunk with a 4xx code (vLLM: context too long) is permanent", async () => {
    const error = await providerFailure({ kind: "error-chunk", afterChunks: 0, error: VLLM_BAD_REQUEST_CHUNK });
    expect(error).toMatchObject({ retryClass: "permanent", reason: "invalid_request", partialText: "" });
    expect(error.message).toContain("maximum context length");
  });

  it("Ollama's error chunk (no code, type api_error) is transient", async () => {
    const error = await providerFailure({ kind: "error-chunk", afterChunks: 0, error: OLLAMA_STREAM_ERROR });
    expect(error).toMatchObject({ retryClass: "transient", reason: "provider_failed" });
    expect(error.message).toContain("llama runner process has terminated");
  });

  it("a garbage event stream is transient (unparseable_response)", async () => {
    const error = await providerFailure({ kind: "raw", contentType: "text/event-stream", body: "data: <html>upstream connect error</html>\n\n" });
    expect(error).toMatchObject({ retryClass: "transient", reason: "unparseable_response" });
  });

  it("an HTML page with status 200 is transient (unparseable_response)", async () => {
    const error = await providerFailure({ kind: "raw", contentType: "text/html", body: "<html><body>Bad gateway</body></html>" });
    expect(error).toMatchObject({ retryClass: "transient", reason: "unparseable_response" });
  });

  it("an empty 200 is transient (empty_answer)", async () => {
    expect(await providerFailure({ kind: "raw", contentType: "text/event-stream", body: "" })).toMatchObject({ retryClass: "transient", reason: "empty_answer" });
  });

  it("a reset mid-stream is unknown (stream_interrupted) and keeps the partial text", async () => {
    const deltas: string[] = [];
    const error = await providerFailure({ kind: "reset", afterEvents: 3 }, { onText: (d) => deltas.push(d) });
    expect(error).toMatchObject({ retryClass: "unknown", reason: "stream_interrupted" });
    expect(error.partialText).toBeTruthy();
    expect(error.partialText).toBe(deltas.join(""));
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

  it("cancelling mid-stream keeps the partial text and closes the stream (what stops vLLM and Ollama)", async () => {
    server.enqueue({ kind: "stall", afterEvents: 3 });
    const { error, deltas } = await abortAtFirstText((options) => adapter.call(request(options)));
    expect(error).toBeInstanceOf(CallAbortedError);
    expect((error as CallAbortedError).partialText).toBe(deltas.join(""));
    expect(deltas.join("")).not.toBe("");
    await expectClosedByClient(server);
  });
});

describe("the connection's settings", () => {
  it("without a key variable, sends no Authorization header at all (a local vLLM or Ollama)", async () => {
    const response = await adapter.call(request({ settings: { baseURL: server.url } }));
    expect(response.text).toBe(COMPATIBLE_ANSWER.content);
    const sent = server.requests.at(-1)!;
    expect(sent.headers).not.toHaveProperty("authorization");
    expect(JSON.stringify(sent.headers)).not.toContain("must-not-leak");
  });

  it("a key variable that is unset makes the connection not configured, with the variable's name, and nothing is sent", async () => {
    const unset = { baseURL: server.url, apiKeyEnv: "OPENAI_COMPATIBLE_NOT_SET_KEY" };
    expect(adapter.configured(unset)).toBe(false);
    expect(isConfigured("openai_compatible", unset)).toBe(false);
    expect(notConfiguredReason("openai_compatible", unset)).toBe("OPENAI_COMPATIBLE_NOT_SET_KEY is not set in this server's environment");
    const before = server.requests.length;
    const error = await failure(adapter.call(request({ settings: unset })));
    expect(error).toMatchObject({ retryClass: "permanent", reason: "not_configured" });
    expect((error as Error).message).toContain("OPENAI_COMPATIBLE_NOT_SET_KEY");
    expect(server.requests.length).toBe(before);
  });

  it("a key variable outside OPENAI_COMPATIBLE_* is never read, even when it is set", async () => {
    const sneaky = { baseURL: server.url, apiKeyEnv: "OPENAI_API_KEY" };
    expect(isConfigured("openai_compatible", sneaky)).toBe(false);
    const before = server.requests.length;
    expect(await failure(adapter.call(request({ settings: sneaky })))).toMatchObject({ reason: "not_configured" });
    expect(server.requests.length).toBe(before);
  });

  it("no base URL: not configured, with a reason that says where to set it", () => {
    expect(isConfigured("openai_compatible", {})).toBe(false);
    expect(notConfiguredReason("openai_compatible", undefined)).toMatch(/base URL.*Instance/);
    expect(isConfigured("openai_compatible", settings)).toBe(true);
    expect(notConfiguredReason("openai_compatible", settings)).toBeUndefined();
    // The other adapters do not depend on settings.
    expect(notConfiguredReason("simulator", {})).toBeUndefined();
  });

  it("the registry serves this adapter", () => {
    expect(adapterFor("openai_compatible")).toBe(adapter);
  });
});

describe("connection input", () => {
  const base = {
    name: "DeepSeek",
    adapter: "openai_compatible" as const,
    models: ["deepseek-chat"],
    enabled: true,
    grantedToAll: false,
    inputPricePerMTokMicros: 280_000,
    outputPricePerMTokMicros: 420_000,
    cachedPricePerMTokMicros: 28_000,
    reasoningPricePerMTokMicros: 420_000,
    searchPriceMicros: 0,
    maxConcurrency: 4,
    maxAttempts: 3,
    unknownRetries: 1,
    timeoutMs: 120_000,
    maxOutputTokens: 2048,
    maxSearchCalls: 0,
    breakerWindowSize: 20,
    breakerMinCalls: 10,
    breakerFailureRatePct: 50,
    breakerOpenSeconds: 45,
    breakerSlowCallMs: 60_000,
    breakerSlowCallIsFailure: false,
    breakerProbeTimeoutMs: 15_000,
  };
  const issues = (input: unknown) => {
    const parsed = connectionInputSchema.safeParse(input);
    return parsed.success ? {} : Object.fromEntries(parsed.error.issues.map((i) => [i.path.join("."), i.message]));
  };

  it("an operator's connection keeps its server and key variable in settings, and shows why it is not configured until the variable is set", async () => {
    const name = `DeepSeek ${randomUUID().slice(0, 8)}`;
    const keyEnv = `OPENAI_COMPATIBLE_${randomUUID().slice(0, 8).toUpperCase()}_KEY`;
    const input = connectionInputSchema.parse({ ...base, name, openaiCompatible: { baseURL: server.url, apiKeyEnv: keyEnv } });
    const { id } = (await createConnection(input))!;
    expect((await db().providerConnection.findUniqueOrThrow({ where: { id } })).settings).toEqual({ baseURL: server.url, apiKeyEnv: keyEnv });

    const row = async () => (await listConnections()).find((c) => c.id === id)!;
    expect(await row()).toMatchObject({ adapter: "openai_compatible", configured: false, notConfiguredReason: `${keyEnv} is not set in this server's environment` });
    expect(await testConnection(id, "deepseek-chat", "Best CRM?")).toMatchObject({ ok: false, error: { reason: "not_configured" } });

    process.env[keyEnv] = "sk-operator";
    try {
      expect(await row()).toMatchObject({ configured: true, notConfiguredReason: null });
      const result = await testConnection(id, "deepseek-chat", "Best CRM?");
      expect(result).toMatchObject({ ok: true, text: COMPATIBLE_ANSWER.content });
      expect(server.requests.at(-1)!.headers.authorization).toBe("Bearer sk-operator");
    } finally {
      delete process.env[keyEnv];
    }
  });

  it("accepts a base URL and a key variable, trimmed", () => {
    const parsed = connectionInputSchema.parse({ ...base, openaiCompatible: { baseURL: " https://api.deepseek.com ", apiKeyEnv: "OPENAI_COMPATIBLE_DEEPSEEK_KEY" } });
    expect(parsed.openaiCompatible).toEqual({ baseURL: "https://api.deepseek.com", apiKeyEnv: "OPENAI_COMPATIBLE_DEEPSEEK_KEY" });
  });

  it("requires a base URL for this adapter", () => {
    expect(issues(base)).toEqual({ "openaiCompatible.baseURL": "Enter the server's base URL" });
  });

  it.each([
    ["ftp://models.local/v1", "Use an http:// or https:// URL"],
    ["localhost:11434", "Use an http:// or https:// URL"],
    ["api.deepseek.com", "Enter a full URL, e.g. https://api.deepseek.com or http://localhost:11434/v1"],
    ["https://user:sk-secret@api.deepseek.com", "Put the key in the environment (key variable), not in the URL"],
  ])("refuses the base URL %s", (baseURL, message) => {
    expect(issues({ ...base, openaiCompatible: { baseURL } })).toEqual({ "openaiCompatible.baseURL": message });
  });

  it.each(["DATABASE_URL", "BEACON_AUTH_SECRET", "OPENAI_API_KEY", "openai_compatible_key", "OPENAI_COMPATIBLE_"])("refuses the key variable %s", (apiKeyEnv) => {
    expect(Object.keys(issues({ ...base, openaiCompatible: { baseURL: "http://localhost:11434/v1", apiKeyEnv } }))).toEqual(["openaiCompatible.apiKeyEnv"]);
  });
});
