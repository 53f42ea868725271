// A paid answer whose analysis throws (a bug in the analyzer, an input it cannot take) is stored
// without mentions and re-analysed later; what the provider returned beside it cannot be rebuilt
// by a re-analysis, so its sources are kept when they can be read alone.
import { describe, expect, it } from "vitest";
import type { ProviderResponse } from "@/lib/providers/types";
import { successOf, type LoadedCapture } from "@/lib/lifecycle/run/run-capture";

const capture = {
  id: "00000000-0000-4000-8000-000000000001",
  brandId: "00000000-0000-4000-8000-000000000002",
  prompt: { text: "Best CRM?", country: null, city: null, language: "en" },
  connection: { inputPricePerMTokMicros: 1_000_000, outputPricePerMTokMicros: 2_000_000, cachedPricePerMTokMicros: 0, reasoningPricePerMTokMicros: 0, searchPriceMicros: 0 },
  // A brand row the mention analysis cannot read (its name and aliases missing): the analysis throws, as a
  // bug in it would. (Not a module mock: the unit tests share their modules.)
  brand: { analysisVersion: 3, name: null, aliases: null, domains: ["acme.example"], competitors: [] },
} as unknown as LoadedCapture;

const response: ProviderResponse = {
  text: "Acme is good, see https://acme.example/pricing and https://review.example/crm.",
  sources: [{ url: "https://review.example/crm", title: "CRM review", citedInText: true }],
  searchQueries: ["best crm"],
  usage: { inputTokens: 10, outputTokens: 20, reasoningTokens: 0, cachedTokens: 0, searchCalls: 1 },
};

describe("a paid answer whose analysis throws", () => {
  it("is stored unanalysed, with its sources and inline links, own pages marked", () => {
    const success = successOf(capture, response, 1200);
    expect(success).toMatchObject({ analysisVersion: null, mentions: [], candidates: [], text: response.text, searchQueries: ["best crm"] });
    expect(success.citations.map((c) => [c.domain, c.isOwnDomain]).sort()).toEqual([
      ["acme.example", true],
      ["review.example", false],
    ]);
  });
});
