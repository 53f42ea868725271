// The Google AI Overviews and AI Mode adapters against a local server speaking DataForSEO's and
// SerpApi's wire formats, real HTTP in between: the overview as markdown, cited vs listed
// references, "no overview shown" as a result, what each failure's retry class is, and abort.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { costOf, type PriceTable } from "@/lib/billing/money";
import { CallAbortedError, ProviderError } from "@/lib/providers/errors";
import { createGoogleAiModeAdapter, createGoogleAiOverviewAdapter, type GoogleSerpConnection } from "@/lib/providers/google-serp";
import { adapterFor } from "@/lib/providers/registry";
import type { ProviderAdapter, ProviderRequest } from "@/lib/providers/types";
import { startFakeGoogleSerp, type FakeSerpServer, type SerpScenario } from "@/tests/support/fake-providers/google-serp-server";
import { abortOnceReceived, expectClosedByClient, failure, providerError, refusedUrl, requestBuilder } from "@/tests/support/provider-calls";

let server: FakeSerpServer;
let overview: ProviderAdapter;
let aiMode: ProviderAdapter;

const PROMPT = "best CRM for a 10-person startup";
const HUBSPOT = "https://www.hubspot.com/products/crm";
const PIPEDRIVE = "https://www.pipedrive.com/en/pricing";
const G2 = "https://www.g2.com/categories/crm";
const ZOHO = "https://www.zoho.com/crm/";

const both = (url: string): GoogleSerpConnection => ({ dataforseo: { login: "dfs-login", password: "dfs-pass", baseURL: url }, serpapi: { apiKey: "serp-key", baseURL: url } });

beforeAll(async () => {
  server = await startFakeGoogleSerp();
  // Before anything reads env(): the registered adapters must see these.
  process.env.DATAFORSEO_LOGIN = "env-login";
  process.env.DATAFORSEO_PASSWORD = "env-pass";
  process.env.DATAFORSEO_BASE_URL = server.url;
  process.env.SERPAPI_API_KEY = "env-serp-key";
  process.env.SERPAPI_BASE_URL = server.url;
  overview = createGoogleAiOverviewAdapter(() => both(server.url));
  aiMode = createGoogleAiModeAdapter(() => both(server.url));
});

afterAll(async () => {
  await server.close();
});

const request = requestBuilder({ prompt: PROMPT, model: "dataforseo", searchMode: "on", limits: { maxOutputTokens: 2048, maxSearchCalls: 3 } });

async function providerFailure(adapter: ProviderAdapter, scenario: SerpScenario, overrides: Partial<ProviderRequest> = {}): Promise<ProviderError> {
  server.enqueue(scenario);
  return providerError(adapter.call(request(overrides)));
}

const noTokens = { inputTokens: 0, outputTokens: 0, reasoningTokens: 0, cachedTokens: 0 };

