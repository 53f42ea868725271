// Every new workspace starts with four simulated assistants, so it can run a check before anyone
// has an API key, and with one configuration per real provider API, shown as "not configured"
// until the server has that provider's key.
import type { Prisma } from "@/lib/generated/prisma/client";
import type { AdapterName, CallLimits, SearchMode } from "@/lib/providers/types";

type Prices = { input: number; output: number; cached: number; reasoning: number; search: number };

/**
 * List prices (PROVIDERS.md, 2026-11) in micro-dollars per 1M tokens and per search call; kept
 * as data that admins edit, these are only the starting values.
 */
export const LIST_PRICES: Record<Exclude<AdapterName, "simulator">, { model: string; prices: Prices }> = {
  openai: { model: "gpt-5-mini", prices: { input: 250_000, output: 2_000_000, cached: 25_000, reasoning: 2_000_000, search: 10_000 } },
  perplexity: { model: "sonar", prices: { input: 1_000_000, output: 1_000_000, cached: 1_000_000, reasoning: 0, search: 5_000 } },
  gemini: { model: "gemini-2.5-flash", prices: { input: 300_000, output: 2_500_000, cached: 75_000, reasoning: 2_500_000, search: 35_000 } },
  anthropic: { model: "claude-haiku-4-5", prices: { input: 1_000_000, output: 5_000_000, cached: 100_000, reasoning: 5_000_000, search: 10_000 } },
};

/**
 * The per-call limits a new provider configuration starts with (the ProviderConfig column
 * defaults), also what the CLI's `capture` sends when not told otherwise.
 */
export const DEFAULT_CALL_LIMITS: CallLimits = { maxOutputTokens: 2048, maxSearchCalls: 3 };

type DefaultProvider = { name: string; adapter: AdapterName; model: string; searchMode: SearchMode; prices: Prices; settings: Record<string, unknown> };

/** Simulated assistants with the manner, speed and list prices of the real ones. */
const SIMULATED: DefaultProvider[] = [
  { name: "ChatGPT", adapter: "simulator", searchMode: "auto", ...LIST_PRICES.openai, settings: { style: "chatgpt", latencyMinMs: 1500, latencyMaxMs: 5000, errorRate: 0.05 } },
  { name: "Perplexity", adapter: "simulator", searchMode: "on", ...LIST_PRICES.perplexity, settings: { style: "perplexity", latencyMinMs: 1000, latencyMaxMs: 3500, errorRate: 0.03 } },
  { name: "Gemini", adapter: "simulator", searchMode: "auto", ...LIST_PRICES.gemini, settings: { style: "gemini", latencyMinMs: 800, latencyMaxMs: 3000, errorRate: 0.05 } },
  { name: "Claude", adapter: "simulator", searchMode: "on", ...LIST_PRICES.anthropic, settings: { style: "claude", latencyMinMs: 2000, latencyMaxMs: 6000, errorRate: 0.03 } },
];

const REAL: DefaultProvider[] = [
  { name: "OpenAI API", adapter: "openai", searchMode: "auto", ...LIST_PRICES.openai, settings: {} },
  { name: "Perplexity API", adapter: "perplexity", searchMode: "on", ...LIST_PRICES.perplexity, settings: {} },
  { name: "Gemini API", adapter: "gemini", searchMode: "auto", ...LIST_PRICES.gemini, settings: {} },
  { name: "Claude API", adapter: "anthropic", searchMode: "on", ...LIST_PRICES.anthropic, settings: {} },
];

export function defaultProviderConfigs(): Prisma.ProviderConfigCreateManyWorkspaceInput[] {
  return [...SIMULATED, ...REAL].map((p) => ({
    name: p.name,
    adapter: p.adapter,
    model: p.model,
    searchMode: p.searchMode,
    inputPricePerMTokMicros: p.prices.input,
    outputPricePerMTokMicros: p.prices.output,
    cachedPricePerMTokMicros: p.prices.cached,
    reasoningPricePerMTokMicros: p.prices.reasoning,
    searchPriceMicros: p.prices.search,
    settings: p.settings as Prisma.InputJsonValue,
  }));
}
