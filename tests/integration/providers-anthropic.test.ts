// The Anthropic adapter against a local server speaking the Messages wire format, with the real
// @anthropic-ai/sdk and real HTTP in between: what it extracts, how pause_turn is continued, and
// how each way a provider can fail maps to a retry class (DESIGN.md "Retries by error class",
// "Cancellation").
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_CONTINUATIONS, createAnthropicAdapter } from "@/lib/providers/anthropic";
import { CallAbortedError, ProviderError } from "@/lib/providers/errors";
import { adapterFor } from "@/lib/providers/registry";
import type { ProviderRequest } from "@/lib/providers/types";
import {
  ANTHROPIC_ANSWER,
  ANTHROPIC_CONTINUED,
  ANTHROPIC_PAUSED,
  ANTHROPIC_SCENARIOS,
  startFakeAnthropic,
  textOf,
  type AnthropicScenario,
} from "@/tests/support/fake-providers/anthropic-server";
import type { FakeServer } from "@/tests/support/fake-providers/openai-server";
import { abortOnceReceived, expectClosedByClient, failure, providerError, refusedUrl, requestBuilder } from "@/tests/support/provider-calls";

let server: FakeServer<AnthropicScenario>;
let adapter: ReturnType<typeof createAnthropicAdapter>;

beforeAll(async () => {
  server = await startFakeAnthropic();
  // Before anything reads env(): the registered adapter must see these.
  process.env.ANTHROPIC_API_KEY = "sk-ant-registered";
  process.env.ANTHROPIC_BASE_URL = server.url;
  adapter = createAnthropicAdapter(() => ({ apiKey: "sk-ant-test", baseURL: server.url }));
});

afterAll(async () => {
  await server.close();
});

const request = requestBuilder({
  prompt: "What is the best CRM for a 10-person startup?",
  model: "claude-haiku-4-5",
  searchMode: "auto",
  limits: { maxOutputTokens: 4096, maxSearchCalls: 5 },
});

async function providerFailure(scenario: AnthropicScenario, overrides: Partial<ProviderRequest> = {}): Promise<ProviderError> {
  server.enqueue(scenario);
  return providerError(adapter.call(request(overrides)));
}

const CITED = [
  { url: "https://www.hubspot.com/products/crm", title: "Free CRM Software | HubSpot", citedInText: true },
  { url: "https://www.g2.com/categories/crm", title: "Best CRM Software 2026 | G2", citedInText: false },
  { url: "https://www.pipedrive.com/en/pricing", title: "Pipedrive pricing", citedInText: true },
  { url: "https://www.zoho.com/crm/", title: "Zoho CRM", citedInText: false },
];

describe("a streamed answer with web searches", () => {
  it("yields the text, cited and retrieved sources, the searches, usage and the request id", async () => {
    const deltas: string[] = [];
    const before = server.requests.length;
    const response = await adapter.call(request({ searchMode: "on", country: "de", city: "Munich", onText: (d) => deltas.push(d) }));

    expect(server.requests.length).toBe(before + 1);
    const sent = server.requests.at(-1)!;
    expect(sent.headers.authorization ?? sent.headers["x-api-key"]).toContain("sk-ant-test");
    expect(sent.body).toMatchObject({
      model: "claude-haiku-4-5",
      max_tokens: 4096,
      stream: true,
      messages: [{ role: "user", content: "What is the best CRM for a 10-person startup?" }],
      tools: [{ type: "web_search_20250305", name: "web_search", max_uses: 5, user_location: { type: "approximate", country: "DE", city: "Munich" } }],
      tool_choice: { type: "tool", name: "web_search" },
    });

    expect(response.text).toBe(textOf(ANTHROPIC_ANSWER));
    expect(deltas.length).toBeGreaterThan(3);
    expect(deltas.join("")).toBe(response.text);
    expect(response.sources).toEqual(CITED);
    expect(response.searchQueries).toEqual(["best CRM for 10 person startup 2026", "HubSpot vs Pipedrive pricing small team"]);
    // input_tokens (2679) leaves out the 1024 cache reads, which Usage counts as input.
    expect(response.usage).toEqual({ inputTokens: 3703, cachedTokens: 1024, outputTokens: 512, reasoningTokens: 0, searchCalls: 2 });
    expect(response.requestId).toBe(sent.id);
    expect(response.requestId).toMatch(/^req_/);
  });

  it("offers the search tool without forcing it in auto mode, none when search is off, within the call's limits", async () => {
    await adapter.call(request({ searchMode: "auto", country: null, limits: { maxOutputTokens: 1024, maxSearchCalls: 2 } }));
    const auto = server.requests.at(-1)!.body;
    expect(auto).toMatchObject({ max_tokens: 1024, tools: [{ type: "web_search_20250305", name: "web_search", max_uses: 2 }] });
    expect(auto).not.toHaveProperty("tool_choice");
    expect((auto.tools as object[])[0]).not.toHaveProperty("user_location");

    await adapter.call(request({ searchMode: "off", country: "US" }));
    const off = server.requests.at(-1)!.body;
    expect(off).not.toHaveProperty("tools");
    expect(off).not.toHaveProperty("tool_choice");
  });

  it("splits thinking out of output tokens", async () => {
    server.enqueue({ kind: "answer", answer: { ...ANTHROPIC_ANSWER, usage: { ...ANTHROPIC_ANSWER.usage, thinking_tokens: 200 } } });
    const response = await adapter.call(request());
    expect(response.usage).toMatchObject({ outputTokens: 312, reasoningTokens: 200 });
  });

});

