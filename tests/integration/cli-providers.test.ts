// `npm run beacon -- capture` against a local server speaking each provider's wire format: the
// real CLI process, the real SDK, real HTTP. The printed result must be what the adapter
// extracts from that provider's recorded answer, with the cost of its list prices.
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { costOf } from "@/lib/billing/money";
import { LIST_PRICES, SERPAPI_LIST_PRICES } from "@/lib/providers/defaults";
import { DEFAULT_CALL_LIMITS } from "@/lib/providers/limits";
import { createAnthropicAdapter } from "@/lib/providers/anthropic";
import { createGeminiAdapter } from "@/lib/providers/gemini";
import { createGigaChatAdapter } from "@/lib/providers/gigachat";
import { createGoogleAiModeAdapter, createGoogleAiOverviewAdapter, type GoogleSerpConnection } from "@/lib/providers/google-serp";
import { createOpenAIAdapter } from "@/lib/providers/openai";
import { createPerplexityAdapter } from "@/lib/providers/perplexity";
import { createYandexSearchAdapter } from "@/lib/providers/yandex-search";
import { createYandexGptAdapter } from "@/lib/providers/yandexgpt";
import type { ProviderAdapter } from "@/lib/providers/types";
import { startFakeAnthropic } from "@/tests/support/fake-providers/anthropic-server";
import { startFakeGemini } from "@/tests/support/fake-providers/gemini-server";
import { startFakeGigaChat } from "@/tests/support/fake-providers/gigachat-server";
import { startFakeGoogleSerp } from "@/tests/support/fake-providers/google-serp-server";
import { startFakeOpenAI } from "@/tests/support/fake-providers/openai-server";
import { startFakePerplexity } from "@/tests/support/fake-providers/perplexity-server";
import { startFakeYandexGpt, startFakeYandexSearch } from "@/tests/support/fake-providers/yandex-server";
import { openAICompatibleAdapter } from "@/lib/providers/openai-compatible";
import { COMPATIBLE_ANSWER, COMPATIBLE_CITED_ANSWER, startFakeOpenAICompatible, type CompatibleScenario } from "@/tests/support/fake-providers/openai-compatible-server";
import type { FakeServer } from "@/tests/support/fake-providers/openai-server";
import { cliNodeArgs } from "@/scripts/lib/worker-bundle";

const run = promisify(execFile);

