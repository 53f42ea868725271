import type { AdapterName, ProviderAdapter } from "@/lib/providers/types";
import { simulatorAdapter } from "@/lib/providers/simulator/simulator";

// Real adapters (OpenAI, Perplexity, Gemini, Anthropic) register here as they are built.
const adapters: Partial<Record<AdapterName, ProviderAdapter>> = { simulator: simulatorAdapter };

export function adapterFor(name: AdapterName): ProviderAdapter | undefined {
  return adapters[name];
}

export function isConfigured(name: AdapterName): boolean {
  return adapters[name]?.configured() ?? false;
}
