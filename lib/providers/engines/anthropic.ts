import { apiConnection, defineEngine } from "@/lib/providers/engine";

const listPrice = { model: "claude-haiku-4-5", prices: { input: 1_000_000, output: 5_000_000, cached: 100_000, reasoning: 5_000_000, search: 10_000 } };

export const anthropicEngine = defineEngine({
  name: "anthropic",
  label: "Anthropic",
  cliName: "anthropic",
  writesAnswers: true,
  envKeys: ["ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL"],
  listPrice,
  defaultConnections: [apiConnection("Anthropic", "Claude API", listPrice, "on")],
});
