import { apiConnection, defineEngine } from "@/lib/providers/engine";

const listPrice = { model: "gpt-5-mini", prices: { input: 250_000, output: 2_000_000, cached: 25_000, reasoning: 2_000_000, search: 10_000 } };

export const openaiEngine = defineEngine({
  name: "openai",
  label: "OpenAI",
  cliName: "openai",
  writesAnswers: true,
  envKeys: ["OPENAI_API_KEY", "OPENAI_BASE_URL"],
  listPrice,
  defaultConnections: [apiConnection("OpenAI", "OpenAI API", listPrice, "auto")],
});
