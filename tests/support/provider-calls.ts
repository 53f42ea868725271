// Calling a provider adapter in the integration tests (tests/integration/providers-*.test.ts):
// requests with a test's defaults, calls expected to fail, and our own aborts at a chosen moment.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect } from "vitest";
import { ProviderError } from "@/lib/providers/errors";
import type { ProviderRequest } from "@/lib/providers/types";
import { waitFor } from "@/tests/support/wait-for";

/** Requests with these fields unless a test overrides them, each with a signal of its own. */
export function requestBuilder(defaults: Omit<ProviderRequest, "signal">): (overrides?: Partial<ProviderRequest>) => ProviderRequest {
  return (overrides = {}) => ({ signal: new AbortController().signal, ...defaults, ...overrides });
}

/** What the call rejected with; a call that succeeds fails the test. */
export async function failure(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected the call to fail");
}

/** The ProviderError the call rejected with (anything else fails the test). */
export async function providerError(promise: Promise<unknown>): Promise<ProviderError> {
  const error = await failure(promise);
  expect(error).toBeInstanceOf(ProviderError);
  return error as ProviderError;
}

/**
 * Starts the call, aborts it ("cancelled") once the server has received its request, and returns
 * what it rejected with. Give it a server that never answers (a hang): then the call can only
 * have ended by the abort, on any machine however loaded (the test's own timeout catches a call
 * that ignores it).
 */
export async function abortOnceReceived(
  requests: () => readonly unknown[],
  call: (signal: AbortSignal) => Promise<unknown>,
  what = "the server to receive the request",
): Promise<{ error: unknown }> {
  const controller = new AbortController();
  const before = requests().length;
  const pending = failure(call(controller.signal));
  await waitFor(() => requests().length > before, { what, timeoutMs: 30_000 });
  controller.abort("cancelled");
  return { error: await pending };
}

/** Aborts the call with `reason` as its first text arrives; what it rejected with and the text deltas it had emitted. */
export async function abortAtFirstText(
  call: (options: Required<Pick<ProviderRequest, "signal" | "onText">>) => Promise<unknown>,
  reason = "cancelled",
): Promise<{ error: unknown; deltas: string[] }> {
  const controller = new AbortController();
  const deltas: string[] = [];
  const error = await failure(call({ signal: controller.signal, onText: (d) => (deltas.push(d), controller.abort(reason)) }));
  return { error, deltas };
}

/** The last request the server received ends closed by us, not by the server finishing it. */
export async function expectClosedByClient<R extends { closed: Promise<void>; closedBy?: "client" | "server" }>(server: { requests: readonly R[] }): Promise<R> {
  const seen = server.requests.at(-1)!;
  await seen.closed;
  expect(seen.closedBy).toBe("client");
  return seen;
}

/** A URL where nothing listens: a port on 127.0.0.1 that was just closed, so connecting is refused. */
export async function refusedUrl(): Promise<string> {
  const closed = http.createServer();
  await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
  const { port } = closed.address() as AddressInfo;
  await new Promise<void>((resolve) => closed.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}
