import type { AdapterName, ProviderAdapter } from "@/lib/providers/types";
import { simulatorAdapter } from "@/lib/providers/simulator";
import { openaiAdapter } from "@/lib/providers/openai";
import { perplexityAdapter } from "@/lib/providers/perplexity";
import { geminiAdapter } from "@/lib/providers/gemini";
import { anthropicAdapter } from "@/lib/providers/anthropic";
import { gigachatAdapter } from "@/lib/providers/gigachat";
import { yandexSearchAdapter } from "@/lib/providers/yandex-search";
import { yandexGptAdapter } from "@/lib/providers/yandexgpt";
import { openAICompatibleAdapter } from "@/lib/providers/openai-compatible";
import { googleAiModeAdapter, googleAiOverviewAdapter } from "@/lib/providers/google-serp";

// The code that calls each engine of lib/engines/engines.ts (tsc holds the two lists equal).
const adapters = new Map<string, ProviderAdapter>(Object.entries({
  simulator: simulatorAdapter,
  openai: openaiAdapter,
  perplexity: perplexityAdapter,
  gemini: geminiAdapter,
  anthropic: anthropicAdapter,
  gigachat: gigachatAdapter,
  yandex_search: yandexSearchAdapter,
  yandexgpt: yandexGptAdapter,
  openai_compatible: openAICompatibleAdapter,
  google_ai_overview: googleAiOverviewAdapter,
  google_ai_mode: googleAiModeAdapter,
} satisfies Record<AdapterName, ProviderAdapter>));

/** The adapter a connection names (its column is text: an engine no longer here has none). */
export function adapterFor(name: string): ProviderAdapter | undefined {
  return adapters.get(name);
}

/** Whether this server can call a connection with this adapter and these settings. */
export function isConfigured(name: string, settings?: unknown): boolean {
  return adapters.get(name)?.configured(settingsOf(settings)) ?? false;
}

/** Why a connection is not configured on this server (undefined when it is). */
export function notConfiguredReason(name: string, settings?: unknown): string | undefined {
  const adapter = adapters.get(name);
  if (!adapter) return `No ${name} adapter on this server`;
  if (adapter.configured(settingsOf(settings))) return undefined;
  return adapter.notConfiguredReason?.(settingsOf(settings)) || "This server has no API key for this adapter";
}

/** A connection's settings column (JSON) as adapters take it. */
function settingsOf(settings: unknown): Record<string, unknown> | undefined {
  return settings && typeof settings === "object" && !Array.isArray(settings) ? (settings as Record<string, unknown>) : undefined;
}
