// The plumbing every engine reached over its vendor's API shares (the model APIs, Yandex's two,
// GigaChat): the adapter reads its connection at each call, is "not configured" without its
// credentials and then fails before sending anything, and the engine's descriptor reads that
// connection from its environment variables and starts a fresh instance with one connection.
// Each adapter module keeps only what is its own: the call, its variables, its prices.
import type { z } from "zod";
import { envReader } from "@/lib/config/env";
import { apiConnection, defineEngine, type EnvShape, type ListPrice } from "@/lib/providers/engine";
import { CallAbortedError, ProviderError, abortReasonOf } from "@/lib/providers/errors";
import type { ProviderAdapter, ProviderRequest, ProviderResponse, SearchMode } from "@/lib/providers/types";

/** A connection whose API key is set (hasApiKey). */
export type WithApiKey<C extends { apiKey?: string }> = C & { apiKey: string };

/** For the vendors whose one credential is an API key. */
export const hasApiKey = <C extends { apiKey?: string }>(connection: C): connection is WithApiKey<C> => Boolean(connection.apiKey);

/**
 * The factory of an adapter that reads its connection at call time (tests pass their own). Without
 * its credentials it is not configured, and a call fails permanently before sending anything; a
 * call whose signal has already aborted sends nothing either.
 */
export const credentialedAdapter =
  <C, R extends C>(spec: {
    name: ProviderAdapter["name"];
    /** The vendor as error messages name it. */
    provider: string;
    configured: (connection: C) => connection is R;
    /** What is missing, in the message of a call made without it ("OPENAI_API_KEY is not set"). */
    unconfigured: string;
    call: (connection: R, request: ProviderRequest) => Promise<ProviderResponse>;
    /** The vendor's SDK (ProviderAdapter.load). */
    load?: () => Promise<unknown>;
  }) =>
  (connection: () => C): ProviderAdapter => ({
    name: spec.name,
    load: spec.load,
    configured: () => spec.configured(connection()),
    call: async (request) => {
      const current = connection();
      if (!spec.configured(current)) {
        throw new ProviderError(`${spec.provider} is not configured (${spec.unconfigured})`, { retryClass: "permanent", reason: "not_configured" });
      }
      if (request.signal.aborted) throw new CallAbortedError(abortReasonOf(request.signal), "", false);
      return spec.call(current, request);
    },
  });

/** credentialedAdapter for the vendors whose one credential is an API key (`keyVariable`). */
export const keyedAdapter = <C extends { apiKey?: string }>(
  name: ProviderAdapter["name"],
  provider: string,
  keyVariable: string,
  call: (connection: WithApiKey<C>, request: ProviderRequest) => Promise<ProviderResponse>,
  load?: () => Promise<unknown>,
) => credentialedAdapter({ name, provider, configured: hasApiKey<C>, unconfigured: `${keyVariable} is not set`, call, load });

/**
 * An engine reached over its vendor's API: its adapter reads the connection from the engine's
 * variables at each call, and a fresh instance starts with one connection for it, granted to no
 * workspace (apiConnection).
 */
export function apiEngine<const N extends string, E extends EnvShape>(spec: {
  name: N;
  label: string;
  writesAnswers: boolean;
  env: E;
  /** The adapter, given the reader of the variables' current values (envReader over `env`). */
  adapter: (env: () => z.output<z.ZodObject<E>>) => ProviderAdapter;
  listPrice: ListPrice;
  /** The default connection's name, the name its workspace providers get, and its search mode. */
  defaultConnection: [name: string, providerName: string, searchMode: SearchMode];
}) {
  const { adapter, defaultConnection, ...engine } = spec;
  const [name, providerName, searchMode] = defaultConnection;
  return defineEngine({
    ...engine,
    defaultConnections: [apiConnection(name, providerName, spec.listPrice, searchMode)],
    adapter: adapter(envReader(spec.env)),
  });
}
