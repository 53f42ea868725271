// Yandex Cloud reports errors in gRPC terms, also over REST: an HTTP error (or, inside a streamed
// 200, an element of the stream) whose body is `{ "error": { "grpcCode", "httpCode", "message",
// "httpStatus" } }` or the plain gRPC status `{ "code", "message", "details" }`. Both Yandex
// adapters (yandex-search.ts, yandexgpt.ts) map them to the retry classes of DESIGN.md here.
import { ProviderError, classifyHttpStatus, type RetryClass } from "@/lib/providers/errors";

type YandexErrorBody = { grpcCode?: number; httpCode?: number; code?: number | string; message?: string; httpStatus?: string };

/** The HTTP status each gRPC code maps to (google.rpc.Code, as Yandex's REST gateway does). */
const GRPC_TO_HTTP: Record<number, number> = {
  1: 499, // CANCELLED
  2: 500, // UNKNOWN
  3: 400, // INVALID_ARGUMENT
  4: 504, // DEADLINE_EXCEEDED
  5: 404, // NOT_FOUND
  6: 409, // ALREADY_EXISTS
  7: 403, // PERMISSION_DENIED
  8: 429, // RESOURCE_EXHAUSTED
  9: 400, // FAILED_PRECONDITION
  10: 409, // ABORTED
  11: 400, // OUT_OF_RANGE
  12: 501, // UNIMPLEMENTED
  13: 500, // INTERNAL
  14: 503, // UNAVAILABLE
  15: 500, // DATA_LOSS
  16: 401, // UNAUTHENTICATED
};

/** The error object of a body, whichever of the two shapes it has; undefined when it is none. */
export function yandexErrorOf(body: unknown): YandexErrorBody | undefined {
  if (!body || typeof body !== "object") return undefined;
  const b = body as { error?: unknown; code?: unknown; message?: unknown };
  if (b.error && typeof b.error === "object") return b.error as YandexErrorBody;
  if (typeof b.error === "string") return { message: b.error };
  // A bare gRPC status: a numeric code with a message (and no answer fields).
  if ((typeof b.code === "number" || (typeof b.code === "string" && /^\d+$/.test(b.code))) && typeof b.message === "string") return { code: b.code, message: b.message };
  return undefined;
}

/** The HTTP-like status an error body stands for: its httpCode, else its gRPC code mapped. */
export function statusOfYandexError(error: YandexErrorBody, fallback?: number): number | undefined {
  if (typeof error.httpCode === "number" && error.httpCode >= 400) return error.httpCode;
  const grpc = typeof error.grpcCode === "number" ? error.grpcCode : Number(error.code);
  if (Number.isInteger(grpc) && GRPC_TO_HTTP[grpc]) return GRPC_TO_HTTP[grpc];
  return fallback;
}

function reasonOf(status: number | undefined): string {
  if (status === undefined) return "provider_failed";
  if (status === 429) return "rate_limited";
  if (status === 401 || status === 403) return "auth_failed";
  if (status >= 500) return "server_error";
  return "invalid_request";
}

/**
 * A ProviderError for an error the provider reported. `httpStatus` is the response's status when
 * the error came as an HTTP error; inside a 200 stream it is left out and the body decides.
 */
export function yandexProviderError(
  provider: string,
  error: YandexErrorBody,
  extra: { httpStatus?: number; retryAfterMs?: number; requestId?: string; partialText?: string },
): ProviderError {
  const status = extra.httpStatus ?? statusOfYandexError(error);
  // An error the body does not classify (no code at all) is the provider's failure: transient.
  const retryClass: RetryClass = status === undefined ? "transient" : classifyHttpStatus(status);
  const message = (error.message ?? error.httpStatus ?? "unknown error").slice(0, 300);
  const where = extra.httpStatus ? `answered HTTP ${extra.httpStatus}` : "reported an error";
  return new ProviderError(`${provider} ${where}: ${message}`, { retryClass, reason: reasonOf(status), ...extra, httpStatus: extra.httpStatus ?? status });
}
