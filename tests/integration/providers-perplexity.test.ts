// The Perplexity adapter against a local server speaking its chat completions wire format, with
// the real openai SDK and real HTTP in between: what it extracts, and how each way a provider can
// fail maps to a retry class (DESIGN.md "Retries by error class", "Cancellation").
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CallAbortedError, ProviderError } from "@/lib/providers/errors";
import { createPerplexityAdapter } from "@/lib/providers/perplexity";
import { adapterFor } from "@/lib/providers/registry";
import type { ProviderRequest } from "@/lib/providers/types";
import { type FakeServer } from "@/tests/support/fake-providers/openai-server";
import { PERPLEXITY_ANSWER, PERPLEXITY_REASONING_ANSWER, startFakePerplexity, type PerplexityScenario } from "@/tests/support/fake-providers/perplexity-server";
import { abortAtFirstText, abortOnceReceived, expectClosedByClient, failure, providerError, refusedUrl, requestBuilder } from "@/tests/support/provider-calls";

let server: FakeServer<PerplexityScenario>;
let adapter: ReturnType<typeof createPerplexityAdapter>;

beforeAll(async () => {
  server = await startFakePerplexity();
  // Before anything reads env(): the registered adapter must see these.
  process.env.PERPLEXITY_API_KEY = "pplx-test-registered";
  process.env.PERPLEXITY_BASE_URL = server.url;
  adapter = createPerplexityAdapter(() => ({ apiKey: "pplx-test", baseURL: server.url }));
});

afterAll(async () => {
  await server.close();
});

const request = requestBuilder({
  prompt: "What is the best CRM for a 10-person startup?",
  model: "sonar",
  searchMode: "on",
  limits: { maxOutputTokens: 4096, maxSearchCalls: 5 },
});

async function providerFailure(scenario: PerplexityScenario, overrides: Partial<ProviderRequest> = {}): Promise<ProviderError> {
  server.enqueue(scenario);
  return providerError(adapter.call(request(overrides)));
}

describe("a streamed answer", () => {
  it("yields the text, cited and retrieved sources, usage and the request id", async () => {
    const deltas: string[] = [];
    const before = server.requests.length;
    const response = await adapter.call(request({ country: "fr", city: "Lyon", onText: (d) => deltas.push(d) }));

    expect(server.requests.length).toBe(before + 1);
    const sent = server.requests.at(-1)!;
    expect(sent.path).toBe("/chat/completions");
    expect(sent.headers.authorization).toBe("Bearer pplx-test");
    expect(sent.headers).not.toHaveProperty("openai-organization");
    expect(sent.body).toMatchObject({
      model: "sonar",
      messages: [{ role: "user", content: "What is the best CRM for a 10-person startup?" }],
      stream: true,
      max_tokens: 4096,
      web_search_options: { user_location: { country: "FR", city: "Lyon" } },
    });
    expect(sent.body).not.toHaveProperty("disable_search");

    expect(response.text).toBe(PERPLEXITY_ANSWER.content);
    expect(deltas.length).toBeGreaterThan(3);
    expect(deltas.join("")).toBe(response.text);
    // [1][2] and [3] are in the text; the fourth source was only retrieved.
    expect(response.sources).toEqual([
      { url: "https://www.hubspot.com/products/crm", title: "Free CRM Software | HubSpot", citedInText: true },
      { url: "https://www.g2.com/categories/crm", title: "Best CRM Software 2026 | G2", citedInText: true },
      { url: "https://www.pipedrive.com/en/pricing", title: "Pipedrive pricing", citedInText: true },
      { url: "https://www.salesforce.com/small-business/", title: "Salesforce for small business", citedInText: false },
    ]);
    expect(response.searchQueries).toEqual([]);
    expect(response.usage).toEqual({ inputTokens: 14, outputTokens: 96, reasoningTokens: 0, cachedTokens: 0, searchCalls: 1 });
    expect(response.requestId).toBe(sent.id);
  });

  it("drops a reasoning model's think block from the text and the deltas alike", async () => {
    server.enqueue({ kind: "answer", answer: PERPLEXITY_REASONING_ANSWER });
    const deltas: string[] = [];
    const response = await adapter.call(request({ model: "sonar-reasoning-pro", onText: (d) => deltas.push(d) }));
    expect(response.text).toBe(PERPLEXITY_ANSWER.content);
    expect(deltas.join("")).toBe(response.text);
    // Two queries, one billed search: Sonar bills the request, not the queries it ran.
    expect(response.usage).toMatchObject({ outputTokens: 131, reasoningTokens: 2048, searchCalls: 1 });
  });

  it("asks for no search when search is off, and for the classifier in auto mode", async () => {
    await adapter.call(request({ searchMode: "off", country: "FR" }));
    const off = server.requests.at(-1)!.body;
    expect(off).toMatchObject({ disable_search: true });
    expect(off).not.toHaveProperty("web_search_options");

    await adapter.call(request({ searchMode: "auto" }));
    expect(server.requests.at(-1)!.body).toMatchObject({ enable_search_classifier: true });
  });
});

