// Every new workspace starts with four simulated assistants, so it can run a check before anyone
// has an API key. Admins switch a configuration to a real adapter once its key is set.
import type { Prisma } from "@/lib/generated/prisma/client";

/**
 * Four simulated assistants with the manner, speed and list prices of the real ones, so a
 * first-run check looks like a real multi-provider run. Prices: micro-dollars per 1M tokens and
 * per search call (PROVIDERS.md list prices).
 */
const SIMULATED_PROVIDERS = [
  {
    name: "ChatGPT",
    model: "gpt-5-mini",
    searchMode: "auto" as const,
    prices: { input: 250_000, output: 2_000_000, cached: 25_000, reasoning: 2_000_000, search: 10_000 },
    settings: { style: "chatgpt", latencyMinMs: 1500, latencyMaxMs: 5000, errorRate: 0.05, permanentErrorRate: 0, timeoutRate: 0 },
  },
  {
    name: "Perplexity",
    model: "sonar",
    searchMode: "on" as const,
    prices: { input: 1_000_000, output: 1_000_000, cached: 1_000_000, reasoning: 0, search: 5_000 },
    settings: { style: "perplexity", latencyMinMs: 1000, latencyMaxMs: 3500, errorRate: 0.03, permanentErrorRate: 0, timeoutRate: 0 },
  },
  {
    name: "Gemini",
    model: "gemini-2.5-flash",
    searchMode: "auto" as const,
    prices: { input: 300_000, output: 2_500_000, cached: 75_000, reasoning: 2_500_000, search: 35_000 },
    settings: { style: "gemini", latencyMinMs: 800, latencyMaxMs: 3000, errorRate: 0.05, permanentErrorRate: 0, timeoutRate: 0 },
  },
  {
    name: "Claude",
    model: "claude-haiku-4-5",
    searchMode: "on" as const,
    prices: { input: 1_000_000, output: 5_000_000, cached: 100_000, reasoning: 0, search: 10_000 },
    settings: { style: "claude", latencyMinMs: 2000, latencyMaxMs: 6000, errorRate: 0.03, permanentErrorRate: 0, timeoutRate: 0 },
  },
];

export function defaultProviderConfigs(): Prisma.ProviderConfigCreateManyWorkspaceInput[] {
  return SIMULATED_PROVIDERS.map((p) => ({
    name: p.name,
    adapter: "simulator",
    model: p.model,
    searchMode: p.searchMode,
    inputPricePerMTokMicros: p.prices.input,
    outputPricePerMTokMicros: p.prices.output,
    cachedPricePerMTokMicros: p.prices.cached,
    reasoningPricePerMTokMicros: p.prices.reasoning,
    searchPriceMicros: p.prices.search,
    settings: p.settings,
  }));
}
