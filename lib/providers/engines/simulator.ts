import { defineEngine, type EngineConnection, type ListPrice, type Prices, type SearchMode } from "@/lib/providers/engine";
import { anthropicEngine } from "@/lib/providers/engines/anthropic";
import { geminiEngine } from "@/lib/providers/engines/gemini";
import { gigachatEngine } from "@/lib/providers/engines/gigachat";
import { googleAiOverviewEngine } from "@/lib/providers/engines/google";
import { openaiEngine } from "@/lib/providers/engines/openai";
import { perplexityEngine } from "@/lib/providers/engines/perplexity";
import { yandexSearchEngine } from "@/lib/providers/engines/yandex";

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
  envKeys: [],
  listPrice: null,
  defaultConnections: [
    simulated("chatgpt", "ChatGPT", openaiEngine.listPrice, "auto", { latencyMinMs: 1500, latencyMaxMs: 5000, errorRate: 0.05 }),
    simulated("perplexity", "Perplexity", perplexityEngine.listPrice, "on", { latencyMinMs: 1000, latencyMaxMs: 3500, errorRate: 0.03 }),
    simulated("gemini", "Gemini", geminiEngine.listPrice, "auto", { latencyMinMs: 800, latencyMaxMs: 3000, errorRate: 0.05 }),
    simulated("claude", "Claude", anthropicEngine.listPrice, "on", { latencyMinMs: 2000, latencyMaxMs: 6000, errorRate: 0.03 }),
    // Google shows an AI Overview above some searches only: the rest are "no answer shown".
    persona("overview", "Google AI Overviews", "ai-overview", googleAiOverviewEngine.listPrice.prices, "on", { latencyMinMs: 1500, latencyMaxMs: 4000, errorRate: 0.02, noAnswerRate: 0.3 }),
    persona("chatgpt", "GigaChat", gigachatEngine.listPrice.model, gigachatEngine.listPrice.prices, "off", { latencyMinMs: 1000, latencyMaxMs: 4000, errorRate: 0.03 }),
    persona("perplexity", "Alice AI", "generative-search", yandexSearchEngine.listPrice.prices, "on", { latencyMinMs: 1500, latencyMaxMs: 4500, errorRate: 0.03 }),
  ],
});
