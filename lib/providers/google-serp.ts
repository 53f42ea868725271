// Google AI Overviews (`google_ai_overview`) and Google AI Mode (`google_ai_mode`), read through a
// SERP data API: DataForSEO (lib/providers/dataforseo.ts) or SerpApi (lib/providers/serpapi.ts).
// These APIs charge per request, not per token: usage is searchCalls (1, or 2 when SerpApi needs
// its page_token request) and no tokens. A SERP without an overview is `noAnswer`, not an error.
//
// Which API: the connection's settings `{ "serp": "dataforseo" | "serpapi" }`, else the model
// when it names one (the default connections' models are "dataforseo" and "serpapi", which an
// operator's edit keeps), else whichever has credentials, DataForSEO first.
//
// Each request is one HTTP call with one JSON answer (no stream). Aborting closes the connection
// at once; there is no cancel endpoint, and the provider may still bill the request.
import { envReader } from "@/lib/config/env";
import { apiKeyVariable, baseUrlVariable, defineEngine, type EngineConnection, type ListPrice, type Prices } from "@/lib/providers/engine";
import { CallAbortedError, ProviderError, abortReasonOf } from "@/lib/providers/errors";
import { callDataForSeo, type DataForSeoCredentials } from "@/lib/providers/dataforseo";
import { callSerpApi, type SerpApiCredentials } from "@/lib/providers/serpapi";
import type { SerpSurface } from "@/lib/providers/serp-http";
import type { ProviderAdapter, ProviderRequest, ProviderResponse } from "@/lib/providers/types";

export type SerpBackend = "dataforseo" | "serpapi";
export type GoogleSerpConnection = { dataforseo: DataForSeoCredentials; serpapi: SerpApiCredentials };

const NAMES: Record<SerpSurface, string> = { ai_overview: "Google AI Overviews", ai_mode: "Google AI Mode" };

const hasCredentials = (connection: GoogleSerpConnection, backend: SerpBackend) =>
  backend === "dataforseo" ? Boolean(connection.dataforseo.login && connection.dataforseo.password) : Boolean(connection.serpapi.apiKey);

const isBackend = (value: unknown): value is SerpBackend => value === "dataforseo" || value === "serpapi";

export function serpBackendFor(connection: GoogleSerpConnection, request: Pick<ProviderRequest, "settings" | "model">): SerpBackend | undefined {
  const chosen = request.settings?.serp;
  if (isBackend(chosen)) return chosen;
  if (isBackend(request.model)) return request.model;
  return (["dataforseo", "serpapi"] as const).find((b) => hasCredentials(connection, b));
}

async function call(surface: SerpSurface, connection: GoogleSerpConnection, request: ProviderRequest): Promise<ProviderResponse> {
  const name = NAMES[surface];
  const backend = serpBackendFor(connection, request);
  if (!backend || !hasCredentials(connection, backend)) {
    const missing = backend === "serpapi" ? "SERPAPI_API_KEY is not set" : backend === "dataforseo" ? "DATAFORSEO_LOGIN and DATAFORSEO_PASSWORD are not set" : "set DATAFORSEO_LOGIN and DATAFORSEO_PASSWORD, or SERPAPI_API_KEY";
    throw new ProviderError(`${name} is not configured (${missing})`, { retryClass: "permanent", reason: "not_configured" });
  }
  if (request.signal.aborted) throw new CallAbortedError(abortReasonOf(request.signal));
  // The request IS a search: with search off or no search allowed, the budget reserved nothing for it.
  if (request.searchMode === "off" || request.limits.maxSearchCalls < 1) {
    throw new ProviderError(`${name} reads Google's search results page: it needs search on and at least 1 search per call`, { retryClass: "permanent", reason: "invalid_request" });
  }
  return backend === "dataforseo" ? callDataForSeo(surface, connection.dataforseo, request) : callSerpApi(surface, connection.serpapi, request);
}

