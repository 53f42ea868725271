// Money is integer micro-dollars everywhere (1 USD = 1,000,000). Prices are micro-dollars per
// million tokens and per search call, so cost = tokens * price / 1e6 stays exact in a double
// for any realistic volume (< 2^53).
import type { Usage } from "@/lib/providers/types";

export type PriceTable = {
  inputPricePerMTokMicros: number;
  outputPricePerMTokMicros: number;
  cachedPricePerMTokMicros: number;
  reasoningPricePerMTokMicros: number;
  searchPriceMicros: number;
};

export function costOf(usage: Usage, price: PriceTable): number {
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

export function estimateUsage(promptText: string, searchMode: "on" | "off" | "auto"): Usage {
  return {
    inputTokens: Math.ceil(promptText.length / 4) + 60 + (searchMode === "off" ? 0 : ESTIMATED_SEARCH_CONTEXT_TOKENS),
    outputTokens: ESTIMATED_OUTPUT_TOKENS,
    reasoningTokens: 0,
    cachedTokens: 0,
    searchCalls: searchMode === "off" ? 0 : 1,
  };
}

export function formatMicros(micros: number | bigint, options: { precise?: boolean } = {}): string {
  const dollars = Number(micros) / 1_000_000;
  if (options.precise || (dollars !== 0 && Math.abs(dollars) < 0.01)) return `$${dollars.toFixed(4)}`;
  return `$${dollars.toFixed(2)}`;
}
