// The provider connections a fresh instance starts with (lib/connections/defaults.ts creates the
// missing ones on every migrate), and the list prices they start from.
import type { AdapterName, CallLimits, SearchMode } from "@/lib/providers/types";

type Prices = { input: number; output: number; cached: number; reasoning: number; search: number };

/**
 * Adapters without a list price: an OpenAI-compatible connection can point at any server
 * (DeepSeek, xAI, Mistral, a local vLLM or Ollama), so its price table is only the operator's.
 */
type UnpricedAdapter = "simulator" | "openai_compatible";

/**
 * List prices (PROVIDERS.md, 2026-11) in micro-dollars per 1M tokens and per search call; kept
 * as data that admins edit, these are only the starting values.
 */
export const LIST_PRICES: Record<Exclude<AdapterName, UnpricedAdapter>, { model: string; prices: Prices }> = {
  openai: { model: "gpt-5-mini", prices: { input: 250_000, output: 2_000_000, cached: 25_000, reasoning: 2_000_000, search: 10_000 } },
  perplexity: { model: "sonar", prices: { input: 1_000_000, output: 1_000_000, cached: 1_000_000, reasoning: 0, search: 5_000 } },
  gemini: { model: "gemini-2.5-flash", prices: { input: 300_000, output: 2_500_000, cached: 75_000, reasoning: 2_500_000, search: 35_000 } },
  anthropic: { model: "claude-haiku-4-5", prices: { input: 1_000_000, output: 5_000_000, cached: 100_000, reasoning: 5_000_000, search: 10_000 } },
  // GigaChat bills roubles per token, input and output alike: GigaChat-2-Pro 500 RUB per 1M tokens
  // (Sber's pay-as-you-go list price for businesses, developers.sber.ru/docs/ru/gigachat/tariffs,
  // as last seen in 2025; new tariffs apply from 2026-02-01 and could not be checked here),
  // converted at 1 USD = 80 RUB: $6.25 per 1M. Precached prompt tokens are deducted from what
  // GigaChat bills, hence cached 0. No search: the adapter never searches (lib/providers/gigachat.ts).
  gigachat: { model: "GigaChat-2-Pro", prices: { input: 6_250_000, output: 6_250_000, cached: 0, reasoning: 6_250_000, search: 0 } },
  // Yandex prices in roubles (VAT included), converted at 1 USD = 80 RUB. Generative search:
  // 5,080 RUB per 1,000 synchronous requests (aistudio.yandex.ru/docs/ru/search-api/pricing.html,
  // checked 2026-11) = 5.08 RUB = $0.0635 per request, charged as its one search call; no tokens.
  // The USD price list for contracts outside Russia says $41.64 per 1,000 without VAT.
  yandex_search: { model: "generative-search", prices: { input: 0, output: 0, cached: 0, reasoning: 0, search: 63_500 } },
  // YandexGPT Pro 5 (`yandexgpt`), common instance, synchronous: 1.20 RUB per 1,000 tokens in, out
  // and cached (yandex.cloud/ru/docs/ai-studio/pricing, checked 2026-11) = 1,200 RUB = $15 per 1M.
  // Others from the same table: yandexgpt-lite 0.20 RUB ($2.50 per 1M) in and out; Alice AI LLM
  // (`aliceai-llm`) 0.50 RUB in ($6.25) and 1.20 RUB out ($15). No web search.
  yandexgpt: { model: "yandexgpt", prices: { input: 15_000_000, output: 15_000_000, cached: 15_000_000, reasoning: 15_000_000, search: 0 } },
  // SERP data APIs charge per request, no tokens; the "model" names the API (lib/providers/google-serp.ts).
  // DataForSEO Live Google Organic SERP Advanced: $0.002 per SERP (dataforseo.com/pricing/serp/
  // google-organic-serp-api, Live mode) + up to $0.0012 for load_async_ai_overview (refunded when
  // the overview is absent or cached; docs "Live Google Organic SERP Advanced"), 2026-11.
  google_ai_overview: { model: "dataforseo", prices: { input: 0, output: 0, cached: 0, reasoning: 0, search: 3_200 } },
  // DataForSEO Live Google AI Mode SERP Advanced: $0.004 per SERP page (dataforseo.com/pricing/serp/
  // google-ai-mode-serp-api, Live mode), 2026-11.
  google_ai_mode: { model: "dataforseo", prices: { input: 0, output: 0, cached: 0, reasoning: 0, search: 4_000 } },
};

