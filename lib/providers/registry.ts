import type { AdapterName, ProviderAdapter } from "@/lib/providers/types";
import { simulatorAdapter } from "@/lib/providers/simulator/simulator";
import { openaiAdapter } from "@/lib/providers/openai";
import { perplexityAdapter } from "@/lib/providers/perplexity";
import { geminiAdapter } from "@/lib/providers/gemini";
import { anthropicAdapter } from "@/lib/providers/anthropic";
import { googleAiModeAdapter, googleAiOverviewAdapter } from "@/lib/providers/google-serp";

// Real adapters (OpenAI, Perplexity, Gemini, Anthropic) register here as they are built.
const adapters: Partial<Record<AdapterName, ProviderAdapter>> = {
  simulator: simulatorAdapter,
  openai: openaiAdapter,
  perplexity: perplexityAdapter,
  gemini: geminiAdapter,
  anthropic: anthropicAdapter,
  google_ai_overview: googleAiOverviewAdapter,
  google_ai_mode: googleAiModeAdapter,
};

export function adapterFor(name: AdapterName): ProviderAdapter | undefined {
  return adapters[name];
}

export function isConfigured(name: AdapterName): boolean {
  return adapters[name]?.configured() ?? false;
}
