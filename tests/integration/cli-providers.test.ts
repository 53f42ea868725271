// `npm run beacon -- capture` against a local server speaking each provider's wire format: the
// real CLI process, the real SDK, real HTTP. The printed result must be what the adapter
// extracts from that provider's recorded answer, with the cost of its list prices.
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { costOf } from "@/lib/billing/money";
import { DEFAULT_CALL_LIMITS, LIST_PRICES } from "@/lib/providers/defaults";
import { createAnthropicAdapter } from "@/lib/providers/anthropic";
import { createGeminiAdapter } from "@/lib/providers/gemini";
import { createGigaChatAdapter } from "@/lib/providers/gigachat";
import { createOpenAIAdapter } from "@/lib/providers/openai";
import { createPerplexityAdapter } from "@/lib/providers/perplexity";
import { createYandexSearchAdapter } from "@/lib/providers/yandex-search";
import { createYandexGptAdapter } from "@/lib/providers/yandexgpt";
import type { ProviderAdapter } from "@/lib/providers/types";
import { startFakeAnthropic } from "@/tests/support/fake-providers/anthropic-server";
import { startFakeGemini } from "@/tests/support/fake-providers/gemini-server";
import { startFakeGigaChat } from "@/tests/support/fake-providers/gigachat-server";
import { startFakeOpenAI } from "@/tests/support/fake-providers/openai-server";
import { startFakePerplexity } from "@/tests/support/fake-providers/perplexity-server";
import { startFakeYandexGpt, startFakeYandexSearch } from "@/tests/support/fake-providers/yandex-server";

const run = promisify(execFile);
const tsx = path.resolve("node_modules/tsx/dist/cli.mjs");

type Server = { url: string; requests: { body: Record<string, unknown> }[]; close: () => Promise<void> };
const cases: {
  adapter: keyof typeof LIST_PRICES;
  /** What --provider is given, when not the adapter name. */
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
];

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

    const { stdout } = await run(process.execPath, [tsx, "--conditions=react-server", "scripts/beacon.ts", "capture", "--provider", c.cli ?? c.adapter, "--prompt", prompt, "--search", search], {
      env: { ...process.env, ...c.env(url) },
      timeout: 60_000,
    });
    const printed = JSON.parse(stdout);
    const p = LIST_PRICES[c.adapter].prices;
    expect(printed).toMatchObject({ ok: true, text: expected.text, sources: expected.sources, searchQueries: expected.searchQueries, usage: expected.usage });
    // GigaChat and the Yandex models do not search; the Yandex generative search is priced per request, not per token.
    if (search === "on" && c.adapter !== "yandexgpt") expect(printed.sources.length).toBeGreaterThan(0);
    expect(printed.text.length).toBeGreaterThan(0);
    if (c.adapter !== "yandex_search") expect(printed.usage.inputTokens).toBeGreaterThan(0);
    expect(printed.costMicros).toBeGreaterThan(0);
    expect(printed.costMicros).toBe(
      costOf(expected.usage, { inputPricePerMTokMicros: p.input, outputPricePerMTokMicros: p.output, cachedPricePerMTokMicros: p.cached, reasoningPricePerMTokMicros: p.reasoning, searchPriceMicros: p.search }),
    );
    expect(printed.latencyMs).toBeGreaterThanOrEqual(0);
  });
});

describe("beacon capture limits", () => {
  const capture = (flags: string[]) =>
    run(process.execPath, [tsx, "--conditions=react-server", "scripts/beacon.ts", "capture", "--provider", "openai", "--prompt", "Best CRM?", "--search", "auto", ...flags], {
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
