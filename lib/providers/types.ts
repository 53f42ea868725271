// The contract between the capture runner and every provider adapter (simulator, OpenAI,
// Perplexity, Gemini, Anthropic, GigaChat, Yandex, Google AI Overviews and AI Mode through a SERP API,
// OpenAI-compatible servers). An adapter makes exactly one call per `call()`: it never
// retries by itself; the runner owns retries (DESIGN.md "Retries by error class").

/** Whether a call searches the web: always, never, or as the model decides. */
export type SearchMode = "on" | "off" | "auto";

export type ProviderRequest = {
  prompt: string;
  model: string;
  searchMode: SearchMode;
  /** Where the question is asked from: ISO 3166-1 alpha-2 country, its city, BCP 47 language. */
  country?: string | null;
  city?: string | null;
  language?: string | null;
  /** Aborted on user cancel, shutdown, timeout or a lost lease; the adapter must stop at once. */
  signal: AbortSignal;
  /** Called with each piece of answer text as it streams in. */
  onText?: (delta: string) => void;
  /** Adapter-specific settings from the provider configuration. */
  settings?: Record<string, unknown>;
  /**
   * Hard limits sent to the provider, so that one call can never cost more than the worst case
   * the budget reserved for it (DESIGN.md "Money"; lib/billing/money.ts `worstCaseUsage`).
   * Output tokens include reasoning/thinking tokens; search calls count every web search the
   * call may make, across continuation steps.
   */
  limits: CallLimits;
  /**
   * What the question is about. Real providers ignore it; the simulator uses it to write answers
   * that name the workspace's brand and competitors.
   */
  subject?: { brand: EntityHint; competitors: EntityHint[] };
  /** Makes the simulator reproducible (capture id + attempt number). */
  seed?: string;
};

export type CallLimits = { maxOutputTokens: number; maxSearchCalls: number };

/** A tracked name for the simulator: its aliases give it another script's spelling (Lumen: «Люмен»). */
export type EntityHint = { name: string; aliases?: string[]; domains: string[] };

export type Source = {
  url: string;
  title?: string;
  /** True when the answer cites the source; false when the provider only retrieved it. */
  citedInText: boolean;
};

export type Usage = {
  /** All input tokens, cached ones included. */
  inputTokens: number;
  /** Visible output tokens, reasoning tokens EXCLUDED (they are priced separately). */
  outputTokens: number;
  reasoningTokens: number;
  cachedTokens: number;
  searchCalls: number;
  /**
   * What the provider itself reports this call cost, in micro-dollars, when its API says
   * (DataForSEO's task `cost`). costOf prefers it to the price table: the list price cannot know
   * refunds such as DataForSEO's for a SERP without an AI Overview.
   */
  providerCostMicros?: number;
};

export type ProviderResponse = {
  text: string;
  sources: Source[];
  searchQueries: string[];
  usage: Usage;
  requestId?: string;
  /**
   * The engine answered nothing for this query (Google showed no AI Overview): a result, not an
   * error. `text` is then "" and `sources` empty; `usage` still counts the paid search. The
   * capture succeeds without an answer (answerText NULL) and counts in visibility's denominator
   * as an answer that names no one.
   */
  noAnswer?: boolean;
};

export type ProviderAdapter = {
  /** The engine's name (lib/providers/registry.ts AdapterName). */
  name: string;
  /**
   * False when this server lacks what a connection needs (an API key in the environment, a valid
   * base URL); shown as "not configured" in the UI. `settings` are the connection's
   * (ProviderConnection.settings): adapters whose credentials are per connection read them.
   */
  configured: (settings?: Record<string, unknown>) => boolean;
  /** Why configured() is false, for the operator (e.g. which variable to set). */
  notConfiguredReason?: (settings?: Record<string, unknown>) => string;
  call: (request: ProviderRequest) => Promise<ProviderResponse>;
  /**
   * Loads what a call needs before it is timed (the vendor's SDK, lib/providers/lazy-sdk.ts): a
   * worker's first call would otherwise spend its timeout importing, a second on a loaded machine.
   */
  load?: () => Promise<unknown>;
};

export const emptyUsage = (): Usage => ({ inputTokens: 0, outputTokens: 0, reasoningTokens: 0, cachedTokens: 0, searchCalls: 0 });
