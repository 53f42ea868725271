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

/** "Germany · German", "Russian", "No market set". */
export function marketLabel(key: string): string {
  const [country = "", language = ""] = key.split(":");
  const parts = [country && displayName("region", country), language && displayName("language", language)].filter(Boolean);
  return parts.length ? parts.join(" · ") : "No market set";
}
