// Every answer engine, once: what it is called, what it reads from the environment, what it costs
// and the connections a fresh instance has for it. The adapter names (the AdapterName type and
// the zod enum that validates provider_connections.adapter), labels, the CLI's --provider list,
// list prices, the default connections and the engines' part of lib/config/env.ts's schema all
// derive from ENGINES. Adding an engine: its descriptor here, its adapter in
// lib/providers/registry.ts (docs/providers.md "Adding an engine"). Plain data and zod only:
// browser code imports this file, and lib/config sits above it.
import { z } from "zod";
import { apiConnection, defineEngine, type EngineConnection, type ListPrice, type Prices, type SearchMode } from "@/lib/engines/engine";

// Real engines: a key that is missing shows the connection as "not configured"; a base URL points
// the adapter at another endpoint (a proxy, or a local server in tests).
const key = z.string().min(1).optional();
const baseUrl = z.string().url().optional();

const openaiListPrice = { model: "gpt-5-mini", prices: { input: 250_000, output: 2_000_000, cached: 25_000, reasoning: 2_000_000, search: 10_000 } };

export const openaiEngine = defineEngine({
  name: "openai",
  label: "OpenAI",
  cliName: "openai",
  writesAnswers: true,
  env: { OPENAI_API_KEY: key, OPENAI_BASE_URL: baseUrl },
  listPrice: openaiListPrice,
  defaultConnections: [apiConnection("OpenAI", "OpenAI API", openaiListPrice, "auto")],
});

const perplexityListPrice = { model: "sonar", prices: { input: 1_000_000, output: 1_000_000, cached: 1_000_000, reasoning: 0, search: 5_000 } };

export const perplexityEngine = defineEngine({
  name: "perplexity",
  label: "Perplexity",
  cliName: "perplexity",
  writesAnswers: true,
  env: { PERPLEXITY_API_KEY: key, PERPLEXITY_BASE_URL: baseUrl },
  listPrice: perplexityListPrice,
  defaultConnections: [apiConnection("Perplexity", "Perplexity API", perplexityListPrice, "on")],
});

const geminiListPrice = { model: "gemini-2.5-flash", prices: { input: 300_000, output: 2_500_000, cached: 75_000, reasoning: 2_500_000, search: 35_000 } };

export const geminiEngine = defineEngine({
  name: "gemini",
  label: "Google Gemini",
  cliName: "gemini",
  writesAnswers: true,
  env: { GEMINI_API_KEY: key, GOOGLE_GEMINI_BASE_URL: baseUrl },
  listPrice: geminiListPrice,
  defaultConnections: [apiConnection("Gemini", "Gemini API", geminiListPrice, "auto")],
});

const anthropicListPrice = { model: "claude-haiku-4-5", prices: { input: 1_000_000, output: 5_000_000, cached: 100_000, reasoning: 5_000_000, search: 10_000 } };

export const anthropicEngine = defineEngine({
  name: "anthropic",
  label: "Anthropic",
  cliName: "anthropic",
  writesAnswers: true,
  env: { ANTHROPIC_API_KEY: key, ANTHROPIC_BASE_URL: baseUrl },
  listPrice: anthropicListPrice,
  defaultConnections: [apiConnection("Anthropic", "Claude API", anthropicListPrice, "on")],
});

// GigaChat bills roubles per token, input and output alike: GigaChat-2-Pro 500 RUB per 1M tokens
// (Sber's pay-as-you-go list price for businesses, developers.sber.ru/docs/ru/gigachat/tariffs,
// as last seen in 2025; new tariffs apply from 2026-02-01 and could not be checked here),
// converted at 1 USD = 80 RUB: $6.25 per 1M. Precached prompt tokens are deducted from what
// GigaChat bills, hence cached 0. No search: the adapter never searches (lib/providers/gigachat.ts).
const gigachatListPrice = { model: "GigaChat-2-Pro", prices: { input: 6_250_000, output: 6_250_000, cached: 0, reasoning: 6_250_000, search: 0 } };

