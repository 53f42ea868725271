// How adapters and search modes are named in the UI (Settings → Providers, the Instance page).
import type { AdapterName, SearchMode } from "@/lib/providers/types";

export const adapterLabels: Record<AdapterName, string> = {
  simulator: "Simulator",
  openai: "OpenAI",
  perplexity: "Perplexity",
  gemini: "Google Gemini",
  anthropic: "Anthropic",
  gigachat: "GigaChat",
  yandex_search: "Yandex Search (generative)",
  yandexgpt: "YandexGPT / Alice AI",
  openai_compatible: "OpenAI-compatible (DeepSeek, Grok, Mistral, vLLM, Ollama)",
  google_ai_overview: "Google AI Overviews",
  google_ai_mode: "Google AI Mode",
};

export const searchModeLabels: Record<SearchMode, string> = {
  auto: "Model decides",
  on: "Always search",
  off: "Never search",
};
