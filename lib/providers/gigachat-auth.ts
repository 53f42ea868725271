// GigaChat's OAuth step: the authorization key (base64 of client_id:client_secret) and a scope
// are exchanged at the auth URL for an access token that lives 30 minutes
// (https://developers.sber.ru/docs/ru/gigachat/api/reference/rest/post-token:
// POST /api/v2/oauth, `Authorization: Basic <key>`, `RqUID: <uuid>`, form body `scope=...`,
// answer `{ access_token, expires_at }` with expires_at in milliseconds).
//
// Tokens are cached per (auth URL, scope, key) in this process and refreshed a minute before
// they expire; concurrent calls share one refresh. The token request is free and is not the
// answer request, so it is not counted as an attempt of its own.
import { createHash, randomUUID } from "node:crypto";
import { CallAbortedError, ProviderError, abortReasonOf, classifyHttpStatus, parseRetryAfter } from "@/lib/providers/errors";
import { isUntrustedCertificate, readText, send, type GigaChatTls } from "@/lib/providers/gigachat-http";

export type GigaChatCredentials = { credentials: string; scope: string; authUrl: string; tls: GigaChatTls };

/** A token this close to its expiry is replaced before use. */
export const TOKEN_REFRESH_MARGIN_MS = 60_000;
/** The token request's own deadline: it is shared by every caller waiting on it. */
const TOKEN_REQUEST_TIMEOUT_MS = 30_000;

type Token = { accessToken: string; expiresAt: number };
const tokens = new Map<string, Token>();
const refreshing = new Map<string, Promise<Token>>();

function keyOf(c: GigaChatCredentials): string {
  return createHash("sha256").update(`${c.authUrl}\n${c.scope}\n${c.credentials}`).digest("hex");
}

export const untrustedCertificateMessage = (host: string) =>
  `GigaChat's certificate for ${host} is not trusted: give the Russian Trusted Root CA in NODE_EXTRA_CA_CERTS or GIGACHAT_CA_CERT_FILE`;

async function requestToken(c: GigaChatCredentials): Promise<Token> {
  let response;
  try {
    response = await send(c.authUrl, {
      headers: { authorization: `Basic ${c.credentials}`, rquid: randomUUID(), "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
      body: new URLSearchParams({ scope: c.scope }).toString(),
      signal: AbortSignal.timeout(TOKEN_REQUEST_TIMEOUT_MS),
      tls: c.tls,
    });
  } catch (error) {
    if (isUntrustedCertificate(error)) throw new ProviderError(untrustedCertificateMessage(new URL(c.authUrl).host), { retryClass: "permanent", reason: "tls_untrusted", cause: error });
    // Nothing is billed for a token: whatever broke, trying again later is safe.
    throw new ProviderError(`Could not get a GigaChat access token: ${(error as Error).message}`.slice(0, 300), { retryClass: "transient", reason: "auth_unavailable", cause: error });
  }
  const text = await readText(response.body).catch(() => "");
  if (response.status !== 200) {
    const retryClass = classifyHttpStatus(response.status);
    // 400 (a scope the key does not have) and 401 (a wrong key) cannot succeed on a retry.
    const reason = retryClass === "permanent" ? "auth_failed" : response.status === 429 ? "rate_limited" : "auth_unavailable";
    throw new ProviderError(`GigaChat refused the authorization key for scope ${c.scope} (HTTP ${response.status}): ${text.slice(0, 200)}`, {
      retryClass,
      reason,
      httpStatus: response.status,
      retryAfterMs: parseRetryAfter({ get: (name) => response.header(name) ?? null }),
    });
  }
  let parsed: { access_token?: unknown; expires_at?: unknown } | undefined;
  try {
    parsed = JSON.parse(text) as typeof parsed;
  } catch {
    parsed = undefined;
  }
  if (typeof parsed?.access_token !== "string" || typeof parsed.expires_at !== "number") {
    throw new ProviderError(`GigaChat's token endpoint answered without a token: ${text.slice(0, 120)}`, { retryClass: "transient", reason: "auth_unavailable" });
  }
  return { accessToken: parsed.access_token, expiresAt: parsed.expires_at };
}

/** Resolves with the promise's value, or rejects at once when the signal aborts (the promise runs on). */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(new CallAbortedError(abortReasonOf(signal)));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new CallAbortedError(abortReasonOf(signal)));
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

/** A valid access token: the cached one, or a fresh one from the shared refresh. */
export async function accessToken(c: GigaChatCredentials, signal: AbortSignal, now = Date.now()): Promise<string> {
  const key = keyOf(c);
  const cached = tokens.get(key);
  if (cached && cached.expiresAt - TOKEN_REFRESH_MARGIN_MS > now) return cached.accessToken;
  let refresh = refreshing.get(key);
  if (!refresh) {
    refresh = requestToken(c)
      .then((token) => {
        tokens.set(key, token);
        return token;
      })
      .finally(() => refreshing.delete(key));
    refreshing.set(key, refresh);
    // A caller that gives up does not leave the shared refresh's failure unhandled.
    refresh.catch(() => {});
  }
  return (await untilAborted(refresh, signal)).accessToken;
}

/** After the chat endpoint refused it (401): forget that token, so the next call gets a new one. */
export function dropToken(c: GigaChatCredentials, accessTokenValue: string): void {
  const key = keyOf(c);
  if (tokens.get(key)?.accessToken === accessTokenValue) tokens.delete(key);
}
