// A market is where a question is asked from and in which language: its prompt's country and
// language, either of which may be unset. Dashboards filter by markets and compare them. Pure:
// the filter bar uses it too (the SQL form is MARKET_OF_PROMPT in lib/analytics/filter.ts).

/** "DE:de", "US:" (no language), ":ru" (no country), ":" (neither). */
export const marketKey = (country: string | null | undefined, language: string | null | undefined) => `${country ?? ""}:${language ?? ""}`;

/** A valid market key, as the filter's query string carries it. */
export const MARKET_KEY = /^([A-Z]{2})?:([a-zA-Z]{2,3}(-[a-zA-Z0-9]{2,8})?)?$/;

function displayName(type: "region" | "language", code: string): string {
  try {
    return new Intl.DisplayNames(["en"], { type }).of(code) ?? code;
  } catch {
    return code; // a code Intl does not know is shown as it is
  }
}

function namedMarket(key: string): string | null {
  const [country = "", language = ""] = key.split(":");
  const parts = [country && displayName("region", country), language && displayName("language", language)].filter(Boolean);
  return parts.length ? parts.join(" · ") : null;
}

/**
 * A market among others (filters, comparisons): "Germany · German", "Russian", and for prompts
 * with neither country nor language "Prompts without a market": that group is not a market.
 */
export function marketLabel(key: string): string {
  return namedMarket(key) ?? "Prompts without a market";
}

/** One prompt's market: "Germany · German", or "No market set". */
export function promptMarketLabel(key: string): string {
  return namedMarket(key) ?? "No market set";
}