/**
 * SerpApi bills searches by monthly plan: Developer, $75 for 5,000 searches = $0.015 a search
 * (serpapi.com/pricing, 2026-11), the same for engine=google, google_ai_overview (the page_token
 * request is a second search) and google_ai_mode. Searches served from its 1-hour cache are free.
 */
export const SERPAPI_LIST_PRICES: Prices = { input: 0, output: 0, cached: 0, reasoning: 0, search: 15_000 };

/** The list prices of an adapter's model: the Google engines' "serpapi" model is SerpApi's plan price. */
export function listPricesOf(adapter: keyof typeof LIST_PRICES, model: string): Prices {
  if ((adapter === "google_ai_overview" || adapter === "google_ai_mode") && model === "serpapi") return SERPAPI_LIST_PRICES;
  return LIST_PRICES[adapter].prices;
}

/**
 * The per-call limits a new provider configuration starts with (the ProviderConfig column
 * defaults), also what the CLI's `capture` sends when not told otherwise.
 */
export const DEFAULT_CALL_LIMITS: CallLimits = { maxOutputTokens: 2048, maxSearchCalls: 3 };

/** The circuit breaker thresholds a new connection starts with (the column defaults). */
export const DEFAULT_BREAKER_SETTINGS = {
  breakerWindowSize: 20,
  breakerMinCalls: 10,
  breakerFailureRatePct: 50,
  breakerOpenSeconds: 45,
  breakerSlowCallMs: 60_000,
  breakerSlowCallIsFailure: false,
  breakerProbeTimeoutMs: 15_000,
};

type DefaultConnection = {
  /** The connection's name (instance-wide); the migration that introduced connections uses these names too. */
  name: string;
  /** What a workspace's provider on it is called when it is created for the workspace. */
  providerName: string;
  adapter: AdapterName;
  models: string[];
  searchMode: SearchMode;
  prices: Prices;
  settings: Record<string, unknown>;
  grantedToAll: boolean;
};

const simulated = (style: string, providerName: string, prices: (typeof LIST_PRICES)[keyof typeof LIST_PRICES], searchMode: SearchMode, settings: Record<string, unknown>): DefaultConnection => ({
  name: `Simulated ${providerName}`,
  providerName,
  adapter: "simulator",
  models: [prices.model],
  searchMode,
  prices: prices.prices,
  settings: { style, ...settings },
  grantedToAll: true,
});

/**
 * A simulated answer engine beyond the four assistants (Google's AI Overviews, GigaChat, Alice AI):
 * granted to no workspace by default (the demo workspace has them, disabled: lib/seed/demo.ts).
 */
const persona = (style: string, providerName: string, model: string, prices: Prices, searchMode: SearchMode, settings: Record<string, unknown>): DefaultConnection => ({
  name: `Simulated ${providerName}`,
  providerName,
  adapter: "simulator",
  models: [model],
  searchMode,
  prices,
  settings: { style, ...settings },
  grantedToAll: false,
});

const serp = (engine: string, adapter: AdapterName, api: "dataforseo" | "serpapi", prices: Prices): DefaultConnection => {
  const name = `${engine} (${api === "dataforseo" ? "DataForSEO" : "SerpApi"})`;
  return { name, providerName: name, adapter, models: [api], searchMode: "on", prices, settings: {}, grantedToAll: false };
};

/**
 * The connections a fresh instance starts with: four simulated assistants with the manner, speed
 * and list prices of the real ones, usable by every workspace (no API key needed), three more
 * simulated engines for the demo, and one per
 * real API (two for each Google engine read through a SERP API), granted to no workspace until an
 * operator says so (and usable only once the server has the API key in its environment).
 */
