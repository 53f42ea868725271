// The provider connections a fresh instance starts with (lib/connections/defaults.ts creates the
// missing ones on every migrate), and the list prices they start from.
import type { SearchMode } from "@/lib/providers/types";
import type { EngineConnection, ListPrice, Prices } from "@/lib/providers/engine";
import { SERPAPI_LIST_PRICES } from "@/lib/providers/google-serp";
import { ENGINES, type AdapterName, type PricedAdapter } from "@/lib/providers/registry";

export { SERPAPI_LIST_PRICES };

/**
 * List prices (PROVIDERS.md, 2026-11) in micro-dollars per 1M tokens and per search call, from
 * each engine's descriptor; kept as data that admins edit, these are only the starting values.
 */
export const LIST_PRICES = Object.fromEntries(ENGINES.flatMap((e) => (e.listPrice ? [[e.name, e.listPrice]] : []))) as Record<PricedAdapter, ListPrice>;

/** The list prices of an adapter's model: the Google engines' "serpapi" model is SerpApi's plan price. */
export function listPricesOf(adapter: PricedAdapter, model: string): Prices {
  if ((adapter === "google_ai_overview" || adapter === "google_ai_mode") && model === "serpapi") return SERPAPI_LIST_PRICES;
  return LIST_PRICES[adapter].prices;
}

type DefaultConnection = EngineConnection & { adapter: AdapterName };

/**
 * The connections a fresh instance starts with, each engine's in the engines' order: four
 * simulated assistants usable by every workspace (no API key needed), three more simulated
 * engines for the demo, and one per real API (two for each Google engine read through a SERP
 * API), granted to no workspace until an operator says so (and usable only once the server has
 * the API key in its environment).
 */
export const DEFAULT_CONNECTIONS: DefaultConnection[] = ENGINES.flatMap((e) => e.defaultConnections.map((c) => ({ ...c, adapter: e.name })));

/** What a workspace calls its provider on a connection by default. */
export const defaultProviderName = (connection: { name: string }) => DEFAULT_CONNECTIONS.find((d) => d.name === connection.name)?.providerName ?? connection.name;

/** The search mode a new provider on a connection starts with. */
export const defaultSearchMode = (connection: { name: string }): SearchMode => DEFAULT_CONNECTIONS.find((d) => d.name === connection.name)?.searchMode ?? "auto";
