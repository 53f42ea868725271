// Yandex Cloud's two engines: the Search API's generative response and the AI Studio models.
import { apiConnection, defineEngine } from "@/lib/providers/engine";

// Yandex prices in roubles (VAT included), converted at 1 USD = 80 RUB. Generative search:
// 5,080 RUB per 1,000 synchronous requests (aistudio.yandex.ru/docs/ru/search-api/pricing.html,
// checked 2026-11) = 5.08 RUB = $0.0635 per request, charged as its one search call; no tokens.
// The USD price list for contracts outside Russia says $41.64 per 1,000 without VAT.
const searchListPrice = { model: "generative-search", prices: { input: 0, output: 0, cached: 0, reasoning: 0, search: 63_500 } };

export const yandexSearchEngine = defineEngine({
  name: "yandex_search",
  label: "Yandex Search (generative)",
  cliName: "yandex-search",
  writesAnswers: false,
  envKeys: ["YANDEX_API_KEY", "YANDEX_FOLDER_ID", "YANDEX_SEARCH_BASE_URL"],
  listPrice: searchListPrice,
  defaultConnections: [apiConnection("Yandex Search", "Yandex Search (generative)", searchListPrice, "on")],
});

// YandexGPT Pro 5 (`yandexgpt`), common instance, synchronous: 1.20 RUB per 1,000 tokens in, out
// and cached (yandex.cloud/ru/docs/ai-studio/pricing, checked 2026-11) = 1,200 RUB = $15 per 1M.
// Others from the same table: yandexgpt-lite 0.20 RUB ($2.50 per 1M) in and out; Alice AI LLM
// (`aliceai-llm`) 0.50 RUB in ($6.25) and 1.20 RUB out ($15). No web search.
const gptListPrice = { model: "yandexgpt", prices: { input: 15_000_000, output: 15_000_000, cached: 15_000_000, reasoning: 15_000_000, search: 0 } };

export const yandexGptEngine = defineEngine({
  name: "yandexgpt",
  label: "YandexGPT / Alice AI",
  cliName: "yandexgpt",
  writesAnswers: true,
  envKeys: ["YANDEX_API_KEY", "YANDEX_FOLDER_ID", "YANDEX_LLM_BASE_URL"],
  listPrice: gptListPrice,
  defaultConnections: [apiConnection("YandexGPT", "YandexGPT API", gptListPrice, "off")],
});
