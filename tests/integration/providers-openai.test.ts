// The OpenAI adapter against a local server speaking the Responses wire format, with the real
// openai SDK and real HTTP in between: what it extracts, and how each way a provider can fail
// maps to a retry class (DESIGN.md "Retries by error class", "Cancellation").
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CallAbortedError, ProviderError } from "@/lib/providers/errors";
import { createOpenAIAdapter } from "@/lib/providers/openai";
import { adapterFor } from "@/lib/providers/registry";
import type { ProviderRequest } from "@/lib/providers/types";
import { OPENAI_ANSWER, startFakeOpenAI, type FakeServer, type OpenAIScenario } from "@/tests/support/fake-providers/openai-server";
import { abortAtFirstText, abortOnceReceived, expectClosedByClient, failure, providerError, refusedUrl, requestBuilder } from "@/tests/support/provider-calls";

let server: FakeServer<OpenAIScenario>;
let adapter: ReturnType<typeof createOpenAIAdapter>;

beforeAll(async () => {
  server = await startFakeOpenAI();
  // Before anything reads env(): the registered adapter must see these.
  process.env.OPENAI_API_KEY = "sk-test-registered";
  process.env.OPENAI_BASE_URL = server.url;
  adapter = createOpenAIAdapter(() => ({ apiKey: "sk-test", baseURL: server.url }));
});

afterAll(async () => {
  await server.close();
});

const request = requestBuilder({
  prompt: "What is the best CRM for a 10-person startup?",
  model: "gpt-5-mini",
  searchMode: "auto",
  limits: { maxOutputTokens: 4096, maxSearchCalls: 5 },
});

async function providerFailure(scenario: OpenAIScenario, overrides: Partial<ProviderRequest> = {}): Promise<ProviderError> {
  server.enqueue(scenario);
  return providerError(adapter.call(request(overrides)));
}

describe("a streamed answer with web searches", () => {
  it("yields the text, cited and retrieved sources, the searches, usage and the request id", async () => {
    const deltas: string[] = [];
    const before = server.requests.length;
    const response = await adapter.call(request({ searchMode: "on", country: "de", city: "Munich", onText: (d) => deltas.push(d) }));

    expect(server.requests.length).toBe(before + 1);
    const sent = server.requests.at(-1)!;
    expect(sent.headers.authorization).toBe("Bearer sk-test");
    expect(sent.body).toMatchObject({
      model: "gpt-5-mini",
      input: "What is the best CRM for a 10-person startup?",
      stream: true,
      max_output_tokens: 4096,
      tools: [{ type: "web_search", user_location: { type: "approximate", country: "DE", city: "Munich" } }],
      tool_choice: "required",
      max_tool_calls: 5,
      include: ["web_search_call.action.sources"],
    });

    expect(response.text).toBe(OPENAI_ANSWER.text);
    expect(deltas.length).toBeGreaterThan(3);
    expect(deltas.join("")).toBe(response.text);
    expect(response.sources).toEqual([
      { url: "https://www.hubspot.com/products/crm?utm_source=openai", title: "Free CRM Software | HubSpot", citedInText: true },
      { url: "https://www.pipedrive.com/en/pricing?utm_source=openai", title: "Pipedrive pricing", citedInText: true },
      { url: "https://www.g2.com/categories/crm", citedInText: false },
      { url: "https://www.capterra.com/customer-relationship-management-software/", citedInText: false },
      { url: "https://www.zoho.com/crm/", citedInText: false },
    ]);
    expect(response.searchQueries).toEqual(["best CRM for small startups 2026", "HubSpot vs Pipedrive for 10 person team", "Pipedrive pricing"]);
    // output_tokens (512) includes the 192 reasoning tokens, which Usage keeps apart.
    expect(response.usage).toEqual({ inputTokens: 1840, cachedTokens: 256, outputTokens: 320, reasoningTokens: 192, searchCalls: 3 });
    expect(response.requestId).toBe(sent.id);
    expect(response.requestId).toMatch(/^resp_/);
  });

  it("offers the search tool without forcing it in auto mode, and none when search is off", async () => {
    await adapter.call(request({ searchMode: "auto", country: null }));
    expect(server.requests.at(-1)!.body).toMatchObject({ tools: [{ type: "web_search" }], tool_choice: "auto" });
    expect(server.requests.at(-1)!.body.tools).toEqual([{ type: "web_search" }]);

    await adapter.call(request({ searchMode: "off", country: "US" }));
    const off = server.requests.at(-1)!.body;
    expect(off).not.toHaveProperty("tools");
    expect(off).not.toHaveProperty("tool_choice");
    expect(off).not.toHaveProperty("include");
  });
});