describe("DataForSEO", () => {
  it("AI Overviews: the overview's markdown without images, cited and listed references, one paid search", async () => {
    const response = await overview.call(request({ country: "fr", language: "fr" }));
    const sent = server.requests.at(-1)!;
    expect(sent.method).toBe("POST");
    expect(sent.path).toBe("/v3/serp/google/organic/live/advanced");
    expect(sent.headers.authorization).toBe(`Basic ${Buffer.from("dfs-login:dfs-pass").toString("base64")}`);
    expect(sent.task).toEqual({ keyword: PROMPT, location_code: 2250, language_code: "fr", load_async_ai_overview: true });

    expect(response.text).toBe(
      `For a 10-person startup, **HubSpot CRM** is a common first choice: its free tier covers contacts and deals [[1]](${HUBSPOT}#:~:text=free%20tier).\n\n` +
        `- **Pipedrive**: built around the sales pipeline [[2]](${PIPEDRIVE})\n- **Salesforce**: more than most small teams need\n\n` +
        "| CRM | Free tier |\n|---|---|\n| HubSpot | Yes |\n| Pipedrive | No |",
    );
    // The text fragment is dropped so the panel's and the passage's reference are one source;
    // the organic result under the overview (salesforce.com) is not a source.
    expect(response.sources).toEqual([
      { url: HUBSPOT, title: "Free CRM Software | HubSpot", citedInText: true },
      { url: PIPEDRIVE, title: "Pipedrive pricing", citedInText: true },
      { url: G2, title: "Best CRM Software 2026 | G2", citedInText: false },
    ]);
    expect(response.searchQueries).toEqual([PROMPT]);
    expect(response.usage).toEqual({ ...noTokens, searchCalls: 1, providerCostMicros: 3_200 });
    expect(response.requestId).toBe(sent.id);
    expect(response.noAnswer).toBeUndefined();
  });

  it("United States and English when the prompt sets neither; a location from the settings is sent by name", async () => {
    await overview.call(request());
    expect(server.requests.at(-1)!.task).toMatchObject({ location_code: 2840, language_code: "en" });
    await aiMode.call(request({ country: "pe", language: "es" }));
    expect(server.requests.at(-1)!.task).toMatchObject({ location_code: 2604, language_code: "es" });
    await overview.call(request({ country: "GB", language: "en-GB", settings: { location: "London,England,United Kingdom" } }));
    const task = server.requests.at(-1)!.task!;
    expect(task).toMatchObject({ location_name: "London,England,United Kingdom", language_code: "en" });
    expect(task).not.toHaveProperty("location_code");
  });

  it("AI Mode: elements rendered as markdown (headings, expanded lists, a table; videos left out)", async () => {
    const response = await aiMode.call(request());
    const sent = server.requests.at(-1)!;
    expect(sent.path).toBe("/v3/serp/google/ai_mode/live/advanced");
    expect(sent.task).not.toHaveProperty("load_async_ai_overview");
    expect(response.text).toBe(
      "### Best picks\n\nHubSpot CRM is free to start.\n\n### Pipedrive\n\n- Pipeline first.\n- From $14 per user.\n\n| CRM | Free tier |\n| --- | --- |\n| HubSpot | Yes |",
    );
    expect(response.sources).toEqual([
      { url: HUBSPOT, title: "Free CRM Software | HubSpot", citedInText: true },
      { url: G2, title: "Best CRM Software 2026 | G2", citedInText: false },
      { url: ZOHO, citedInText: true },
    ]);
    expect(response.usage.searchCalls).toBe(1);
  });

  it("a SERP without an AI Overview is noAnswer, not an error, and its search is paid", async () => {
    server.enqueue({ kind: "no-overview" });
    const response = await overview.call(request());
    expect(response).toEqual({ text: "", noAnswer: true, sources: [], searchQueries: [PROMPT], usage: { ...noTokens, searchCalls: 1, providerCostMicros: 3_200 }, requestId: server.requests.at(-1)!.id });
  });

  // The connection's list price for a search ($3.20 per 1k, lib/providers/defaults.ts), no tokens.
  const listPrice: PriceTable = { inputPricePerMTokMicros: 0, outputPricePerMTokMicros: 0, cachedPricePerMTokMicros: 0, reasoningPricePerMTokMicros: 0, searchPriceMicros: 3_200 };

  it("is charged what DataForSEO reports for the task, not the list price: a SERP without an overview costs less", async () => {
    // The async-overview surcharge is refunded when no overview was shown: $0.002 instead of $0.0032.
    server.enqueue({ kind: "no-overview", cost: 0.002 });
    const response = await overview.call(request());
    expect(response).toMatchObject({ noAnswer: true, usage: { searchCalls: 1, providerCostMicros: 2_000 } });
    expect(costOf(response.usage, listPrice)).toBe(2_000);
    // With an overview: the reported $0.0032.
    expect(costOf((await overview.call(request())).usage, listPrice)).toBe(3_200);
  });

  it("40102 No Search Results is noAnswer; the task's cost says whether the search was paid, and what it cost", async () => {
    server.enqueue({ kind: "task-error", code: 40102, message: "No Search Results.", cost: 0 });
    const free = await aiMode.call(request());
    expect(free).toMatchObject({ text: "", noAnswer: true, usage: { searchCalls: 0, providerCostMicros: 0 } });
    expect(costOf(free.usage, listPrice)).toBe(0);
    server.enqueue({ kind: "task-error", code: 40102, message: "No Search Results.", cost: 0.0015 });
    const paid = await aiMode.call(request());
    expect(paid).toMatchObject({ text: "", noAnswer: true, usage: { searchCalls: 1, providerCostMicros: 1_500 } });
    expect(costOf(paid.usage, listPrice)).toBe(1_500);
  });

  it.each([
    [40501, "Invalid Field: 'keyword'.", "permanent", "invalid_request"],
    [40503, "POST Data Is Invalid.", "permanent", "invalid_request"],
    [40200, "Payment Required.", "permanent", "quota_exceeded"],
    [40100, "You are not authorized.", "permanent", "auth_failed"],
    [40202, "Rate limit per minute exceeded.", "transient", "rate_limited"],
    [40101, "Internal SE Server Error.", "transient", "provider_failed"],
    [50000, "Internal Error.", "transient", "server_error"],
    [50301, "Third-party API unavailable.", "transient", "server_error"],
  ] as const)("status %i inside HTTP 200 is %s (%s)", async (code, message, retryClass, reason) => {
    const error = await providerFailure(overview, { kind: "task-error", code, message });
    expect(error).toMatchObject({ retryClass, reason, requestId: server.requests.at(-1)!.id });
    expect(error.message).toContain(message);
  });

  it("a request-level status code inside HTTP 200 is classified like a task's", async () => {
    const body = JSON.stringify({ version: "0.1", status_code: 40100, status_message: "You are not authorized to access this resource.", tasks_count: 0, tasks: null });
    const error = await providerFailure(overview, { kind: "raw", contentType: "application/json", body });
    expect(error).toMatchObject({ retryClass: "permanent", reason: "auth_failed" });
    expect(error.message).toContain("40100");
  });

  it("HTTP 429 is transient and carries Retry-After, after exactly one request", async () => {
    const before = server.requests.length;
    const error = await providerFailure(overview, { kind: "status", status: 429, headers: { "retry-after": "3" }, body: { status_code: 40202, status_message: "Rate limit" } });
    expect(error).toMatchObject({ retryClass: "transient", reason: "rate_limited", httpStatus: 429, retryAfterMs: 3000 });
    expect(server.requests.length).toBe(before + 1);
  });

  it.each([
    [500, "transient", "server_error"],
    [503, "transient", "server_error"],
    [401, "permanent", "auth_failed"],
    [402, "permanent", "quota_exceeded"],
  ] as const)("HTTP %i is %s (%s)", async (status, retryClass, reason) => {
    const error = await providerFailure(aiMode, { kind: "status", status, body: { status_code: status * 100, status_message: "from the server" } });
    expect(error).toMatchObject({ retryClass, reason, httpStatus: status });
    expect(error.message).toContain("from the server");
  });

  it("an HTML page or an empty body with status 200 is transient", async () => {
    expect(await providerFailure(overview, { kind: "raw", contentType: "text/html", body: "<html><body>502 Bad Gateway</body></html>" })).toMatchObject({ retryClass: "transient", reason: "unparseable_response" });
    expect(await providerFailure(overview, { kind: "raw", contentType: "application/json", body: "" })).toMatchObject({ retryClass: "transient", reason: "empty_answer" });
  });

  it("a connection reset while the body arrives is unknown (the search may have been billed)", async () => {
    const error = await providerFailure(overview, { kind: "reset" });
    expect(error).toMatchObject({ retryClass: "unknown", reason: "connection_lost" });
  });

  it("a refused connection is transient (connection_failed)", async () => {
    const closedUrl = await refusedUrl();
    const refused = createGoogleAiOverviewAdapter(() => both(closedUrl));
    expect(await failure(refused.call(request()))).toMatchObject({ retryClass: "transient", reason: "connection_failed" });
  });
});

