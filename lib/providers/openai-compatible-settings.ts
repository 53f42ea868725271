// An OpenAI-compatible connection's settings (ProviderConnection.settings): which server to call
// and which environment variable holds its key. The key itself never enters the database. Pure,
// so the Instance page's form validates with it too.
import { z } from "zod";
import { OPENAI_COMPATIBLE_KEY_ENV } from "@/lib/config/openai-compatible-key";
import { text } from "@/lib/validation/text";

function httpUrlProblem(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return "Enter a full URL, e.g. https://api.deepseek.com or http://localhost:11434/v1";
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return "Use an http:// or https:// URL";
  if (url.username || url.password) return "Put the key in the environment (key variable), not in the URL";
  return undefined;
}

export const openAICompatibleSettingsSchema = z.object({
  /** Up to the path the SDK appends /chat/completions to (https://api.deepseek.com, http://localhost:8000/v1). */
  baseURL: text({ min: 1, max: 500, label: "The base URL" }).superRefine((value, ctx) => {
    const problem = httpUrlProblem(value);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  }),
  /** Unset: no Authorization header (a local vLLM or Ollama). */
  apiKeyEnv: text({ max: 100, label: "The key variable" })
    .pipe(z.string().regex(OPENAI_COMPATIBLE_KEY_ENV, "Name a variable that starts with OPENAI_COMPATIBLE_ (capitals, digits, _), e.g. OPENAI_COMPATIBLE_DEEPSEEK_KEY"))
    .optional(),
});

export type OpenAICompatibleSettings = z.output<typeof openAICompatibleSettingsSchema>;
