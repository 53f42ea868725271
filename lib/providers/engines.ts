// Every answer engine, once: the adapter names (the AdapterName type and the zod enum that
// validates provider_connections.adapter), labels, the CLI's --provider list, list prices and the
// default connections all derive from this array. Adding an engine: its descriptor here, its
// adapter in lib/providers/registry.ts (docs/providers.md "Adding an engine").
// The order is the connection form's and the CLI's; default connections are created in it.
import type { ListPrice } from "@/lib/providers/engine";
import { anthropicEngine } from "@/lib/providers/engines/anthropic";
import { geminiEngine } from "@/lib/providers/engines/gemini";
import { gigachatEngine } from "@/lib/providers/engines/gigachat";
import { googleAiModeEngine, googleAiOverviewEngine } from "@/lib/providers/engines/google";
import { openaiEngine } from "@/lib/providers/engines/openai";
import { openaiCompatibleEngine } from "@/lib/providers/engines/openai-compatible";
import { perplexityEngine } from "@/lib/providers/engines/perplexity";
import { simulatorEngine } from "@/lib/providers/engines/simulator";
import { yandexGptEngine, yandexSearchEngine } from "@/lib/providers/engines/yandex";

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
