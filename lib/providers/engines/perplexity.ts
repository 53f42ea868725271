import { apiConnection, defineEngine } from "@/lib/providers/engine";

const listPrice = { model: "sonar", prices: { input: 1_000_000, output: 1_000_000, cached: 1_000_000, reasoning: 0, search: 5_000 } };

export const perplexityEngine = defineEngine({
  name: "perplexity",
  label: "Perplexity",
  cliName: "perplexity",
  writesAnswers: true,
  envKeys: ["PERPLEXITY_API_KEY", "PERPLEXITY_BASE_URL"],
  listPrice,
  defaultConnections: [apiConnection("Perplexity", "Perplexity API", listPrice, "on")],
});