describe("pause_turn", () => {
  it("sends the paused turn back once and joins both parts into one answer", async () => {
    server.enqueue({ kind: "pause", times: 1 }, { kind: "pause", times: 1 });
    const deltas: string[] = [];
    const before = server.requests.length;
    const response = await adapter.call(request({ searchMode: "on", onText: (d) => deltas.push(d) }));

    expect(server.requests.length).toBe(before + 2);
    const [first, second] = server.requests.slice(-2);
    const messages = second!.body.messages as { role: string; content: { type: string; encrypted_content?: string }[] | string }[];
    expect(messages.map((m) => m.role)).toEqual(["user", "assistant"]);
    // The paused content goes back as the API returned it, encrypted search results included.
    const assistant = messages[1]!.content as { type: string; content?: { encrypted_content?: string }[] }[];
    expect(assistant.map((b) => b.type)).toEqual(["text", "server_tool_use", "web_search_tool_result", "server_tool_use", "web_search_tool_result"]);
    expect(assistant[2]!.content?.[0]?.encrypted_content).toBeTruthy();
    expect(first!.body).toHaveProperty("tool_choice");
    expect(second!.body).not.toHaveProperty("tool_choice");

    expect(response.text).toBe(textOf(ANTHROPIC_PAUSED) + textOf(ANTHROPIC_CONTINUED));
    expect(deltas.join("")).toBe(response.text);
    expect(response.sources).toEqual(CITED);
    expect(response.searchQueries).toHaveLength(2);
    // Each request is billed: usage is the sum of both.
    expect(response.usage).toEqual({ inputTokens: 2100 + 5200, cachedTokens: 0, outputTokens: 90 + 420, reasoningTokens: 0, searchCalls: 2 });
    expect(response.requestId).toBe(first!.id);
  });

  it(`gives up after ${MAX_CONTINUATIONS} continuations with an incomplete answer (transient)`, async () => {
    const scenario: AnthropicScenario = { kind: "pause", times: 99 };
    server.enqueue(...Array.from({ length: MAX_CONTINUATIONS + 1 }, () => scenario));
    const before = server.requests.length;
    const error = await failure(adapter.call(request()));
    expect(server.requests.length).toBe(before + MAX_CONTINUATIONS + 1);
    expect(error).toMatchObject({ retryClass: "transient", reason: "incomplete_output" });
    expect((error as ProviderError).partialText).toBe(textOf(ANTHROPIC_PAUSED).repeat(MAX_CONTINUATIONS + 1));
  });
});