export const DEFAULT_CONNECTIONS: DefaultConnection[] = [
  simulated("chatgpt", "ChatGPT", LIST_PRICES.openai, "auto", { latencyMinMs: 1500, latencyMaxMs: 5000, errorRate: 0.05 }),
  simulated("perplexity", "Perplexity", LIST_PRICES.perplexity, "on", { latencyMinMs: 1000, latencyMaxMs: 3500, errorRate: 0.03 }),
  simulated("gemini", "Gemini", LIST_PRICES.gemini, "auto", { latencyMinMs: 800, latencyMaxMs: 3000, errorRate: 0.05 }),
  simulated("claude", "Claude", LIST_PRICES.anthropic, "on", { latencyMinMs: 2000, latencyMaxMs: 6000, errorRate: 0.03 }),
  // Google shows an AI Overview above some searches only: the rest are "no answer shown".
  persona("overview", "Google AI Overviews", "ai-overview", LIST_PRICES.google_ai_overview.prices, "on", { latencyMinMs: 1500, latencyMaxMs: 4000, errorRate: 0.02, noAnswerRate: 0.3 }),
  persona("chatgpt", "GigaChat", LIST_PRICES.gigachat.model, LIST_PRICES.gigachat.prices, "off", { latencyMinMs: 1000, latencyMaxMs: 4000, errorRate: 0.03 }),
  persona("perplexity", "Alice AI", "generative-search", LIST_PRICES.yandex_search.prices, "on", { latencyMinMs: 1500, latencyMaxMs: 4500, errorRate: 0.03 }),
  { name: "OpenAI", providerName: "OpenAI API", adapter: "openai", models: [LIST_PRICES.openai.model], searchMode: "auto", prices: LIST_PRICES.openai.prices, settings: {}, grantedToAll: false },
  { name: "Perplexity", providerName: "Perplexity API", adapter: "perplexity", models: [LIST_PRICES.perplexity.model], searchMode: "on", prices: LIST_PRICES.perplexity.prices, settings: {}, grantedToAll: false },
  { name: "Gemini", providerName: "Gemini API", adapter: "gemini", models: [LIST_PRICES.gemini.model], searchMode: "auto", prices: LIST_PRICES.gemini.prices, settings: {}, grantedToAll: false },
  { name: "Anthropic", providerName: "Claude API", adapter: "anthropic", models: [LIST_PRICES.anthropic.model], searchMode: "on", prices: LIST_PRICES.anthropic.prices, settings: {}, grantedToAll: false },
  { name: "GigaChat", providerName: "GigaChat API", adapter: "gigachat", models: [LIST_PRICES.gigachat.model], searchMode: "off", prices: LIST_PRICES.gigachat.prices, settings: {}, grantedToAll: false },
  { name: "Yandex Search", providerName: "Yandex Search (generative)", adapter: "yandex_search", models: [LIST_PRICES.yandex_search.model], searchMode: "on", prices: LIST_PRICES.yandex_search.prices, settings: {}, grantedToAll: false },
  { name: "YandexGPT", providerName: "YandexGPT API", adapter: "yandexgpt", models: [LIST_PRICES.yandexgpt.model], searchMode: "off", prices: LIST_PRICES.yandexgpt.prices, settings: {}, grantedToAll: false },
  // One connection per SERP API: their prices differ fivefold. The model names the API.
  serp("Google AI Overviews", "google_ai_overview", "dataforseo", LIST_PRICES.google_ai_overview.prices),
  serp("Google AI Overviews", "google_ai_overview", "serpapi", SERPAPI_LIST_PRICES),
  serp("Google AI Mode", "google_ai_mode", "dataforseo", LIST_PRICES.google_ai_mode.prices),
  serp("Google AI Mode", "google_ai_mode", "serpapi", SERPAPI_LIST_PRICES),
];

/** What a workspace calls its provider on a connection by default. */
export const defaultProviderName = (connection: { name: string }) => DEFAULT_CONNECTIONS.find((d) => d.name === connection.name)?.providerName ?? connection.name;

/** The search mode a new provider on a connection starts with. */
export const defaultSearchMode = (connection: { name: string }): SearchMode => DEFAULT_CONNECTIONS.find((d) => d.name === connection.name)?.searchMode ?? "auto";