describe("call limits", () => {
  it("sends max_output_tokens always, and max_tool_calls with the search tool", async () => {
    await adapter.call(request({ searchMode: "auto", limits: { maxOutputTokens: 700, maxSearchCalls: 2 } }));
    expect(server.requests.at(-1)!.body).toMatchObject({ max_output_tokens: 700, max_tool_calls: 2, tools: [{ type: "web_search" }] });

    await adapter.call(request({ searchMode: "off", limits: { maxOutputTokens: 300, maxSearchCalls: 2 } }));
    const off = server.requests.at(-1)!.body;
    expect(off).toMatchObject({ max_output_tokens: 300 });
    expect(off).not.toHaveProperty("max_tool_calls");
  });

  it.each(["on", "auto"] as const)("maxSearchCalls 0 sends no search tool in %s mode", async (searchMode) => {
    await adapter.call(request({ searchMode, country: "DE", limits: { maxOutputTokens: 700, maxSearchCalls: 0 } }));
    const sent = server.requests.at(-1)!.body;
    expect(sent).toMatchObject({ max_output_tokens: 700 });
    for (const field of ["tools", "tool_choice", "max_tool_calls", "include"]) expect(sent).not.toHaveProperty(field);
  });

  it("a max_output_tokens stop is accepted as the answer, with its usage", async () => {
    server.enqueue({ kind: "incomplete", reason: "max_output_tokens" });
    const deltas: string[] = [];
    const response = await adapter.call(request({ onText: (d) => deltas.push(d) }));
    expect(response.text).toBe("HubSpot CRM is the usual first pick");
    expect(deltas.join("")).toBe(response.text);
    expect(response.usage).toEqual({ inputTokens: 1840, cachedTokens: 256, outputTokens: 320, reasoningTokens: 192, searchCalls: 0 });
    expect(response.requestId).toBe(server.requests.at(-1)!.id);
  });

  it("a max_output_tokens stop before any text is an empty answer (transient)", async () => {
    const error = await providerFailure({ kind: "incomplete", reason: "max_output_tokens", text: "" });
    expect(error).toMatchObject({ retryClass: "transient", reason: "empty_answer" });
  });
});

describe("HTTP errors", () => {
  it("429 is transient and carries Retry-After and the request id", async () => {
    const error = await providerFailure({ kind: "status", status: 429, headers: { "retry-after": "7" }, body: { error: { message: "Rate limit reached", type: "requests", code: "rate_limit_exceeded" } } });
    expect(error).toMatchObject({ retryClass: "transient", reason: "rate_limited", httpStatus: 429, retryAfterMs: 7000 });
    expect(error.requestId).toBe(server.requests.at(-1)!.id);
  });

  it.each([500, 502, 503])("%i is transient with its status, after exactly one request", async (status) => {
    const before = server.requests.length;
    const error = await providerFailure({ kind: "status", status, body: status === 502 ? "<html>502 Bad Gateway</html>" : undefined });
    expect(error).toMatchObject({ retryClass: "transient", reason: "server_error", httpStatus: status });
    expect(server.requests.length).toBe(before + 1); // SDK retries are off
  });

  it.each([
    [400, "invalid_request"],
    [401, "auth_failed"],
  ])("%i is permanent (%s)", async (status, reason) => {
    const error = await providerFailure({ kind: "status", status });
    expect(error).toMatchObject({ retryClass: "permanent", reason, httpStatus: status });
  });

  it("429 for an exhausted quota is permanent: no retry can succeed", async () => {
    const error = await providerFailure({ kind: "status", status: 429, body: { error: { message: "You exceeded your current quota", type: "insufficient_quota", code: "insufficient_quota" } } });
    expect(error).toMatchObject({ retryClass: "permanent", reason: "quota_exceeded", httpStatus: 429 });
  });

  it("a scenario can be chosen by model name (for worker processes)", async () => {
    const error = await failure(adapter.call(request({ model: "fake:unavailable" })));
    expect(error).toMatchObject({ retryClass: "transient", httpStatus: 503 });
  });
});

