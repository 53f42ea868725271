import { z } from "zod";
import { openAICompatibleSettingsSchema } from "@/lib/providers/openai-compatible-settings";
import { simulatorSettingsSchema } from "@/lib/providers/simulator-settings";
import { text } from "@/lib/validation/text";

/**
 * The limits sent with every call of a provider configuration (ProviderRequest.limits). The budget
 * reserves the worst case they allow before each call, so they are bounded here too.
 */
export const callLimitsSchema = z.object({
  maxOutputTokens: z.number({ error: "Max output tokens must be a number" }).int("Use a whole number").min(1, "At least 1").max(200_000, "At most 200,000"),
  maxSearchCalls: z.number({ error: "Max searches must be a number" }).int("Use a whole number").min(0, "Cannot be negative").max(20, "At most 20"),
});

const micros = (label: string) => z.number({ error: `${label} must be a number` }).int().min(0, `${label} cannot be negative`).max(1_000_000_000, `${label} is too large`);

/**
 * What an operator sets on a connection, its adapter one of `adapters`: the server's list
 * (lib/providers/registry.ts connectionInputSchema), or the one the connection form was given.
 */
export const connectionInputSchemaFor = <A extends string>(adapters: readonly [A, ...A[]]) =>
  z
    .object({
      name: text({ min: 1, max: 60, label: "The name" }),
      adapter: z.enum(adapters),
      models: z
        .array(text({ min: 1, max: 100, label: "A model" }))
        .min(1, "Allow at least one model")
        .max(50, "Allow at most 50 models")
        .transform((list) => [...new Set(list)]),
      enabled: z.boolean(),
      grantedToAll: z.boolean(),
      inputPricePerMTokMicros: micros("Input price"),
      outputPricePerMTokMicros: micros("Output price"),
      cachedPricePerMTokMicros: micros("Cached input price"),
      reasoningPricePerMTokMicros: micros("Reasoning price"),
      searchPriceMicros: micros("Search price"),
      maxConcurrency: z.number().int().min(1, "At least 1").max(100, "At most 100"),
      maxAttempts: z.number().int().min(1, "At least 1").max(10, "At most 10"),
      unknownRetries: z.number().int().min(0).max(5, "At most 5"),
      timeoutMs: z.number().int().min(1000, "At least 1 second").max(600_000, "At most 10 minutes"),
      ...callLimitsSchema.shape,
      breakerWindowSize: z.number().int().min(2).max(1000),
      breakerMinCalls: z.number().int().min(1).max(1000),
      breakerFailureRatePct: z.number().int().min(1).max(100),
      breakerOpenSeconds: z.number().int().min(1).max(86_400),
      breakerSlowCallMs: z.number().int().min(100).max(600_000),
      breakerSlowCallIsFailure: z.boolean(),
      breakerProbeTimeoutMs: z.number().int().min(1000, "At least 1,000 ms").max(600_000, "At most 600,000 ms (10 minutes)"),
      simulator: simulatorSettingsSchema.optional(),
      /** Required for the openai_compatible adapter: its server and key variable. */
      openaiCompatible: openAICompatibleSettingsSchema.optional(),
    })
    .refine((c) => c.adapter !== "openai_compatible" || c.openaiCompatible, { message: "Enter the server's base URL", path: ["openaiCompatible", "baseURL"] })
    .refine((c) => c.breakerMinCalls <= c.breakerWindowSize, { message: "Minimum calls cannot exceed the window size", path: ["breakerMinCalls"] })
    .refine((c) => !c.simulator || c.simulator.latencyMinMs <= c.simulator.latencyMaxMs, { message: "Minimum latency cannot exceed the maximum", path: ["simulator", "latencyMinMs"] })
    .refine((c) => !c.simulator || c.simulator.errorRate + c.simulator.permanentErrorRate + c.simulator.timeoutRate <= 1 + 1e-9, {
      message: "The error, permanent error and timeout rates add up to more than 100 %",
      path: ["simulator", "errorRate"],
    });

export type ConnectionInput = z.input<ReturnType<typeof connectionInputSchemaFor<string>>>;

/** An operator's grant of a connection to a workspace, with an optional monthly spend limit in micro-dollars. */
export const grantInputSchema = z.object({
  connectionId: z.uuid(),
  workspaceId: z.uuid(),
  monthlySpendLimitMicros: micros("The monthly limit").nullable(),
  /**
   * The grant as the dialog read it (lib/validation/edit-version.ts): null for "Grant" (none yet),
   * or the limit a limit edit started from. Another operator's grant, revoke or limit since refuses
   * the save. Absent (the API): the grant is made or its limit set, whatever it was.
   */
  expected: z.object({ monthlySpendLimitMicros: micros("The monthly limit").nullable() }).nullable().optional(),
});

/** What a workspace admin sets on the workspace's provider: a granted connection, one of its models, a search mode. */
export const providerConfigInputSchema = z.object({
  name: text({ min: 1, max: 60, label: "The name" }),
  connectionId: z.uuid("Pick a connection"),
  model: text({ min: 1, max: 100, label: "The model" }),
  searchMode: z.enum(["on", "off", "auto"]),
  enabled: z.boolean(),
});

export type ProviderConfigInput = z.input<typeof providerConfigInputSchema>;
