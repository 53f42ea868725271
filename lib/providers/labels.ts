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

/** Whether a stored adapter (text) is one this code knows. */
export const isAdapterName = (name: string): name is AdapterName => Object.hasOwn(adapterLabels, name);

/** An adapter's label; a name this code does not know is shown as stored. */
export const adapterLabel = (name: string) => (isAdapterName(name) ? adapterLabels[name] : name);

export const searchModeLabels: Record<SearchMode, string> = {
  auto: "Model decides",
  on: "Always search",
  off: "Never search",
};