describe("SerpApi", () => {
  const serp = (overrides: Partial<ProviderRequest> = {}) => request({ model: "serpapi", ...overrides });
  const OVERVIEW_TEXT =
    "For a 10-person startup, HubSpot CRM is a common first choice: its free tier covers contacts and deals.\n\n### Other options\n\n" +
    "- **Pipedrive**: built around the sales pipeline\n- **Salesforce**: more than most small teams need\n  - Starter Suite from $25 per user\n\n" +
    "| CRM | Free tier |\n| --- | --- |\n| HubSpot | Yes |\n| Pipedrive | No |";
  const OVERVIEW_SOURCES = [
    { url: HUBSPOT, title: "Free CRM Software | HubSpot", citedInText: true },
    { url: PIPEDRIVE, title: "Pipedrive pricing", citedInText: true },
    { url: G2, title: "Best CRM Software 2026 | G2", citedInText: false },
  ];

  it("AI Overviews: text blocks as markdown, references by reference_indexes, gl/hl/location", async () => {
    const response = await overview.call(serp({ country: "GB", language: "en-GB", settings: { location: "London, England, United Kingdom" } }));
    const sent = server.requests.at(-1)!;
    expect(sent.method).toBe("GET");
    expect(sent.path).toBe("/search.json");
    expect(Object.fromEntries(sent.query)).toEqual({ engine: "google", q: PROMPT, gl: "uk", hl: "en-GB", location: "London, England, United Kingdom", api_key: "serp-key" });
    expect(response.text).toBe(OVERVIEW_TEXT);
    expect(response.sources).toEqual(OVERVIEW_SOURCES);
    expect(response.searchQueries).toEqual([PROMPT]);
    expect(response.usage).toEqual({ ...noTokens, searchCalls: 1 });
    expect(response.requestId).toBe(sent.id);
  });

  it("an overview that loads separately is fetched with its page_token: two searches", async () => {
    server.enqueue({ kind: "page-token" });
    const before = server.requests.length;
    const response = await overview.call(serp());
    expect(server.requests.length).toBe(before + 2);
    const [search, follow] = server.requests.slice(-2);
    expect(search!.query.get("engine")).toBe("google");
    expect(follow!.query.get("engine")).toBe("google_ai_overview");
    expect(follow!.query.get("page_token")).toMatch(/^tok-/);
    expect(follow!.query.get("api_key")).toBe("serp-key");
    expect(response.text).toBe(OVERVIEW_TEXT);
    expect(response.sources).toEqual(OVERVIEW_SOURCES);
    expect(response.usage.searchCalls).toBe(2);
    expect(response.requestId).toBe(search!.id);
  });

  it("the page_token request is refused when the connection allows one search per call", async () => {
    const before = server.requests.length;
    const error = await providerFailure(overview, { kind: "page-token" }, { model: "serpapi", limits: { maxOutputTokens: 2048, maxSearchCalls: 1 } });
    expect(error).toMatchObject({ retryClass: "permanent", reason: "search_limit" });
    expect(server.requests.length).toBe(before + 1);
  });

  it("a SERP without an AI Overview is noAnswer with its paid search", async () => {
    server.enqueue({ kind: "no-overview" });
    expect(await overview.call(serp())).toEqual({ text: "", noAnswer: true, sources: [], searchQueries: [PROMPT], usage: { ...noTokens, searchCalls: 1 }, requestId: server.requests.at(-1)!.id });
  });

  it("AI Mode: blocks (expandable, code) as markdown; inline links are cited sources", async () => {
    const response = await aiMode.call(serp({ country: "us" }));
    expect(Object.fromEntries(server.requests.at(-1)!.query)).toEqual({ engine: "google_ai_mode", q: PROMPT, gl: "us", api_key: "serp-key" });
    expect(response.text).toBe("HubSpot CRM suits most 10-person teams.\n\n### Pipedrive\n\nPipeline first, from $14 per user.\n\n```bash\ncurl https://api.hubapi.com/crm/v3/objects/contacts\n```");
    expect(response.sources).toEqual([
      { url: PIPEDRIVE, title: "Pipedrive pricing", citedInText: true },
      { url: HUBSPOT, title: "Free CRM Software | HubSpot", citedInText: true },
      { url: G2, title: "Best CRM Software 2026 | G2", citedInText: false },
      { url: ZOHO, title: "Zoho", citedInText: true },
    ]);
  });

  it("\"Google hasn't returned any results for this query.\" is noAnswer, not an error", async () => {
    server.enqueue({ kind: "no-overview" });
    expect(await aiMode.call(serp())).toMatchObject({ text: "", noAnswer: true, sources: [], usage: { searchCalls: 1 } });
  });

  it("any other error inside a 200 is transient (provider_failed)", async () => {
    const error = await providerFailure(aiMode, { kind: "error-200", message: "Couldn't get valid results." }, { model: "serpapi" });
    expect(error).toMatchObject({ retryClass: "transient", reason: "provider_failed", requestId: server.requests.at(-1)!.id });
  });

  it("429 is transient with Retry-After; 429 for a plan out of searches is permanent", async () => {
    const throttled = await providerFailure(overview, { kind: "status", status: 429, headers: { "retry-after": "3" }, body: { error: "Your account has exceeded the hourly searches limit." } }, { model: "serpapi" });
    expect(throttled).toMatchObject({ retryClass: "transient", reason: "rate_limited", retryAfterMs: 3000 });
    const spent = await providerFailure(overview, { kind: "status", status: 429, body: { error: "Your account has run out of searches." } }, { model: "serpapi" });
    expect(spent).toMatchObject({ retryClass: "permanent", reason: "quota_exceeded", httpStatus: 429 });
  });

  it.each([
    [401, "permanent", "auth_failed"],
    [403, "permanent", "auth_failed"],
    [400, "permanent", "invalid_request"],
    [503, "transient", "server_error"],
  ] as const)("HTTP %i is %s (%s)", async (status, retryClass, reason) => {
    const error = await providerFailure(aiMode, { kind: "status", status, body: { error: "Invalid API key. Your API key should be here: https://serpapi.com/manage-api-key" } }, { model: "serpapi" });
    expect(error).toMatchObject({ retryClass, reason, httpStatus: status });
  });
});