export const gigachatEngine = defineEngine({
  name: "gigachat",
  label: "GigaChat",
  cliName: "gigachat",
  writesAnswers: true,
  // The authorization key (base64 of client_id:client_secret) is exchanged for an access token at
  // GIGACHAT_AUTH_URL with GIGACHAT_SCOPE. Sber's endpoints use the Russian Trusted Root CA: give
  // its certificate in NODE_EXTRA_CA_CERTS or GIGACHAT_CA_CERT_FILE.
  env: {
    GIGACHAT_CREDENTIALS: key,
    GIGACHAT_SCOPE: z.enum(["GIGACHAT_API_PERS", "GIGACHAT_API_B2B", "GIGACHAT_API_CORP"]).default("GIGACHAT_API_PERS"),
    GIGACHAT_AUTH_URL: z.string().url().default("https://ngw.devices.sberbank.ru:9443/api/v2/oauth"),
    GIGACHAT_BASE_URL: z.string().url().default("https://gigachat.devices.sberbank.ru/api/v1"),
    GIGACHAT_CA_CERT_FILE: z.string().min(1).optional(),
  },
  listPrice: gigachatListPrice,
  defaultConnections: [apiConnection("GigaChat", "GigaChat API", gigachatListPrice, "off")],
});

// Yandex Cloud's two engines, the Search API's generative response and the AI Studio models
// (YandexGPT, Alice AI), share one API key (sent as `Authorization: Api-Key <key>`) and the
// folder it bills.
const yandexAccount = { YANDEX_API_KEY: key, YANDEX_FOLDER_ID: z.string().min(1).optional() };

// Yandex prices in roubles (VAT included), converted at 1 USD = 80 RUB. Generative search:
// 5,080 RUB per 1,000 synchronous requests (aistudio.yandex.ru/docs/ru/search-api/pricing.html,
// checked 2026-11) = 5.08 RUB = $0.0635 per request, charged as its one search call; no tokens.
// The USD price list for contracts outside Russia says $41.64 per 1,000 without VAT.
const yandexSearchListPrice = { model: "generative-search", prices: { input: 0, output: 0, cached: 0, reasoning: 0, search: 63_500 } };

export const yandexSearchEngine = defineEngine({
  name: "yandex_search",
  label: "Yandex Search (generative)",
  cliName: "yandex-search",
  writesAnswers: false,
  env: { ...yandexAccount, YANDEX_SEARCH_BASE_URL: baseUrl },
  listPrice: yandexSearchListPrice,
  defaultConnections: [apiConnection("Yandex Search", "Yandex Search (generative)", yandexSearchListPrice, "on")],
});

// YandexGPT Pro 5 (`yandexgpt`), common instance, synchronous: 1.20 RUB per 1,000 tokens in, out
// and cached (yandex.cloud/ru/docs/ai-studio/pricing, checked 2026-11) = 1,200 RUB = $15 per 1M.
// Others from the same table: yandexgpt-lite 0.20 RUB ($2.50 per 1M) in and out; Alice AI LLM
// (`aliceai-llm`) 0.50 RUB in ($6.25) and 1.20 RUB out ($15). No web search.
const yandexGptListPrice = { model: "yandexgpt", prices: { input: 15_000_000, output: 15_000_000, cached: 15_000_000, reasoning: 15_000_000, search: 0 } };

export const yandexGptEngine = defineEngine({
  name: "yandexgpt",
  label: "YandexGPT / Alice AI",
  cliName: "yandexgpt",
  writesAnswers: true,
  env: { ...yandexAccount, YANDEX_LLM_BASE_URL: baseUrl },
  listPrice: yandexGptListPrice,
  defaultConnections: [apiConnection("YandexGPT", "YandexGPT API", yandexGptListPrice, "off")],
});

/**
 * Any server speaking OpenAI's chat completions (DeepSeek, xAI, Mistral, a local vLLM or Ollama):
 * no list price, since its price table is only the operator's; each connection names its server
 * and its key's variable (OPENAI_COMPATIBLE_<NAME>, read at call time by openAICompatibleKey in
 * lib/config/env.ts), so none exists by default.
 */
