// The openai SDK as the adapters that speak OpenAI's APIs use it (openai.ts, and through
// chat-completions.ts perplexity.ts, yandexgpt.ts and openai-compatible.ts): loaded on the first
// call, one HTTP request per call() (SDK retries off: the runner owns timeouts, retries and aborts).
import type { APIError, ClientOptions } from "openai";
import { lazySdk } from "@/lib/providers/lazy-sdk";

export const openaiSdk = lazySdk(() => import("openai"));
export type OpenAISdk = Awaited<ReturnType<typeof openaiSdk>>;

/**
 * A client that makes one request per call. organization/project are null unless given, so that
 * OPENAI_ORG_ID / OPENAI_PROJECT_ID from the environment never reach a server that did not ask.
 */
export function openaiClient(sdk: OpenAISdk, options: ClientOptions) {
  return new sdk.default({ organization: null, project: null, ...options, maxRetries: 0 });
}

/** Whether a 200 answer is the stream asked for, rather than a whole JSON body. */
export function isEventStream(response: Response): boolean {
  const type = response.headers.get("content-type");
  return !type || type.includes("text/event-stream");
}

/** An error event (or `{"error": ...}` chunk) inside a 200 stream: the SDK throws it as an APIError without a status. */
export function isErrorEvent({ APIConnectionError, APIError, APIUserAbortError }: OpenAISdk, error: unknown): error is APIError {
  return error instanceof APIError && error.status === undefined && !(error instanceof APIConnectionError) && !(error instanceof APIUserAbortError);
}
