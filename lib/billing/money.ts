// Money is integer micro-dollars everywhere (1 USD = 1,000,000). Prices are micro-dollars per
// million tokens and per search call, so cost = tokens * price / 1e6 stays exact in a double
// for any realistic volume (< 2^53).
import type { CallLimits, Usage } from "@/lib/providers/types";
import type { SearchMode } from "@/lib/providers/types";

export type PriceTable = {
  inputPricePerMTokMicros: number;
  outputPricePerMTokMicros: number;
  cachedPricePerMTokMicros: number;
  reasoningPricePerMTokMicros: number;
  searchPriceMicros: number;
};

/** The price table of a connection (or anything that carries one), alone. */
export function priceTableOf(price: PriceTable): PriceTable {
  const { inputPricePerMTokMicros, outputPricePerMTokMicros, cachedPricePerMTokMicros, reasoningPricePerMTokMicros, searchPriceMicros } = price;
  return { inputPricePerMTokMicros, outputPricePerMTokMicros, cachedPricePerMTokMicros, reasoningPricePerMTokMicros, searchPriceMicros };
}

/** A call's cost: what the provider reported when it did, else its usage at the price table. */
export function costOf(usage: Usage, price: PriceTable): number {
  if (usage.providerCostMicros !== undefined && Number.isFinite(usage.providerCostMicros) && usage.providerCostMicros >= 0) return Math.ceil(usage.providerCostMicros);
  const cached = Math.min(usage.cachedTokens, usage.inputTokens);
  const tokenMicros =
    (usage.inputTokens - cached) * price.inputPricePerMTokMicros +
    cached * price.cachedPricePerMTokMicros +
    usage.outputTokens * price.outputPricePerMTokMicros +
    usage.reasoningTokens * price.reasoningPricePerMTokMicros;
  return Math.ceil(tokenMicros / 1_000_000) + usage.searchCalls * price.searchPriceMicros;
}

/** Typical answer size used to estimate a capture before it runs. */
const ESTIMATED_OUTPUT_TOKENS = 700;

/** Pages a web search adds to the model's input, in tokens. */
const ESTIMATED_SEARCH_CONTEXT_TOKENS = 900;

/** Input tokens a search result may add, at most, per search call (the worst case's allowance). */
export const SEARCH_CONTEXT_ALLOWANCE_TOKENS = 4_000;

const promptTokens = (promptText: string) => Math.ceil(promptText.length / 4) + 60;

/** The typical cost of a call: what a check holds per capture when it is created. */
export function estimateUsage(promptText: string, searchMode: SearchMode): Usage {
  return {
    inputTokens: promptTokens(promptText) + (searchMode === "off" ? 0 : ESTIMATED_SEARCH_CONTEXT_TOKENS),
    outputTokens: ESTIMATED_OUTPUT_TOKENS,
    reasoningTokens: 0,
    cachedTokens: 0,
    searchCalls: searchMode === "off" ? 0 : 1,
  };
}

/**
 * The most one call may cost under the limits sent with it (lib/providers/types.ts CallLimits):
 * every output token at the dearer of the output and reasoning prices, every search used, and
 * the search context allowance per search. The budget reserves this before the call starts.
 */
export function worstCaseCost(promptText: string, searchMode: SearchMode, limits: CallLimits, price: PriceTable): number {
  const searches = searchMode === "off" ? 0 : limits.maxSearchCalls;
  const outputPrice = Math.max(price.outputPricePerMTokMicros, price.reasoningPricePerMTokMicros);
  return costOf(
    { inputTokens: promptTokens(promptText) + searches * SEARCH_CONTEXT_ALLOWANCE_TOKENS, outputTokens: limits.maxOutputTokens, reasoningTokens: 0, cachedTokens: 0, searchCalls: searches },
    { ...price, outputPricePerMTokMicros: outputPrice, cachedPricePerMTokMicros: price.inputPricePerMTokMicros },
  );
}

/**
 * What an attempt whose outcome is unknown (timeout, abort, lost worker) is charged: the typical
 * estimate, never more than the worst case that was reserved for it.
 */
export function unknownOutcomeCost(promptText: string, searchMode: SearchMode, limits: CallLimits, price: PriceTable): number {
  return Math.min(costOf(estimateUsage(promptText, searchMode), price), worstCaseCost(promptText, searchMode, limits, price));
}