describe("call limits", () => {
  type Tool = { type: string; max_uses?: number };

  it.each(["on", "auto"] as const)("maxSearchCalls 0 sends no search tool in %s mode", async (searchMode) => {
    await adapter.call(request({ searchMode, country: "DE", limits: { maxOutputTokens: 800, maxSearchCalls: 0 } }));
    const sent = server.requests.at(-1)!.body;
    expect(sent).toMatchObject({ max_tokens: 800 });
    expect(sent).not.toHaveProperty("tools");
    expect(sent).not.toHaveProperty("tool_choice");
  });

  it("each continuation gets only the output tokens and searches the earlier steps left", async () => {
    server.enqueue({ kind: "pause", times: 1 }, { kind: "pause", times: 1 });
    const before = server.requests.length;
    const response = await adapter.call(request({ searchMode: "on", limits: { maxOutputTokens: 1000, maxSearchCalls: 3 } }));

    expect(server.requests.length).toBe(before + 2);
    const [first, second] = server.requests.slice(-2).map((r) => r.body);
    expect(first).toMatchObject({ max_tokens: 1000, tools: [{ type: "web_search_20250305", max_uses: 3 }], tool_choice: { type: "tool", name: "web_search" } });
    // The paused step wrote 90 output tokens and ran 2 searches.
    expect(second).toMatchObject({ max_tokens: 1000 - ANTHROPIC_PAUSED.usage.output_tokens, tools: [{ type: "web_search_20250305", max_uses: 3 - ANTHROPIC_PAUSED.usage.web_search_requests }] });
    expect(second).not.toHaveProperty("tool_choice");
    expect(response.text).toBe(textOf(ANTHROPIC_PAUSED) + textOf(ANTHROPIC_CONTINUED));
    expect(response.usage.outputTokens + response.usage.reasoningTokens).toBeLessThanOrEqual(1000);
    expect(response.usage.searchCalls).toBeLessThanOrEqual(3);
  });

  it("a continuation with no search left offers no tool", async () => {
    server.enqueue({ kind: "pause", times: 1 }, { kind: "pause", times: 1 });
    const response = await adapter.call(request({ searchMode: "on", limits: { maxOutputTokens: 1000, maxSearchCalls: 2 } }));
    const [first, second] = server.requests.slice(-2).map((r) => r.body);
    expect((first!.tools as Tool[])[0]).toMatchObject({ max_uses: 2 });
    expect(second).toMatchObject({ max_tokens: 910 });
    expect(second).not.toHaveProperty("tools");
    expect(second).not.toHaveProperty("tool_choice");
    expect(response.usage).toMatchObject({ outputTokens: 510, searchCalls: 2 });
  });

  it("a paused turn that spent the call's output tokens is not continued: the text so far is the answer", async () => {
    server.enqueue({ kind: "pause", times: 1 });
    const before = server.requests.length;
    const response = await adapter.call(request({ searchMode: "on", limits: { maxOutputTokens: ANTHROPIC_PAUSED.usage.output_tokens, maxSearchCalls: 5 } }));
    expect(server.requests.length).toBe(before + 1);
    expect(response.text).toBe(textOf(ANTHROPIC_PAUSED));
    expect(response.usage).toMatchObject({ outputTokens: 90, searchCalls: 2 });
  });

  it("a max_tokens stop is accepted as the answer, with its usage", async () => {
    server.enqueue({ kind: "answer", answer: { ...ANTHROPIC_ANSWER, stopReason: "max_tokens" } });
    const response = await adapter.call(request({ searchMode: "on" }));
    expect(response.text).toBe(textOf(ANTHROPIC_ANSWER));
    expect(response.sources).toEqual(CITED);
    expect(response.usage).toEqual({ inputTokens: 3703, cachedTokens: 1024, outputTokens: 512, reasoningTokens: 0, searchCalls: 2 });
  });

  it("a max_tokens stop before any text is an empty answer (transient)", async () => {
    const thinkingOnly = { blocks: [], stopReason: "max_tokens" as const, usage: { ...ANTHROPIC_ANSWER.usage, output_tokens: 64, thinking_tokens: 64, web_search_requests: 0 } };
    const error = await providerFailure({ kind: "answer", answer: thinkingOnly });
    expect(error).toMatchObject({ retryClass: "transient", reason: "empty_answer" });
  });
});

describe("HTTP errors", () => {
  it("429 is transient and carries Retry-After and the request id", async () => {
    const before = server.requests.length;
    const error = await providerFailure(ANTHROPIC_SCENARIOS["rate-limited"]!);
    expect(error).toMatchObject({ retryClass: "transient", reason: "rate_limited", httpStatus: 429, retryAfterMs: 12_000 });
    expect(error.requestId).toBe(server.requests.at(-1)!.id);
    expect(server.requests.length).toBe(before + 1); // SDK retries are off
  });

  it.each([
    [500, "server_error"],
    [502, "server_error"],
    [503, "server_error"],
    [529, "overloaded"],
  ])("%i is transient (%s), after exactly one request", async (status, reason) => {
    const scenario = Object.values(ANTHROPIC_SCENARIOS).find((s) => s.kind === "status" && s.status === status)!;
    const before = server.requests.length;
    const error = await providerFailure(scenario);
    expect(error).toMatchObject({ retryClass: "transient", reason, httpStatus: status });
    expect(server.requests.length).toBe(before + 1);
  });

  it.each([
    [400, "invalid_request"],
    [401, "auth_failed"],
    [403, "auth_failed"],
  ])("%i is permanent (%s)", async (status, reason) => {
    const scenario = Object.values(ANTHROPIC_SCENARIOS).find((s) => s.kind === "status" && s.status === status)!;
    const error = await providerFailure(scenario);
    expect(error).toMatchObject({ retryClass: "permanent", reason, httpStatus: status });
  });

  it("a scenario can be chosen by model name (for worker processes)", async () => {
    const error = await failure(adapter.call(request({ model: "fake:overloaded" })));
    expect(error).toMatchObject({ retryClass: "transient", httpStatus: 529 });
  });
});