type Server = { url: string; requests: { body: Record<string, unknown> }[]; close: () => Promise<void> };
const serpEnv = (url: string) => ({ DATAFORSEO_LOGIN: "dfs-cli", DATAFORSEO_PASSWORD: "dfs-cli-pass", DATAFORSEO_BASE_URL: url, SERPAPI_API_KEY: "serp-cli", SERPAPI_BASE_URL: url });
const serpConnection = (url: string): GoogleSerpConnection => ({ dataforseo: { login: "dfs-cli", password: "dfs-cli-pass", baseURL: url }, serpapi: { apiKey: "serp-cli", baseURL: url } });
const cases: {
  adapter: keyof typeof LIST_PRICES;
  /** The --provider the command line takes (the adapter name unless hyphenated). */
  cli?: string;
  start: () => Promise<Server>;
  env: (url: string) => Record<string, string>;
  inProcess: (url: string) => ProviderAdapter;
  /** The search mode asked for (default on); a provider without search answers without sources. */
  search?: "on" | "off";
}[] = [
  { adapter: "openai", start: startFakeOpenAI, env: (url) => ({ OPENAI_API_KEY: "sk-cli", OPENAI_BASE_URL: url }), inProcess: (url) => createOpenAIAdapter(() => ({ apiKey: "sk-cli", baseURL: url })) },
  { adapter: "perplexity", start: startFakePerplexity, env: (url) => ({ PERPLEXITY_API_KEY: "pplx-cli", PERPLEXITY_BASE_URL: url }), inProcess: (url) => createPerplexityAdapter(() => ({ apiKey: "pplx-cli", baseURL: url })) },
  { adapter: "gemini", start: startFakeGemini, env: (url) => ({ GEMINI_API_KEY: "gem-cli", GOOGLE_GEMINI_BASE_URL: url }), inProcess: (url) => createGeminiAdapter(() => ({ apiKey: "gem-cli", baseUrl: url })) },
  { adapter: "anthropic", start: startFakeAnthropic, env: (url) => ({ ANTHROPIC_API_KEY: "sk-ant-cli", ANTHROPIC_BASE_URL: url }), inProcess: (url) => createAnthropicAdapter(() => ({ apiKey: "sk-ant-cli", baseURL: url })) },
  {
    adapter: "gigachat",
    start: startFakeGigaChat,
    env: (url) => ({ GIGACHAT_CREDENTIALS: "Z2lnYS1jbGk6c2VjcmV0", GIGACHAT_AUTH_URL: `${url}/api/v2/oauth`, GIGACHAT_BASE_URL: `${url}/api/v1` }),
    inProcess: (url) => createGigaChatAdapter(() => ({ credentials: "Z2lnYS1jbGk6c2VjcmV0", scope: "GIGACHAT_API_PERS", authUrl: `${url}/api/v2/oauth`, baseURL: `${url}/api/v1`, tls: {} })),
    search: "off",
  },
  {
    adapter: "yandex_search",
    cli: "yandex-search",
    start: startFakeYandexSearch,
    env: (url) => ({ YANDEX_API_KEY: "AQVN-cli", YANDEX_FOLDER_ID: "b1g-cli", YANDEX_SEARCH_BASE_URL: url }),
    inProcess: (url) => createYandexSearchAdapter(() => ({ apiKey: "AQVN-cli", folderId: "b1g-cli", baseURL: url })),
  },
  {
    adapter: "yandexgpt",
    start: startFakeYandexGpt,
    env: (url) => ({ YANDEX_API_KEY: "AQVN-cli", YANDEX_FOLDER_ID: "b1g-cli", YANDEX_LLM_BASE_URL: url }),
    inProcess: (url) => createYandexGptAdapter(() => ({ apiKey: "AQVN-cli", folderId: "b1g-cli", baseURL: url })),
  },
  { adapter: "google_ai_overview", cli: "google-ai-overview", start: startFakeGoogleSerp, env: serpEnv, inProcess: (url) => createGoogleAiOverviewAdapter(() => serpConnection(url)) },
  { adapter: "google_ai_mode", cli: "google-ai-mode", start: startFakeGoogleSerp, env: serpEnv, inProcess: (url) => createGoogleAiModeAdapter(() => serpConnection(url)) },
];

const capturePrinted = async (provider: string, env: Record<string, string>, flags: string[] = [], prompt = "What is the best CRM for a 10-person startup?") => {
  const { stdout } = await run(process.execPath, [...(await cliNodeArgs()), "capture", "--provider", provider, "--prompt", prompt, "--search", "on", ...flags], {
    env: { ...process.env, ...env },
    timeout: 60_000,
  });
  return JSON.parse(stdout) as Record<string, unknown> & { usage: { searchCalls: number } };
};

const servers = new Map<string, Server>();

beforeAll(async () => {
  for (const c of cases) servers.set(c.adapter, await c.start());
});

afterAll(async () => {
  await Promise.all([...servers.values()].map((s) => s.close()));
});