function createAdapter(surface: SerpSurface, connection: () => GoogleSerpConnection): ProviderAdapter {
  return {
    name: surface === "ai_overview" ? "google_ai_overview" : "google_ai_mode",
    configured: () => hasCredentials(connection(), "dataforseo") || hasCredentials(connection(), "serpapi"),
    call: (request) => call(surface, connection(), request),
  };
}

/** Adapters reading their credentials and base URLs at call time (tests pass their own). */
export const createGoogleAiOverviewAdapter = (connection: () => GoogleSerpConnection) => createAdapter("ai_overview", connection);
export const createGoogleAiModeAdapter = (connection: () => GoogleSerpConnection) => createAdapter("ai_mode", connection);

// DataForSEO (login + password, Basic auth) and/or SerpApi (API key): a connection picks one;
// either makes both engines configured.
const variables = {
  DATAFORSEO_LOGIN: apiKeyVariable,
  DATAFORSEO_PASSWORD: apiKeyVariable,
  DATAFORSEO_BASE_URL: baseUrlVariable,
  SERPAPI_API_KEY: apiKeyVariable,
  SERPAPI_BASE_URL: baseUrlVariable,
};
const config = envReader(variables);

const fromEnv = (): GoogleSerpConnection => {
  const e = config();
  return {
    dataforseo: { login: e.DATAFORSEO_LOGIN, password: e.DATAFORSEO_PASSWORD, baseURL: e.DATAFORSEO_BASE_URL },
    serpapi: { apiKey: e.SERPAPI_API_KEY, baseURL: e.SERPAPI_BASE_URL },
  };
};

/**
 * SerpApi bills searches by monthly plan: Developer, $75 for 5,000 searches = $0.015 a search
 * (serpapi.com/pricing, 2026-11), the same for engine=google, google_ai_overview (the page_token
 * request is a second search) and google_ai_mode. Searches served from its 1-hour cache are free.
 */
export const SERPAPI_LIST_PRICES: Prices = { input: 0, output: 0, cached: 0, reasoning: 0, search: 15_000 };

// One connection per SERP API: their prices differ fivefold. The model names the API.
const serpConnections = (engine: string, dataforseo: ListPrice): EngineConnection[] =>
  (["dataforseo", "serpapi"] as const).map((api) => {
    const name = `${engine} (${api === "dataforseo" ? "DataForSEO" : "SerpApi"})`;
    const prices = api === "dataforseo" ? dataforseo.prices : SERPAPI_LIST_PRICES;
    return { name, providerName: name, models: [api], searchMode: "on", prices, settings: {}, grantedToAll: false };
  });

// Both surfaces read the same variables and backends; each is its own engine with its own price.
const serpEngine = <const N extends string>(name: N, surface: SerpSurface, listPrice: ListPrice) =>
  defineEngine({
    name,
    label: NAMES[surface],
    writesAnswers: false,
    env: variables,
    listPrice,
    defaultConnections: serpConnections(NAMES[surface], listPrice),
    adapter: createAdapter(surface, fromEnv),
  });

// SERP data APIs charge per request, no tokens; the "model" names the API.
// DataForSEO Live Google Organic SERP Advanced: $0.002 per SERP (dataforseo.com/pricing/serp/
// google-organic-serp-api, Live mode) + up to $0.0012 for load_async_ai_overview (refunded when
// the overview is absent or cached; docs "Live Google Organic SERP Advanced"), 2026-11.
const overviewListPrice = { model: "dataforseo", prices: { input: 0, output: 0, cached: 0, reasoning: 0, search: 3_200 } };

export const googleAiOverviewEngine = serpEngine("google_ai_overview", "ai_overview", overviewListPrice);

// DataForSEO Live Google AI Mode SERP Advanced: $0.004 per SERP page (dataforseo.com/pricing/serp/
// google-ai-mode-serp-api, Live mode), 2026-11.
const modeListPrice = { model: "dataforseo", prices: { input: 0, output: 0, cached: 0, reasoning: 0, search: 4_000 } };

export const googleAiModeEngine = serpEngine("google_ai_mode", "ai_mode", modeListPrice);
