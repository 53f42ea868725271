// What an answer engine is, apart from the code that calls it: one descriptor per engine, all in
// ENGINES (lib/engines/engines.ts), from which the adapter names, the zod enum, labels, the CLI's
// list, list prices, the default connections and the engines' part of the environment schema
// (lib/config/env.ts) derive. Descriptors are plain data and zod schemas: safe in browser code,
// and below lib/config. The adapters (lib/providers/registry.ts) are neither.
import type { z } from "zod";

export type SearchMode = "on" | "off" | "auto";

/** Micro-dollars per 1M tokens and per search call. */
export type Prices = { input: number; output: number; cached: number; reasoning: number; search: number };

/** A model and its list prices (PROVIDERS.md), the values a connection starts with; admins edit them. */
export type ListPrice = { model: string; prices: Prices };

/** A connection a fresh instance starts with (lib/connections/defaults.ts creates the missing ones). */
export type EngineConnection = {
  /** The connection's name (instance-wide); the migration that introduced connections uses these names too. */
  name: string;
  /** What a workspace's provider on it is called when it is created for the workspace. */
  providerName: string;
  models: string[];
  searchMode: SearchMode;
  prices: Prices;
  settings: Record<string, unknown>;
  grantedToAll: boolean;
};

/** Environment variables and how each is validated (lib/config/env.ts parses them at start). */
export type EnvShape = z.ZodRawShape;

export type Engine<N extends string = string, L extends ListPrice | null = ListPrice | null, E extends EnvShape = EnvShape> = {
  /** Stored in provider_connections.adapter (text, validated against the list). */
  name: N;
  /** Shown in Settings → Providers and the Instance page. */
  label: string;
  /** `beacon capture --provider <cliName>`. */
  cliName: string;
  /**
   * Whether it writes answers to any instruction (the setup wizard's suggestions need that);
   * SERP-based engines return what a search page shows, never our JSON.
   */
  writesAnswers: boolean;
  /**
   * The environment variables it reads and their validation, merged into lib/config/env.ts's
   * schema. Engines that share a variable (Yandex's two, Google's two) share its schema object.
   */
  env: E;
  /** Null for engines without a list price (the simulator; any OpenAI-compatible server). */
  listPrice: L;
  defaultConnections: EngineConnection[];
};

/** Keeps the engine's name a literal type, so the list of engines is the AdapterName type. */
export const defineEngine = <const N extends string, L extends ListPrice | null, E extends EnvShape>(engine: Engine<N, L, E>) => engine;

/** A real API's connection, granted to no workspace until an operator says so. */
export const apiConnection = (name: string, providerName: string, listPrice: ListPrice, searchMode: SearchMode): EngineConnection => ({
  name,
  providerName,
  models: [listPrice.model],
  searchMode,
  prices: listPrice.prices,
  settings: {},
  grantedToAll: false,
});