describe.each(cases)("beacon capture --provider $adapter ($cli)", (c) => {
  it("prints the sources, search queries, usage and cost the provider returned", async () => {
    const url = servers.get(c.adapter)!.url;
    const prompt = "What is the best CRM for a 10-person startup?";
    const model = LIST_PRICES[c.adapter].model;
    const search = c.search ?? "on";
    // The CLI sends a new provider configuration's limits unless told otherwise.
    const expected = await c.inProcess(url).call({ prompt, model, searchMode: search, limits: DEFAULT_CALL_LIMITS, signal: new AbortController().signal });

    const { stdout } = await run(process.execPath, [...(await cliNodeArgs()), "capture", "--provider", c.cli ?? c.adapter, "--prompt", prompt, "--search", search], {
      env: { ...process.env, ...c.env(url) },
      timeout: 60_000,
    });
    const printed = JSON.parse(stdout);
    const p = LIST_PRICES[c.adapter].prices;
    expect(printed).toMatchObject({ ok: true, text: expected.text, sources: expected.sources, searchQueries: expected.searchQueries, usage: expected.usage });
    // GigaChat and the Yandex models do not search; SERP APIs and the Yandex generative search bill the request, not tokens.
    if (search === "on" && c.adapter !== "yandexgpt") expect(printed.sources.length).toBeGreaterThan(0);
    expect(printed.text.length).toBeGreaterThan(0);
    if (["yandex_search", "google_ai_overview", "google_ai_mode"].includes(c.adapter)) expect(printed.usage.searchCalls).toBe(1);
    else expect(printed.usage.inputTokens).toBeGreaterThan(0);
    expect(printed.costMicros).toBeGreaterThan(0);
    expect(printed.costMicros).toBe(
      costOf(expected.usage, { inputPricePerMTokMicros: p.input, outputPricePerMTokMicros: p.output, cachedPricePerMTokMicros: p.cached, reasoningPricePerMTokMicros: p.reasoning, searchPriceMicros: p.search }),
    );
    expect(printed.latencyMs).toBeGreaterThanOrEqual(0);
  });
});

describe("beacon capture --provider openai-compatible", () => {
  let server: FakeServer<CompatibleScenario>;
  const prompt = "What is the best CRM for a 10-person startup?";
  const capture = async (flags: string[], env: Record<string, string> = {}) =>
    run(process.execPath, [...(await cliNodeArgs()), "capture", "--provider", "openai-compatible", "--prompt", prompt, ...flags], {
      env: { ...process.env, OPENAI_COMPATIBLE_API_KEY: "", ...env },
      timeout: 60_000,
    });
  const failed = (promise: Promise<unknown>) =>
    promise.then(
      () => undefined,
      (e: unknown) => e as { code?: number; stdout?: string; stderr?: string },
    );

  beforeAll(async () => {
    server = await startFakeOpenAICompatible();
  });
  afterAll(async () => {
    await server.close();
  });

  it("calls --base-url with --model and OPENAI_COMPATIBLE_API_KEY, prices 0 unless given", async () => {
    server.enqueue({ kind: "answer", answer: COMPATIBLE_CITED_ANSWER });
    const expected = await openAICompatibleAdapter.call({ prompt, model: "grok-4", searchMode: "off", limits: DEFAULT_CALL_LIMITS, signal: new AbortController().signal, settings: { baseURL: server.url } });
    server.enqueue({ kind: "answer", answer: COMPATIBLE_CITED_ANSWER });
    const { stdout, stderr } = await capture(["--base-url", server.url, "--model", "grok-4"], { OPENAI_COMPATIBLE_API_KEY: "xai-cli" });
    const printed = JSON.parse(stdout);
    expect(printed).toMatchObject({ ok: true, text: expected.text, sources: JSON.parse(JSON.stringify(expected.sources)), searchQueries: [], usage: expected.usage, costMicros: 0 });
    expect(printed.sources.length).toBeGreaterThan(0);
    expect(printed.usage.inputTokens).toBeGreaterThan(0);
    expect(stderr).toContain("costMicros is computed at 0 USD");
    const sent = server.requests.at(-1)!;
    expect(sent.headers.authorization).toBe("Bearer xai-cli");
    expect(sent.body).toMatchObject({ model: "grok-4", max_tokens: DEFAULT_CALL_LIMITS.maxOutputTokens, stream_options: { include_usage: true } });
  });

  it("--api-key-env names the key's variable; --input-price and --output-price price the usage", async () => {
    const { stdout } = await capture(["--base-url", server.url, "--model", "deepseek-chat", "--api-key-env", "OPENAI_COMPATIBLE_DEEPSEEK_KEY", "--input-price", "0.28", "--output-price", "0.42"], {
      OPENAI_COMPATIBLE_DEEPSEEK_KEY: "sk-deepseek-cli",
    });
    const printed = JSON.parse(stdout);
    expect(server.requests.at(-1)!.headers.authorization).toBe("Bearer sk-deepseek-cli");
    const { prompt_tokens, completion_tokens } = COMPATIBLE_ANSWER.usage;
    expect(printed).toMatchObject({ ok: true, text: COMPATIBLE_ANSWER.content, usage: { inputTokens: prompt_tokens, outputTokens: completion_tokens } });
    expect(printed.costMicros).toBe(costOf(printed.usage, { inputPricePerMTokMicros: 280_000, outputPricePerMTokMicros: 420_000, cachedPricePerMTokMicros: 280_000, reasoningPricePerMTokMicros: 420_000, searchPriceMicros: 0 }));
    expect(printed.costMicros).toBeGreaterThan(0);
  });

  it("an unset key variable is reported as not configured, without calling", async () => {
    const before = server.requests.length;
    const error = await failed(capture(["--base-url", server.url, "--model", "m", "--api-key-env", "OPENAI_COMPATIBLE_UNSET_KEY"]));
    expect(error?.code).toBe(1);
    expect(JSON.parse(error?.stdout ?? "{}")).toMatchObject({ ok: false, error: { reason: "not_configured", message: expect.stringContaining("OPENAI_COMPATIBLE_UNSET_KEY is not set") } });
    expect(server.requests.length).toBe(before);
  });

  it("refuses a missing --base-url and a key variable outside OPENAI_COMPATIBLE_*, without calling", async () => {
    const before = server.requests.length;
    const noUrl = await failed(capture(["--model", "m"]));
    expect(noUrl?.code).toBe(2);
    expect(noUrl?.stderr).toContain("needs --base-url and --model");
    const badEnv = await failed(capture(["--base-url", server.url, "--model", "m", "--api-key-env", "DATABASE_URL"]));
    expect(badEnv?.code).toBe(2);
    expect(badEnv?.stderr).toContain("--api-key-env: Name a variable that starts with OPENAI_COMPATIBLE_");
    expect(server.requests.length).toBe(before);
  });
});

