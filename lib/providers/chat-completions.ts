// OpenAI-style chat completions streamed with the openai SDK, as perplexity.ts, yandexgpt.ts and
// openai-compatible.ts call them: the request, the reading of `data:` chunks (or of a whole JSON
// body when a server does not stream), and the failures any such server can produce. Each adapter
// brings what differs: its client options and body, a reader of its chunks (text, usage, sources,
// error chunks) and its name in messages.
import type { APIError, ClientOptions } from "openai";
import type { ChatCompletionCreateParamsStreaming } from "openai/resources/chat/completions";
import { CallAbortedError, ProviderError, abortReasonOf } from "@/lib/providers/errors";
import { isErrorEvent, isEventStream, openaiClient, openaiSdk } from "@/lib/providers/openai-sdk";
import { classifySdkError } from "@/lib/providers/sdk-errors";
import type { ProviderResponse } from "@/lib/providers/types";

/** The choice fields every server sends in a chunk (`delta`) or a whole completion (`message`). */
export type CompletionChoice = { delta?: { content?: string | null }; message?: { content?: string | null }; finish_reason?: string | null };

/** The text a chunk's (or a whole completion's) first choice adds. */
export function contentOf(choice: CompletionChoice | undefined): string | null | undefined {
  return choice?.delta?.content ?? choice?.message?.content;
}

/** An adapter's reader of chunks; the same reader takes a whole (non-streamed) JSON completion. */
export type ChunkReader<C> = {
  readonly state: { chunks: number; id?: string; finished: boolean };
  text(): string;
  /** Reads one chunk; throws the ProviderError of a chunk that reports a failure. */
  add(chunk: C, headerRequestId: string | undefined): void;
  result(headerRequestId: string | undefined): ProviderResponse;
};

export type ChatCompletionCall<C> = {
  /** The provider's name in messages ("Perplexity returned an empty answer"). */
  provider: string;
  client: ClientOptions;
  body: ChatCompletionCreateParamsStreaming;
  signal: AbortSignal;
  reader: ChunkReader<C>;
  /** Response headers that carry the request id, the first present wins. */
  requestIdHeaders?: readonly string[];
  /** Whether a whole JSON body is a completion (or an error the reader reports); may throw the error it carries. */
  isCompletion(body: C, headerRequestId: string | undefined): boolean;
  /** The ProviderError for an `{"error": ...}` chunk inside a 200 stream (the SDK throws it as an APIError). */
  errorChunk(error: APIError, context: { chunkId?: string; headerRequestId?: string; partialText: string }): ProviderError;
};

function checked(provider: string, response: ProviderResponse): ProviderResponse {
  if (!response.text.trim()) {
    throw new ProviderError(`${provider} returned an empty answer`, { retryClass: "transient", reason: "empty_answer", requestId: response.requestId });
  }
  return response;
}

function requestIdOf(response: Response, headers: readonly string[]): string | undefined {
  return headers.map((name) => response.headers.get(name)).find((value) => value !== null) ?? undefined;
}

/** A whole JSON body where a stream was asked for: a completion, or the error it reports. */
async function wholeBody<C>(response: Response, call: ChatCompletionCall<C>, headerRequestId: string | undefined): Promise<C> {
  const raw = await response.text();
  let parsed: C | undefined;
  try {
    parsed = JSON.parse(raw) as C;
  } catch {
    parsed = undefined;
  }
  if (!parsed || typeof parsed !== "object" || !call.isCompletion(parsed, headerRequestId)) {
    throw new ProviderError(`${call.provider} answered HTTP 200 with a body that is not a completion: ${raw.slice(0, 120)}`, {
      retryClass: "transient",
      reason: raw.trim() ? "unparseable_response" : "empty_answer",
      requestId: headerRequestId,
    });
  }
  return parsed;
}

/** One streamed chat completion: its answer, or the ProviderError (or CallAbortedError) it ended with. */
export async function streamChatCompletion<C>(call: ChatCompletionCall<C>): Promise<ProviderResponse> {
  const { provider, signal, reader } = call;
  const sdk = await openaiSdk();
  const client = openaiClient(sdk, call.client);
  let headerRequestId: string | undefined;
  try {
    const { data: stream, response: http } = await client.chat.completions.create(call.body, { signal }).withResponse();
    headerRequestId = requestIdOf(http, call.requestIdHeaders ?? ["x-request-id"]);
    if (!isEventStream(http)) {
      reader.add(await wholeBody(http, call, headerRequestId), headerRequestId);
      return checked(provider, reader.result(headerRequestId));
    }
    for await (const chunk of stream) reader.add(chunk as unknown as C, headerRequestId);
    // The SDK ends the iteration quietly when the signal aborts mid-stream.
    if (signal.aborted) throw new CallAbortedError(abortReasonOf(signal), reader.text());
    if (!reader.state.chunks) {
      throw new ProviderError(`${provider} answered HTTP 200 without any chunk`, { retryClass: "transient", reason: "empty_answer", requestId: headerRequestId });
    }
    if (!reader.state.finished) {
      // A clean end of the connection before the final chunk: the work may have been done.
      throw new ProviderError(`${provider} ended the stream before the answer finished`, {
        retryClass: "unknown",
        reason: "stream_interrupted",
        requestId: reader.state.id ?? headerRequestId,
        partialText: reader.text(),
      });
    }
    return checked(provider, reader.result(headerRequestId));
  } catch (error) {
    const partialText = reader.text();
    if (!signal.aborted && isErrorEvent(sdk, error)) throw call.errorChunk(error, { chunkId: reader.state.id, headerRequestId, partialText });
    throw classifySdkError(error, { signal, streamStarted: reader.state.chunks > 0, partialText, provider });
  }
}
