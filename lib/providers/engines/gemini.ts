import { apiConnection, defineEngine } from "@/lib/providers/engine";

const listPrice = { model: "gemini-2.5-flash", prices: { input: 300_000, output: 2_500_000, cached: 75_000, reasoning: 2_500_000, search: 35_000 } };

export const geminiEngine = defineEngine({
  name: "gemini",
  label: "Google Gemini",
  cliName: "gemini",
  writesAnswers: true,
  envKeys: ["GEMINI_API_KEY", "GOOGLE_GEMINI_BASE_URL"],
  listPrice,
  defaultConnections: [apiConnection("Gemini", "Gemini API", listPrice, "auto")],
});
