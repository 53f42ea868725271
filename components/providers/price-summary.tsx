import type { PriceTable } from "@/lib/billing/money";
import { formatMicros } from "@/lib/format";

/** A connection's prices in the units of pricing pages: per 1M tokens, and per 1,000 searches. */
export function PriceSummary({ prices }: { prices: PriceTable }) {
  return (
    <>
      <span className="whitespace-nowrap">
        {formatMicros(prices.inputPricePerMTokMicros)} in · {formatMicros(prices.outputPricePerMTokMicros)} out
      </span>
      <span className="block whitespace-nowrap text-xs text-slate-500">per 1M tokens</span>
      {/* Stored per search call; pricing pages quote it per 1,000 searches. */}
      {prices.searchPriceMicros > 0 && <span className="block whitespace-nowrap text-xs text-slate-500">{formatMicros(prices.searchPriceMicros * 1000)} / 1k searches</span>}
    </>
  );
}
