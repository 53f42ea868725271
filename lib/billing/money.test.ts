import { describe, expect, it } from "vitest";
import { costOf, estimateUsage } from "./money";

const price = { inputPricePerMTokMicros: 250_000, outputPricePerMTokMicros: 2_000_000, cachedPricePerMTokMicros: 25_000, reasoningPricePerMTokMicros: 2_000_000, searchPriceMicros: 10_000 };

describe("costOf", () => {
  it("prices tokens per million and searches per call, in micro-dollars", () => {
    // 1,000 input at $0.25/M = 250; 500 output at $2/M = 1,000; 2 searches at $0.01 = 20,000
    expect(costOf({ inputTokens: 1000, outputTokens: 500, reasoningTokens: 0, cachedTokens: 0, searchCalls: 2 }, price)).toBe(21_250);
  });

  it("bills cached input at the cached price and reasoning tokens at theirs", () => {
    expect(costOf({ inputTokens: 1000, outputTokens: 0, reasoningTokens: 1000, cachedTokens: 400, searchCalls: 0 }, price)).toBe(150 + 10 + 2000);
  });

  it("rounds fractions of a micro-dollar up", () => {
    expect(costOf({ inputTokens: 1, outputTokens: 0, reasoningTokens: 0, cachedTokens: 0, searchCalls: 0 }, price)).toBe(1);
  });
});

describe("estimateUsage", () => {
  it("adds search context only when search can happen", () => {
    expect(estimateUsage("abcd".repeat(10), "off").inputTokens).toBe(70);
    expect(estimateUsage("abcd".repeat(10), "auto").searchCalls).toBe(1);
    expect(estimateUsage("abcd".repeat(10), "on").inputTokens).toBeGreaterThan(900);
  });
});
