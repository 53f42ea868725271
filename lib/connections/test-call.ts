import "server-only";
import { costOf, type PriceTable } from "@/lib/billing/money";
import { CallAbortedError, ProviderError } from "@/lib/providers/errors";
import { adapterFor, notConfiguredReason } from "@/lib/providers/registry";
import type { CallLimits, SearchMode } from "@/lib/providers/types";

export type TestCallInput = {
  adapter: string;
  model: string;
  searchMode: SearchMode;
  prompt: string;
  price: PriceTable;
  timeoutMs: number;
  /** Sent to the provider, as with every capture. */
  limits: CallLimits;
  settings?: Record<string, unknown>;
  country?: string | null;
};

export type TestCallResult =
  | {
      ok: true;
      text: string;
      sources: { url: string; title?: string; citedInText: boolean }[];
      searchQueries: string[];
      usage: { inputTokens: number; outputTokens: number; reasoningTokens: number; cachedTokens: number; searchCalls: number };
      costMicros: number;
      latencyMs: number;
      requestId: string | null;
      /** The engine answered nothing (Google showed no AI Overview); the search was still paid. */
      noAnswer?: true;
    }
  | { ok: false; error: { retryClass: string; reason: string; message: string; httpStatus: number | null }; latencyMs: number };

/**
 * One call of a provider outside any check (the CLI's `capture` command and the settings page's
 * "Test connection"): the normalised answer, or the classified error.
 */
export async function testCall(input: TestCallInput): Promise<TestCallResult> {
  const started = performance.now();
  const latencyMs = () => Math.round(performance.now() - started);
  const adapter = adapterFor(input.adapter);
  const notConfigured = notConfiguredReason(input.adapter, input.settings);
  if (!adapter || notConfigured) {
    return { ok: false, latencyMs: 0, error: { retryClass: "permanent", reason: "not_configured", message: `The ${input.adapter} adapter is not configured on this server: ${notConfigured}.`, httpStatus: null } };
  }
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort("timeout"), input.timeoutMs);
  try {
    const response = await adapter.call({
      prompt: input.prompt,
      model: input.model,
      searchMode: input.searchMode,
      country: input.country,
      signal: controller.signal,
      limits: input.limits,
      settings: input.settings,
      seed: `test:${Date.now()}`,
    });
    return {
      ok: true,
      text: response.text,
      sources: response.sources,
      searchQueries: response.searchQueries,
      usage: response.usage,
      costMicros: costOf(response.usage, input.price),
      latencyMs: latencyMs(),
      requestId: response.requestId ?? null,
      ...(response.noAnswer ? { noAnswer: true as const } : {}),
    };
  } catch (error) {
    if (error instanceof ProviderError) {
      return { ok: false, latencyMs: latencyMs(), error: { retryClass: error.retryClass, reason: error.reason, message: error.message, httpStatus: error.httpStatus ?? null } };
    }
    if (error instanceof CallAbortedError) {
      return { ok: false, latencyMs: latencyMs(), error: { retryClass: "unknown", reason: error.abortReason, message: "The provider did not answer in time", httpStatus: null } };
    }
    return { ok: false, latencyMs: latencyMs(), error: { retryClass: "unknown", reason: "unexpected_error", message: (error as Error).message, httpStatus: null } };
  } finally {
    clearTimeout(timer);
  }
}
