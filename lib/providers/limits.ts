// What a new connection starts with besides its engine's defaults (the column defaults of
// provider_connections): plain values, shared by the server and the connection form.
import type { CallLimits } from "@/lib/providers/types";

/**
 * The per-call limits a new provider configuration starts with (the ProviderConfig column
 * defaults), also what the CLI's `capture` sends when not told otherwise.
 */
export const DEFAULT_CALL_LIMITS: CallLimits = { maxOutputTokens: 2048, maxSearchCalls: 3 };

/** The circuit breaker thresholds a new connection starts with (the column defaults). */
export const DEFAULT_BREAKER_SETTINGS = {
  breakerWindowSize: 20,
  breakerMinCalls: 10,
  breakerFailureRatePct: 50,
  breakerOpenSeconds: 45,
  breakerSlowCallMs: 60_000,
  breakerSlowCallIsFailure: false,
  breakerProbeTimeoutMs: 15_000,
};
