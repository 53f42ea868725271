// Google's AI Overviews and AI Mode, read through a SERP data API (lib/providers/google-serp.ts):
// they return what a search page shows, never our JSON. The connection's model names the API.
import { defineEngine, type EngineConnection, type ListPrice, type Prices } from "@/lib/providers/engine";

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

const envKeys = ["DATAFORSEO_LOGIN", "DATAFORSEO_PASSWORD", "DATAFORSEO_BASE_URL", "SERPAPI_API_KEY", "SERPAPI_BASE_URL"];

// SERP data APIs charge per request, no tokens; the "model" names the API.
// DataForSEO Live Google Organic SERP Advanced: $0.002 per SERP (dataforseo.com/pricing/serp/
// google-organic-serp-api, Live mode) + up to $0.0012 for load_async_ai_overview (refunded when
// the overview is absent or cached; docs "Live Google Organic SERP Advanced"), 2026-11.
const overviewListPrice = { model: "dataforseo", prices: { input: 0, output: 0, cached: 0, reasoning: 0, search: 3_200 } };

export const googleAiOverviewEngine = defineEngine({
  name: "google_ai_overview",
  label: "Google AI Overviews",
  cliName: "google-ai-overview",
  writesAnswers: false,
  envKeys,
  listPrice: overviewListPrice,
  defaultConnections: serpConnections("Google AI Overviews", overviewListPrice),
});

// DataForSEO Live Google AI Mode SERP Advanced: $0.004 per SERP page (dataforseo.com/pricing/serp/
// google-ai-mode-serp-api, Live mode), 2026-11.
const modeListPrice = { model: "dataforseo", prices: { input: 0, output: 0, cached: 0, reasoning: 0, search: 4_000 } };

export const googleAiModeEngine = defineEngine({
  name: "google_ai_mode",
  label: "Google AI Mode",
  cliName: "google-ai-mode",
  writesAnswers: false,
  envKeys,
  listPrice: modeListPrice,
  defaultConnections: serpConnections("Google AI Mode", modeListPrice),
});