describe("beacon capture --provider google-ai-overview", () => {
  const env = () => serpEnv(servers.get("google_ai_overview")!.url);

  it("prints a SERP without an AI Overview as noAnswer, costing its one search", async () => {
    const printed = await capturePrinted("google-ai-overview", env(), [], "fake:no-overview best CRM for a startup");
    expect(printed).toMatchObject({ ok: true, text: "", noAnswer: true, sources: [], usage: { inputTokens: 0, searchCalls: 1 }, costMicros: LIST_PRICES.google_ai_overview.prices.search });
  });

  it("--model serpapi reads SerpApi and costs its plan price per search", async () => {
    const server = servers.get("google_ai_overview")!;
    const printed = await capturePrinted("google-ai-overview", env(), ["--model", "serpapi"]);
    expect(printed).toMatchObject({ ok: true, usage: { searchCalls: 1 }, costMicros: SERPAPI_LIST_PRICES.search });
    expect(printed.text).toContain("HubSpot CRM");
    expect(server.requests.at(-1)!.body).toMatchObject({ engine: "google", q: "What is the best CRM for a 10-person startup?", api_key: "serp-cli" });
  });
});

describe("beacon capture limits", () => {
  const capture = async (flags: string[]) =>
    run(process.execPath, [...(await cliNodeArgs()), "capture", "--provider", "openai", "--prompt", "Best CRM?", "--search", "auto", ...flags], {
      env: { ...process.env, ...cases[0]!.env(servers.get("openai")!.url) },
      timeout: 60_000,
    });

  it("sends --max-output-tokens and --max-search-calls to the provider", async () => {
    const server = servers.get("openai")!;
    const before = server.requests.length;
    const { stdout } = await capture(["--max-output-tokens", "700", "--max-search-calls", "2"]);
    expect(JSON.parse(stdout)).toMatchObject({ ok: true });
    expect(server.requests.length).toBe(before + 1);
    expect(server.requests.at(-1)!.body).toMatchObject({ max_output_tokens: 700, max_tool_calls: 2 });
  });

  it("refuses limits out of range without calling", async () => {
    const server = servers.get("openai")!;
    const before = server.requests.length;
    const error = (await capture(["--max-search-calls", "21"]).then(
      () => undefined,
      (e: unknown) => e,
    )) as { code?: number; stderr?: string } | undefined;
    expect(error?.code).toBe(2);
    expect(error?.stderr).toContain("--max-search-calls: At most 20");
    expect(server.requests.length).toBe(before);
  });
});
