// The simulator's settings on a provider configuration (editable in Settings).
import { z } from "zod";

export const simulatorSettingsSchema = z.object({
  style: z.enum(["chatgpt", "perplexity", "gemini", "claude", "overview"]).default("chatgpt"),
  latencyMinMs: z.number().int().min(0).max(600_000).default(800),
  latencyMaxMs: z.number().int().min(0).max(600_000).default(3000),
  errorRate: z.number().min(0).max(1).default(0),
  permanentErrorRate: z.number().min(0).max(1).default(0),
  timeoutRate: z.number().min(0).max(1).default(0),
  /**
   * Share of calls where the engine shows no answer at all (Google's AI Overview appears above
   * some searches only): a result, not an error (ProviderResponse.noAnswer).
   */
  noAnswerRate: z.number().min(0).max(1).default(0),
});

export type SimulatorSettings = z.infer<typeof simulatorSettingsSchema>;
