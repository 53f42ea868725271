import { defineEngine } from "@/lib/providers/engine";

/**
 * Any server speaking OpenAI's chat completions (DeepSeek, xAI, Mistral, a local vLLM or Ollama):
 * no list price, since its price table is only the operator's; each connection names its server
 * and its key's variable (OPENAI_COMPATIBLE_<NAME>), so none exists by default.
 */
export const openaiCompatibleEngine = defineEngine({
  name: "openai_compatible",
  label: "OpenAI-compatible (DeepSeek, Grok, Mistral, vLLM, Ollama)",
  cliName: "openai-compatible",
  writesAnswers: true,
  envKeys: ["OPENAI_COMPATIBLE_API_KEY", "OPENAI_COMPATIBLE_<NAME>"],
  listPrice: null,
  defaultConnections: [],
});