describe("call limits", () => {
  it("sends max_tokens", async () => {
    await adapter.call(request({ limits: { maxOutputTokens: 300, maxSearchCalls: 1 } }));
    const sent = server.requests.at(-1)!.body;
    expect(sent).toMatchObject({ max_tokens: 300 });
    expect(sent).not.toHaveProperty("disable_search");
  });

  it.each(["on", "auto"] as const)("maxSearchCalls 0 disables search in %s mode, and no search call is counted", async (searchMode) => {
    const response = await adapter.call(request({ searchMode, country: "FR", limits: { maxOutputTokens: 300, maxSearchCalls: 0 } }));
    const sent = server.requests.at(-1)!.body;
    expect(sent).toMatchObject({ max_tokens: 300, disable_search: true });
    expect(sent).not.toHaveProperty("enable_search_classifier");
    expect(sent).not.toHaveProperty("web_search_options");
    expect(response.usage.searchCalls).toBe(0);
  });

  it("an answer cut off at max_tokens (finish_reason length) is accepted, with its usage", async () => {
    const content = "For a 10-person startup, **HubSpot CRM** is the common starting point[1]. Pipedrive";
    server.enqueue({ kind: "answer", answer: { ...PERPLEXITY_ANSWER, content, finish_reason: "length", usage: { prompt_tokens: 14, completion_tokens: 20, num_search_queries: 1 } } });
    const deltas: string[] = [];
    const response = await adapter.call(request({ limits: { maxOutputTokens: 20, maxSearchCalls: 1 }, onText: (d) => deltas.push(d) }));
    expect(response.text).toBe(content);
    expect(deltas.join("")).toBe(content);
    expect(response.usage).toEqual({ inputTokens: 14, outputTokens: 20, reasoningTokens: 0, cachedTokens: 0, searchCalls: 1 });
    expect(response.sources.filter((s) => s.citedInText).map((s) => s.url)).toEqual(["https://www.hubspot.com/products/crm"]);
  });

  it("a cut-off answer with no text (all of it in the think block) is an empty answer (transient)", async () => {
    const content = "<think>\nThe user wants a CRM. Salesforce, Zoho and";
    const error = await providerFailure({ kind: "answer", answer: { ...PERPLEXITY_ANSWER, content, finish_reason: "length", usage: { prompt_tokens: 14, completion_tokens: 12 } } }, { model: "sonar-reasoning-pro" });
    expect(error).toMatchObject({ retryClass: "transient", reason: "empty_answer" });
  });

  it("refuses deep research, whose searches and reasoning no per-call limit bounds, without calling", async () => {
    const before = server.requests.length;
    const error = await failure(adapter.call(request({ model: "sonar-deep-research" })));
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ retryClass: "permanent", reason: "invalid_request" });
    expect(server.requests.length).toBe(before);
  });
});

describe("HTTP errors", () => {
  it("429 is transient and carries Retry-After", async () => {
    const error = await providerFailure({ kind: "status", status: 429, headers: { "retry-after": "3" }, body: { error: { message: "Too many requests", type: "rate_limit_exceeded", code: 429 } } });
    expect(error).toMatchObject({ retryClass: "transient", reason: "rate_limited", httpStatus: 429, retryAfterMs: 3000 });
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

  it("a scenario can be chosen by model name (for worker processes)", async () => {
    const error = await failure(adapter.call(request({ model: "fake:rate-limited" })));
    expect(error).toMatchObject({ retryClass: "transient", httpStatus: 429, retryAfterMs: 3000 });
  });
});

describe("failures inside a 200", () => {
  it("a JSON body with status failed (Agent API shape) is transient (provider_failed)", async () => {
    const error = await providerFailure({ kind: "failed-200" });
    expect(error).toMatchObject({ retryClass: "transient", reason: "provider_failed", requestId: server.requests.at(-1)!.id });
  });

  it("a failed chunk mid-stream is transient and keeps the partial text", async () => {
    const error = await providerFailure({ kind: "failed-chunk" });
    expect(error).toMatchObject({ retryClass: "transient", reason: "provider_failed" });
    expect(PERPLEXITY_ANSWER.content.startsWith(error.partialText!)).toBe(true);
    expect(error.partialText).not.toBe("");
  });

  // Nothing parseable arrived, so the provider never began answering (often a proxy's page):
  // transient, and the breaker counts it as a failure. Garbage after real chunks would be unknown.
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
    const error = await providerFailure({ kind: "reset", afterEvents: 3 }, { onText: (d) => deltas.push(d) });
    expect(error).toMatchObject({ retryClass: "unknown", reason: "stream_interrupted" });
    expect(error.partialText).toBeTruthy();
    expect(error.partialText).toBe(deltas.join(""));
  });

  it("a refused connection is transient (connection_failed)", async () => {
    const closedUrl = await refusedUrl();
    const refused = createPerplexityAdapter(() => ({ apiKey: "pplx-test", baseURL: closedUrl }));
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
    server.enqueue({ kind: "stall", afterEvents: 3 });
    const { error, deltas } = await abortAtFirstText((options) => adapter.call(request(options)));
    expect(error).toBeInstanceOf(CallAbortedError);
    expect((error as CallAbortedError).partialText).toBe(deltas.join(""));
    expect(deltas.join("")).not.toBe("");
    await expectClosedByClient(server);
  });
});

describe("configuration", () => {
  it("is not configured without a key, and then sends nothing", async () => {
    const unconfigured = createPerplexityAdapter(() => ({ apiKey: undefined, baseURL: server.url }));
    expect(unconfigured.configured()).toBe(false);
    const before = server.requests.length;
    expect(await failure(unconfigured.call(request()))).toMatchObject({ retryClass: "permanent", reason: "not_configured" });
    expect(server.requests.length).toBe(before);
  });

  it("the registered adapter reads PERPLEXITY_API_KEY and PERPLEXITY_BASE_URL", async () => {
    const registered = adapterFor("perplexity")!;
    expect(registered.configured()).toBe(true);
    const response = await registered.call(request());
    expect(response.text).toBe(PERPLEXITY_ANSWER.content);
    expect(server.requests.at(-1)!.headers.authorization).toBe("Bearer pplx-test-registered");
  });
});