describe("failures inside a 200", () => {
  // The search backend was busy or down and no search of the answer succeeded: the answer was
  // written without the web, and a later try may get it.
  it.each([
    ["search-unavailable", "search_unavailable"],
    ["search-rate-limited", "search_too_many_requests"],
  ])("a web_search_tool_result error (%s) with no successful search is transient", async (name, reason) => {
    const error = await providerFailure(ANTHROPIC_SCENARIOS[name]!);
    expect(error).toMatchObject({ retryClass: "transient", reason });
    expect(error.requestId).toBe(server.requests.at(-1)!.id);
    expect(error.partialText).toContain("HubSpot");
  });

  it("max_uses_exceeded after a successful search leaves the answer as it is", async () => {
    server.enqueue(ANTHROPIC_SCENARIOS["max-uses"]!);
    const response = await adapter.call(request());
    expect(response.text).toContain("HubSpot and Pipedrive");
    expect(response.searchQueries).toEqual(["best CRM for 10 person startup 2026", "hubspot pricing"]);
    expect(response.sources).toEqual([CITED[0]!].map((s) => ({ ...s, citedInText: false })));
  });

  it("a refusal without text is permanent (content_policy)", async () => {
    expect(await providerFailure(ANTHROPIC_SCENARIOS.refusal!)).toMatchObject({ retryClass: "permanent", reason: "content_policy" });
  });

  it("an overloaded_error event mid-stream is transient and keeps the partial text", async () => {
    const deltas: string[] = [];
    const error = await providerFailure(ANTHROPIC_SCENARIOS["overloaded-mid-stream"]!, { onText: (d) => deltas.push(d) });
    expect(error).toMatchObject({ retryClass: "transient", reason: "overloaded" });
    expect(error.partialText).toBe(deltas.join(""));
    expect(error.partialText).toBe(textOf(ANTHROPIC_PAUSED));
  });

  // Nothing parseable arrived, so the provider never began answering (often a proxy's page): a
  // retry may succeed, and the breaker counts it as a failure. Garbage after real events would be
  // unknown, like a broken stream. The same rule as the OpenAI adapter.
  it.each(["garbage", "html", "empty"])("a 200 that is not a message stream (%s) is transient (unparseable_response)", async (name) => {
    const error = await providerFailure(ANTHROPIC_SCENARIOS[name]!);
    expect(error).toMatchObject({ retryClass: "transient", reason: "unparseable_response" });
  });
});

describe("broken connections", () => {
  it("a reset mid-stream is unknown (stream_interrupted) and keeps the partial text", async () => {
    const deltas: string[] = [];
    const error = await providerFailure(ANTHROPIC_SCENARIOS.reset!, { onText: (d) => deltas.push(d) });
    expect(error).toMatchObject({ retryClass: "unknown", reason: "stream_interrupted" });
    expect(error.partialText).toBeTruthy();
    expect(error.partialText).toBe(deltas.join(""));
    expect(textOf(ANTHROPIC_ANSWER).startsWith(error.partialText!)).toBe(true);
  });

  it("a refused connection is transient (connection_failed)", async () => {
    const closedUrl = await refusedUrl();
    const refused = createAnthropicAdapter(() => ({ apiKey: "sk-ant-test", baseURL: closedUrl }));
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
    server.enqueue(ANTHROPIC_SCENARIOS.stall!);
    const controller = new AbortController();
    const deltas: string[] = [];
    const onText = (d: string) => {
      deltas.push(d);
      if (deltas.join("") === textOf(ANTHROPIC_PAUSED)) {
        controller.abort("cancelled");
      }
    };
    const error = await failure(adapter.call(request({ signal: controller.signal, onText })));
    expect(error).toBeInstanceOf(CallAbortedError);
    expect(error).toMatchObject({ abortReason: "cancelled", partialText: textOf(ANTHROPIC_PAUSED) });
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
    const unconfigured = createAnthropicAdapter(() => ({ apiKey: undefined, baseURL: server.url }));
    expect(unconfigured.configured()).toBe(false);
    const before = server.requests.length;
    expect(await failure(unconfigured.call(request()))).toMatchObject({ retryClass: "permanent", reason: "not_configured" });
    expect(server.requests.length).toBe(before);
  });

  it("the registered adapter reads ANTHROPIC_API_KEY and ANTHROPIC_BASE_URL", async () => {
    const registered = adapterFor("anthropic")!;
    expect(registered.configured()).toBe(true);
    const response = await registered.call(request());
    expect(response.text).toBe(textOf(ANTHROPIC_ANSWER));
    const sent = server.requests.at(-1)!;
    expect(sent.headers.authorization ?? sent.headers["x-api-key"]).toContain("sk-ant-registered");
  });
});