export const openaiCompatibleEngine = defineEngine({
  name: "openai_compatible",
  label: "OpenAI-compatible (DeepSeek, Grok, Mistral, vLLM, Ollama)",
  cliName: "openai-compatible",
  writesAnswers: true,
  // What the CLI's `capture --provider openai-compatible` sends unless given --api-key-env.
  env: { OPENAI_COMPATIBLE_API_KEY: key },
  listPrice: null,
  defaultConnections: [],
});

// Google's AI Overviews and AI Mode, read through a SERP data API (lib/providers/google-serp.ts):
// they return what a search page shows, never our JSON. The connection's model names the API.

/**
 * SerpApi bills searches by monthly plan: Developer, $75 for 5,000 searches = $0.015 a search
 * (serpapi.com/pricing, 2026-11), the same for engine=google, google_ai_overview (the page_token
 * request is a second search) and google_ai_mode. Searches served from its 1-hour cache are free.
 */
export const SERPAPI_LIST_PRICES: Prices = { input: 0, output: 0, cached: 0, reasoning: 0, search: 15_000 };

// One connection per SERP API: their prices differ fivefold. The model names the API.
const serpConnections = (engine: string, dataforseo: ListPrice): EngineConnection[] =>
  (["dataforseo", "serpapi"] as const).map((api) => {
    const name = `${engine} (${api === "dataforseo" ? "DataForSEO" : "SerpApi"})`;
    const prices = api === "dataforseo" ? dataforseo.prices : SERPAPI_LIST_PRICES;
    return { name, providerName: name, models: [api], searchMode: "on", prices, settings: {}, grantedToAll: false };
  });

// DataForSEO (login + password, Basic auth) and/or SerpApi (API key): a connection picks one;
// either makes both engines configured.
const serpEnv = {
  DATAFORSEO_LOGIN: key,
  DATAFORSEO_PASSWORD: key,
  DATAFORSEO_BASE_URL: baseUrl,
  SERPAPI_API_KEY: key,
  SERPAPI_BASE_URL: baseUrl,
};

// SERP data APIs charge per request, no tokens; the "model" names the API.
// DataForSEO Live Google Organic SERP Advanced: $0.002 per SERP (dataforseo.com/pricing/serp/
// google-organic-serp-api, Live mode) + up to $0.0012 for load_async_ai_overview (refunded when
// the overview is absent or cached; docs "Live Google Organic SERP Advanced"), 2026-11.
const overviewListPrice = { model: "dataforseo", prices: { input: 0, output: 0, cached: 0, reasoning: 0, search: 3_200 } };

export const googleAiOverviewEngine = defineEngine({
  name: "google_ai_overview",
  label: "Google AI Overviews",
  cliName: "google-ai-overview",
  writesAnswers: false,
  env: serpEnv,
  listPrice: overviewListPrice,
  defaultConnections: serpConnections("Google AI Overviews", overviewListPrice),
});

// DataForSEO Live Google AI Mode SERP Advanced: $0.004 per SERP page (dataforseo.com/pricing/serp/
// google-ai-mode-serp-api, Live mode), 2026-11.
const modeListPrice = { model: "dataforseo", prices: { input: 0, output: 0, cached: 0, reasoning: 0, search: 4_000 } };

export const googleAiModeEngine = defineEngine({
  name: "google_ai_mode",
  label: "Google AI Mode",
  cliName: "google-ai-mode",
  writesAnswers: false,
  env: serpEnv,
  listPrice: modeListPrice,
  defaultConnections: serpConnections("Google AI Mode", modeListPrice),
});

const simulated = (style: string, providerName: string, listPrice: ListPrice, searchMode: SearchMode, settings: Record<string, unknown>): EngineConnection => ({
  name: `Simulated ${providerName}`,
  providerName,
  models: [listPrice.model],
  searchMode,
  prices: listPrice.prices,
  settings: { style, ...settings },
  grantedToAll: true,
});

/**
 * A simulated answer engine beyond the four assistants (Google's AI Overviews, GigaChat, Alice AI):
 * granted to no workspace by default (the demo workspace has them, disabled: lib/seed/demo.ts).
 */