describe("failures inside a 200", () => {
  it("response.failed with a server error is transient, with an invalid prompt permanent", async () => {
    expect(await providerFailure({ kind: "failed", code: "server_error" })).toMatchObject({ retryClass: "transient", reason: "provider_failed" });
    const invalid = await providerFailure({ kind: "failed", code: "invalid_prompt" });
    expect(invalid).toMatchObject({ retryClass: "permanent", reason: "invalid_request" });
    expect(invalid.requestId).toBe(server.requests.at(-1)!.id);
  });

  it("an error event in the stream is classified by its code", async () => {
    expect(await providerFailure({ kind: "error-event", code: "server_error" })).toMatchObject({ retryClass: "transient", reason: "provider_failed" });
    expect(await providerFailure({ kind: "error-event", code: "insufficient_quota" })).toMatchObject({ retryClass: "permanent", reason: "quota_exceeded" });
  });

  it("a content filter stop is permanent and keeps its partial text", async () => {
    const filtered = await providerFailure({ kind: "incomplete", reason: "content_filter" });
    expect(filtered).toMatchObject({ retryClass: "permanent", reason: "content_policy", partialText: "HubSpot CRM is the usual first pick" });
  });

  // Nothing parseable arrived, so the provider never began answering (often a proxy's page):
  // transient, and the breaker counts it as a failure. Garbage after real events would be unknown.
  it("a garbage event stream is transient (unparseable_response)", async () => {
    const error = await providerFailure({ kind: "raw", contentType: "text/event-stream", body: "data: <html><body>upstream connect error</body></html>\n\n" });
    expect(error).toMatchObject({ retryClass: "transient", reason: "unparseable_response" });
  });

  it("an HTML page with status 200 is transient (unparseable_response)", async () => {
    const error = await providerFailure({ kind: "raw", contentType: "text/html", body: "<html><body>Service temporarily unavailable</body></html>" });
    expect(error).toMatchObject({ retryClass: "transient", reason: "unparseable_response" });
  });

  it("an empty 200 is transient (empty_answer)", async () => {
    expect(await providerFailure({ kind: "raw", contentType: "text/event-stream", body: "" })).toMatchObject({ retryClass: "transient", reason: "empty_answer" });
  });
});

describe("broken connections", () => {
  it("a reset mid-stream is unknown (stream_interrupted) and keeps the partial text", async () => {
    const deltas: string[] = [];
    const error = await providerFailure({ kind: "reset", afterEvents: 22 }, { onText: (d) => deltas.push(d) });
    expect(error).toMatchObject({ retryClass: "unknown", reason: "stream_interrupted" });
    expect(error.partialText).toBeTruthy();
    expect(error.partialText).toBe(deltas.join(""));
    expect(OPENAI_ANSWER.text.startsWith(error.partialText!)).toBe(true);
  });

  it("a refused connection is transient (connection_failed)", async () => {
    const closedUrl = await refusedUrl();
    const refused = createOpenAIAdapter(() => ({ apiKey: "sk-test", baseURL: `${closedUrl}/v1` }));
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

  it("cancelling mid-stream keeps the partial text", async () => {
    server.enqueue({ kind: "stall", afterEvents: 22 });
    const { error, deltas } = await abortAtFirstText((options) => adapter.call(request(options)), "timeout");
    expect(error).toBeInstanceOf(CallAbortedError);
    expect(error).toMatchObject({ abortReason: "timeout" });
    expect((error as CallAbortedError).partialText).toBe(deltas.join(""));
    expect(deltas.join("")).not.toBe("");
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
    const unconfigured = createOpenAIAdapter(() => ({ apiKey: undefined, baseURL: server.url }));
    expect(unconfigured.configured()).toBe(false);
    const before = server.requests.length;
    expect(await failure(unconfigured.call(request()))).toMatchObject({ retryClass: "permanent", reason: "not_configured" });
    expect(server.requests.length).toBe(before);
  });

  it("the registered adapter reads OPENAI_API_KEY and OPENAI_BASE_URL", async () => {
    const registered = adapterFor("openai")!;
    expect(registered.configured()).toBe(true);
    const response = await registered.call(request());
    expect(response.text).toBe(OPENAI_ANSWER.text);
    expect(server.requests.at(-1)!.headers.authorization).toBe("Bearer sk-test-registered");
  });
});