describe("our own abort", () => {
  it.each(["dataforseo", "serpapi"])("%s: cancelling a call that hangs rejects, though the server never answers, and closes the connection", async (model) => {
    server.enqueue({ kind: "hang" });
    const { error } = await abortOnceReceived(() => server.requests, (signal) => overview.call(request({ model, signal })));
    expect(error).toBeInstanceOf(CallAbortedError);
    expect(error).toMatchObject({ abortReason: "cancelled", partialText: "" });
    await expectClosedByClient(server);
  });

  it("an already aborted signal sends nothing", async () => {
    const controller = new AbortController();
    controller.abort("shutdown");
    const before = server.requests.length;
    expect(await failure(aiMode.call(request({ signal: controller.signal })))).toMatchObject({ abortReason: "shutdown" });
    expect(server.requests.length).toBe(before);
  });
});

describe("configuration and the choice of API", () => {
  const only = (which: "dataforseo" | "serpapi"): GoogleSerpConnection => ({
    dataforseo: which === "dataforseo" ? { login: "l", password: "p", baseURL: server.url } : { baseURL: server.url },
    serpapi: which === "serpapi" ? { apiKey: "k", baseURL: server.url } : { baseURL: server.url },
  });

  it("is configured with either API's credentials, and not without both", () => {
    expect(createGoogleAiOverviewAdapter(() => ({ dataforseo: {}, serpapi: {} })).configured()).toBe(false);
    expect(createGoogleAiOverviewAdapter(() => ({ dataforseo: { login: "l" }, serpapi: {} })).configured()).toBe(false);
    expect(createGoogleAiModeAdapter(() => only("serpapi")).configured()).toBe(true);
    expect(createGoogleAiModeAdapter(() => only("dataforseo")).configured()).toBe(true);
  });

  it("settings.serp wins, then a model naming an API, then whichever has credentials (DataForSEO first)", async () => {
    await overview.call(request({ model: "dataforseo", settings: { serp: "serpapi" } }));
    expect(server.requests.at(-1)!.path).toBe("/search.json");
    await overview.call(request({ model: "google-ai-overview" }));
    expect(server.requests.at(-1)!.path).toBe("/v3/serp/google/organic/live/advanced");
    await createGoogleAiOverviewAdapter(() => only("serpapi")).call(request({ model: "google-ai-overview" }));
    expect(server.requests.at(-1)!.path).toBe("/search.json");
  });

  it("the chosen API without credentials is permanent (not_configured) and sends nothing", async () => {
    const before = server.requests.length;
    const error = await failure(createGoogleAiOverviewAdapter(() => only("dataforseo")).call(request({ model: "serpapi" })));
    expect(error).toMatchObject({ retryClass: "permanent", reason: "not_configured" });
    expect((error as Error).message).toContain("SERPAPI_API_KEY");
    expect(server.requests.length).toBe(before);
  });

  it.each([
    ["search off", { searchMode: "off" as const }],
    ["no search allowed", { limits: { maxOutputTokens: 2048, maxSearchCalls: 0 } }],
  ])("%s is refused before any request: the budget reserved no search", async (_label, overrides) => {
    const before = server.requests.length;
    expect(await failure(overview.call(request(overrides)))).toMatchObject({ retryClass: "permanent", reason: "invalid_request" });
    expect(server.requests.length).toBe(before);
  });

  it("the registered adapters read DATAFORSEO_* and SERPAPI_*", async () => {
    const registered = adapterFor("google_ai_overview")!;
    expect(registered.configured()).toBe(true);
    expect((await registered.call(request())).sources.length).toBe(3);
    expect(server.requests.at(-1)!.headers.authorization).toBe(`Basic ${Buffer.from("env-login:env-pass").toString("base64")}`);
    await adapterFor("google_ai_mode")!.call(request({ model: "serpapi" }));
    expect(server.requests.at(-1)!.query.get("api_key")).toBe("env-serp-key");
  });
});