const persona = (style: string, providerName: string, model: string, prices: Prices, searchMode: SearchMode, settings: Record<string, unknown>): EngineConnection => ({
  name: `Simulated ${providerName}`,
  providerName,
  models: [model],
  searchMode,
  prices,
  settings: { style, ...settings },
  grantedToAll: false,
});

/**
 * Four simulated assistants with the manner, speed and list prices of the real ones, usable by
 * every workspace (no API key needed), and three more simulated engines for the demo.
 */
export const simulatorEngine = defineEngine({
  name: "simulator",
  label: "Simulator",
  cliName: "simulator",
  writesAnswers: true,
  // Overrides for tests and demos; each wins over the connection's settings.
  env: {
    SIMULATOR_LATENCY_MS: z
      .string()
      .regex(/^\d+(-\d+)?$/, "Use a number of milliseconds or a range such as 500-3000")
      .optional(),
    SIMULATOR_ERROR_RATE: z.coerce.number().min(0).max(1).optional(),
    SIMULATOR_PERMANENT_ERROR_RATE: z.coerce.number().min(0).max(1).optional(),
    SIMULATOR_TIMEOUT_RATE: z.coerce.number().min(0).max(1).optional(),
    SIMULATOR_SEED: z.string().optional(),
  },
  listPrice: null,
  defaultConnections: [
    simulated("chatgpt", "ChatGPT", openaiListPrice, "auto", { latencyMinMs: 1500, latencyMaxMs: 5000, errorRate: 0.05 }),
    simulated("perplexity", "Perplexity", perplexityListPrice, "on", { latencyMinMs: 1000, latencyMaxMs: 3500, errorRate: 0.03 }),
    simulated("gemini", "Gemini", geminiListPrice, "auto", { latencyMinMs: 800, latencyMaxMs: 3000, errorRate: 0.05 }),
    simulated("claude", "Claude", anthropicListPrice, "on", { latencyMinMs: 2000, latencyMaxMs: 6000, errorRate: 0.03 }),
    // Google shows an AI Overview above some searches only: the rest are "no answer shown".
    persona("overview", "Google AI Overviews", "ai-overview", overviewListPrice.prices, "on", { latencyMinMs: 1500, latencyMaxMs: 4000, errorRate: 0.02, noAnswerRate: 0.3 }),
    persona("chatgpt", "GigaChat", gigachatListPrice.model, gigachatListPrice.prices, "off", { latencyMinMs: 1000, latencyMaxMs: 4000, errorRate: 0.03 }),
    persona("perplexity", "Alice AI", "generative-search", yandexSearchListPrice.prices, "on", { latencyMinMs: 1500, latencyMaxMs: 4500, errorRate: 0.03 }),
  ],
});

// The order is the connection form's and the CLI's; default connections are created in it.
export const ENGINES = [
  simulatorEngine,
  openaiEngine,
  perplexityEngine,
  geminiEngine,
  anthropicEngine,
  gigachatEngine,
  yandexSearchEngine,
  yandexGptEngine,
  openaiCompatibleEngine,
  googleAiOverviewEngine,
  googleAiModeEngine,
] as const;

export type AdapterName = (typeof ENGINES)[number]["name"];

/** The engines with a list price (all but the simulator and OpenAI-compatible servers). */
export type PricedAdapter = Extract<(typeof ENGINES)[number], { listPrice: ListPrice }>["name"];

// The casts restate what the array holds: TypeScript does not carry a map's keys into its result.
export const ADAPTER_NAMES = ENGINES.map((e) => e.name) as [AdapterName, ...AdapterName[]];

/** Whether a stored adapter (text) is one this code knows. */
export const isAdapterName = (name: string): name is AdapterName => (ADAPTER_NAMES as string[]).includes(name);

export const engineOf = (name: AdapterName) => ENGINES.find((e) => e.name === name)!;

type UnionToIntersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;

/** Every engine's environment variables with their validation: lib/config/env.ts's engine part. */
export const ENGINE_ENV = Object.assign({}, ...ENGINES.map((e) => e.env)) as UnionToIntersection<(typeof ENGINES)[number]["env"]>;
