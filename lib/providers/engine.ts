// What an answer engine is: one module each (lib/providers/<engine>.ts) exports its descriptor,
// made by defineEngine, beside the adapter that calls it. The list of them, ENGINES in
// lib/providers/registry.ts, is the source of the adapter names, the zod enum, labels, the CLI's
// list, list prices, the default connections and the engines' environment variables. Server
// code: browser code receives the labels it needs from a server component (registry.ts
// engineChoices), never this module or an adapter.
import { z } from "zod";
import type { ProviderAdapter, SearchMode } from "@/lib/providers/types";

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

/** Environment variables and how each is validated (read with lib/config/env.ts envReader). */
export type EnvShape = z.ZodRawShape;

export type Engine<N extends string = string, L extends ListPrice | null = ListPrice | null, E extends EnvShape = EnvShape> = {
  /** Stored in provider_connections.adapter (text, validated against the list). */
  name: N;
  /** Shown in Settings → Providers and the Instance page. */
  label: string;
  /** `beacon capture --provider <cliName>`: the name with hyphens (defineEngine). */
  cliName: string;
  /**
   * Whether it writes answers to any instruction (the setup wizard's suggestions need that);
   * SERP-based engines return what a search page shows, never our JSON.
   */
  writesAnswers: boolean;
  /**
   * The environment variables it reads and their validation, all validated at start
   * (registry.ts validateEngineEnv). Engines that share a variable (Yandex's two, Google's two)
   * share its schema object.
   */
  env: E;
  /** Null for engines without a list price (the simulator; any OpenAI-compatible server). */
  listPrice: L;
  defaultConnections: EngineConnection[];
  /** The code that calls it. */
  adapter: ProviderAdapter;
};

/**
 * Keeps the engine's name a literal type, so the list of engines is the AdapterName type; its CLI
 * name is the name with hyphens for underscores (`yandex_search` -> `yandex-search`).
 */
export const defineEngine = <const N extends string, L extends ListPrice | null, E extends EnvShape>(engine: Omit<Engine<N, L, E>, "cliName">): Engine<N, L, E> => ({
  ...engine,
  cliName: engine.name.replaceAll("_", "-"),
});

// Real engines: a key that is missing shows the connection as "not configured"; a base URL points
// the adapter at another endpoint (a proxy, or a local server in tests).
export const apiKeyVariable = z.string().min(1).optional();
export const baseUrlVariable = z.string().url().optional();

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
