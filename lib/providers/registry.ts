// Every answer engine, once. Each module exports its descriptor beside its adapter (name, label,
// CLI name, whether it writes answers, environment variables, list price, default connections:
// lib/providers/engine.ts); the adapter names (the AdapterName type and the zod enum that
// validates provider_connections.adapter), labels, the CLI's --provider list, list prices, the
// default connections and the validation of the engines' variables at start all derive from
// ENGINES. Adding an engine: its module and its line here (docs/providers.md "Adding an engine").
// Server-only: the browser gets what it shows from a server component (engineChoices).
import "server-only";
import type { z } from "zod";
import { envReader } from "@/lib/config/env";
import type { ListPrice } from "@/lib/providers/engine";
import type { EngineChoice } from "@/lib/providers/labels";
import type { ProviderAdapter } from "@/lib/providers/types";
import { connectionInputSchemaFor } from "@/lib/providers/schemas";
import { simulatorEngine } from "@/lib/providers/simulator";
import { openaiEngine } from "@/lib/providers/openai";
import { perplexityEngine } from "@/lib/providers/perplexity";
import { geminiEngine } from "@/lib/providers/gemini";
import { anthropicEngine } from "@/lib/providers/anthropic";
import { gigachatEngine } from "@/lib/providers/gigachat";
import { yandexSearchEngine } from "@/lib/providers/yandex-search";
import { yandexGptEngine } from "@/lib/providers/yandexgpt";
import { openAICompatibleEngine } from "@/lib/providers/openai-compatible";
import { googleAiModeEngine, googleAiOverviewEngine } from "@/lib/providers/google-serp";

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
  openAICompatibleEngine,
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

/**
 * What an operator sets on a connection, its adapter one of ENGINES (lib/connections/connections.ts).
 * Typed as text, as the column and the connection form's copy of the schema are.
 */
export const connectionInputSchema = connectionInputSchemaFor<string>(ADAPTER_NAMES);

/** The engines as the browser shows them (labels, the connection form's choices), in ENGINES' order. */
export const engineChoices = (): EngineChoice[] => ENGINES.map((e) => ({ name: e.name, label: e.label }));

/** Every engine's variables with their validation (engines that share a variable share its schema). */
const ENGINE_ENV: z.ZodRawShape = Object.assign({}, ...ENGINES.map((e) => e.env));

const engineEnv = envReader(ENGINE_ENV);

/**
 * Validates every engine's variables at once, as env() does the others: the launcher calls both
 * at start (scripts/run.ts), so a bad value stops it there, not at the engine's first call.
 */
export function validateEngineEnv(): void {
  engineEnv();
}

const adapters = new Map<string, ProviderAdapter>(ENGINES.map((e) => [e.name, e.adapter]));

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
