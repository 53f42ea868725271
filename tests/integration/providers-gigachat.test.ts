// The GigaChat adapter against a local server speaking its OAuth and chat completions wire
// format, with real HTTP in between: the token (cached, refreshed, shared, dropped on a 401),
// what the adapter extracts, how each failure maps to a retry class, that an abort closes the
// connection while the answer is still streaming, and the CA file over real TLS.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CallAbortedError, ProviderError } from "@/lib/providers/errors";
import { createGigaChatAdapter, type GigaChatConnection } from "@/lib/providers/gigachat";
import { adapterFor } from "@/lib/providers/registry";
import type { ProviderAdapter, ProviderRequest } from "@/lib/providers/types";
import { GIGACHAT_ANSWER, gigachatAnswerChunks, startFakeGigaChat, type FakeGigaChat, type GigaChatScenario } from "@/tests/support/fake-providers/gigachat-server";
import { abortAtFirstText, abortOnceReceived, expectClosedByClient, failure, providerError, refusedUrl, requestBuilder } from "@/tests/support/provider-calls";

let server: FakeGigaChat;
let adapter: ProviderAdapter;
let keys = 0;

/** Every adapter gets its own authorization key, so that its token cache starts empty. */
function freshAdapter(overrides: Partial<GigaChatConnection> = {}): { adapter: ProviderAdapter; credentials: string } {
  const credentials = Buffer.from(`client-${++keys}:secret`).toString("base64");
  const connection = { credentials, scope: "GIGACHAT_API_PERS", authUrl: server.authUrl, baseURL: server.baseURL, tls: {}, ...overrides };
  return { adapter: createGigaChatAdapter(() => connection), credentials };
}

beforeAll(async () => {
  server = await startFakeGigaChat();
  // Before anything reads env(): the registered adapter must see these.
  process.env.GIGACHAT_CREDENTIALS = Buffer.from("registered:secret").toString("base64");
  process.env.GIGACHAT_SCOPE = "GIGACHAT_API_B2B";
  process.env.GIGACHAT_AUTH_URL = server.authUrl;
  process.env.GIGACHAT_BASE_URL = server.baseURL;
  adapter = freshAdapter().adapter;
});

afterAll(async () => {
  await server.close();
});

const request = requestBuilder({
  prompt: "Какую CRM выбрать команде из 10 человек?",
  model: "GigaChat-2-Pro",
  searchMode: "off",
  limits: { maxOutputTokens: 1500, maxSearchCalls: 0 },
});

async function providerFailure(scenario: GigaChatScenario, overrides: Partial<ProviderRequest> = {}): Promise<ProviderError> {
  server.enqueue(scenario);
  return providerError(adapter.call(request(overrides)));
}

describe("a streamed answer", () => {
  it("yields the text, usage with the precached tokens, and the request id, after one token request", async () => {
    const { adapter: own, credentials } = freshAdapter();
    const deltas: string[] = [];
    const [authBefore, chatBefore] = [server.authRequests.length, server.requests.length];
    const response = await own.call(request({ onText: (d) => deltas.push(d) }));

    expect(server.authRequests.length).toBe(authBefore + 1);
    const auth = server.authRequests.at(-1)!;
    expect(auth.headers.authorization).toBe(`Basic ${credentials}`);
    expect(auth.headers.rquid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(auth.headers["content-type"]).toBe("application/x-www-form-urlencoded");
    expect(auth.body).toEqual({ scope: "GIGACHAT_API_PERS" });

    expect(server.requests.length).toBe(chatBefore + 1);
    const sent = server.requests.at(-1)!;
    expect(sent.headers.authorization).toBe(`Bearer ${server.issued.at(-1)}`);
    expect(sent.body).toEqual({ model: "GigaChat-2-Pro", messages: [{ role: "user", content: "Какую CRM выбрать команде из 10 человек?" }], stream: true, max_tokens: 1500 });

    expect(response.text).toBe(GIGACHAT_ANSWER.content);
    expect(deltas.length).toBeGreaterThan(3);
    expect(deltas.join("")).toBe(response.text);
    expect(response.sources).toEqual([]);
    expect(response.searchQueries).toEqual([]);
    // prompt_tokens (24) is what GigaChat bills after deducting the 8 precached ones.
    expect(response.usage).toEqual({ inputTokens: 32, outputTokens: 61, reasoningTokens: 0, cachedTokens: 8, searchCalls: 0 });
    expect(response.requestId).toBe(sent.id);
  });

  it("an answer cut off at max_tokens (finish_reason length) is accepted", async () => {
    const content = "Для команды из 10 человек чаще всего советуют **amoCRM**";
    server.enqueue({ kind: "answer", answer: { content, finish_reason: "length", usage: { prompt_tokens: 24, completion_tokens: 12, precached_prompt_tokens: 0 } } });
    const response = await adapter.call(request({ limits: { maxOutputTokens: 12, maxSearchCalls: 0 } }));
    expect(server.requests.at(-1)!.body).toMatchObject({ max_tokens: 12 });
    expect(response.text).toBe(content);
    expect(response.usage).toMatchObject({ inputTokens: 24, outputTokens: 12 });
  });
});

describe("search", () => {
  it("refuses search mode on without any request: the API has no documented web search", async () => {
    const { adapter: own } = freshAdapter();
    const [authBefore, chatBefore] = [server.authRequests.length, server.requests.length];
    const error = await failure(own.call(request({ searchMode: "on", limits: { maxOutputTokens: 500, maxSearchCalls: 3 } })));
    expect(error).toMatchObject({ retryClass: "permanent", reason: "invalid_request" });
    expect([server.authRequests.length, server.requests.length]).toEqual([authBefore, chatBefore]);
  });

  it("answers without searching in auto mode, and counts no search", async () => {
    const response = await adapter.call(request({ searchMode: "auto", limits: { maxOutputTokens: 500, maxSearchCalls: 3 } }));
    expect(server.requests.at(-1)!.body).not.toHaveProperty("tools");
    expect(response.usage.searchCalls).toBe(0);
  });
});

describe("the access token", () => {
  it("is cached: a second call asks for no new token", async () => {
    const { adapter: own } = freshAdapter();
    const before = server.authRequests.length;
    await own.call(request());
    await own.call(request());
    expect(server.authRequests.length).toBe(before + 1);
    expect(server.requests.at(-1)!.headers.authorization).toBe(`Bearer ${server.issued.at(-1)}`);
  });

  it("concurrent calls share one token request", async () => {
    const { adapter: own } = freshAdapter();
    const before = server.authRequests.length;
    const responses = await Promise.all([own.call(request()), own.call(request()), own.call(request())]);
    expect(responses.map((r) => r.text)).toEqual([GIGACHAT_ANSWER.content, GIGACHAT_ANSWER.content, GIGACHAT_ANSWER.content]);
    expect(server.authRequests.length).toBe(before + 1);
  });

  it("is refreshed when it expires within a minute", async () => {
    const { adapter: own } = freshAdapter();
    const before = server.authRequests.length;
    server.setTokenTtlMs(45_000);
    try {
      await own.call(request());
      await own.call(request());
    } finally {
      server.setTokenTtlMs(30 * 60_000);
    }
    expect(server.authRequests.length).toBe(before + 2);
    const [first, second] = server.requests.slice(-2).map((r) => r.headers.authorization);
    expect(first).not.toBe(second);
  });

  it("a 401 from the chat endpoint is transient and drops the token; the retry gets a new one", async () => {
    const { adapter: own } = freshAdapter();
    await own.call(request());
    const token = server.issued.at(-1)!;
    server.revoke(token);
    const error = await failure(own.call(request()));
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ retryClass: "transient", reason: "token_rejected", httpStatus: 401 });

    const before = server.authRequests.length;
    const response = await own.call(request());
    expect(response.text).toBe(GIGACHAT_ANSWER.content);
    expect(server.authRequests.length).toBe(before + 1);
    expect(server.requests.at(-1)!.headers.authorization).toBe(`Bearer ${server.issued.at(-1)}`);
    expect(server.issued.at(-1)).not.toBe(token);
  });

  it.each([
    [401, { code: 6, message: "credentials doesn't match db data" }],
    [400, { code: 7, message: "scope from db not fully includes consumed scope" }],
  ])("a key the token endpoint refuses (%i) is permanent (auth_failed), and no answer is asked for", async (status, body) => {
    const { adapter: own } = freshAdapter();
    const before = server.requests.length;
    server.enqueueAuth({ kind: "status", status, body });
    const error = await failure(own.call(request()));
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ retryClass: "permanent", reason: "auth_failed", httpStatus: status });
    expect((error as Error).message).toContain(body.message);
    expect(server.requests.length).toBe(before);
  });

  it("a token endpoint that is rate limited or down is transient, with Retry-After", async () => {
    const { adapter: own } = freshAdapter();
    server.enqueueAuth({ kind: "status", status: 429, headers: { "retry-after": "2" }, body: { code: 429, message: "Too Many Requests" } });
    expect(await failure(own.call(request()))).toMatchObject({ retryClass: "transient", reason: "rate_limited", retryAfterMs: 2000 });
    server.enqueueAuth({ kind: "status", status: 503, body: "<html>503</html>" });
    expect(await failure(own.call(request()))).toMatchObject({ retryClass: "transient", reason: "auth_unavailable", httpStatus: 503 });
  });

  it("an abort while the token request hangs ends the call at once", async () => {
    const { adapter: own } = freshAdapter();
    server.enqueueAuth({ kind: "hang" });
    const { error } = await abortOnceReceived(() => server.authRequests, (signal) => own.call(request({ signal })), "the token request");
    expect(error).toBeInstanceOf(CallAbortedError);
    expect(error).toMatchObject({ abortReason: "cancelled" });
  });
});

describe("HTTP errors from the chat endpoint", () => {
  it("429 is transient and carries Retry-After", async () => {
    const error = await providerFailure({ kind: "status", status: 429, headers: { "retry-after": "4" }, body: { status: 429, message: "Too Many Requests" } });
    expect(error).toMatchObject({ retryClass: "transient", reason: "rate_limited", httpStatus: 429, retryAfterMs: 4000 });
    expect(error.requestId).toBe(server.requests.at(-1)!.id);
  });

  it.each([500, 502, 503, 504])("%i is transient, after exactly one request", async (status) => {
    const before = server.requests.length;
    const error = await providerFailure({ kind: "status", status, body: status === 502 ? "<html>502 Bad Gateway</html>" : { status, message: "Internal Server Error" } });
    expect(error).toMatchObject({ retryClass: "transient", reason: "server_error", httpStatus: status });
    expect(server.requests.length).toBe(before + 1);
  });

  it.each([
    [400, "invalid_request"],
    [403, "auth_failed"],
    [404, "model_not_found"],
    [413, "request_too_large"],
    [422, "invalid_request"],
  ])("%i is permanent (%s), with GigaChat's message", async (status, reason) => {
    const error = await providerFailure({ kind: "status", status, body: { status, message: `refused with ${status}` } });
    expect(error).toMatchObject({ retryClass: "permanent", reason, httpStatus: status });
    expect(error.message).toContain(`refused with ${status}`);
  });

  it("a scenario can be chosen by model name (for worker processes)", async () => {
    expect(await failure(adapter.call(request({ model: "fake:rate-limited" })))).toMatchObject({ retryClass: "transient", httpStatus: 429, retryAfterMs: 4000 });
  });
});

describe("failures inside a 200", () => {
  it("an error object as the JSON body is transient (provider_failed)", async () => {
    const error = await providerFailure({ kind: "error-200", status: 500, message: "Internal Server Error" });
    expect(error).toMatchObject({ retryClass: "transient", reason: "provider_failed" });
  });

  it("an error event mid-stream is transient and keeps the partial text", async () => {
    const error = await providerFailure({ kind: "error-event", afterChunks: 2 });
    expect(error).toMatchObject({ retryClass: "transient", reason: "provider_failed" });
    expect(error.partialText).not.toBe("");
    expect(GIGACHAT_ANSWER.content.startsWith(error.partialText!)).toBe(true);
  });

  it("the topic filter (finish_reason blacklist) is permanent (content_policy)", async () => {
    const error = await providerFailure({ kind: "answer", answer: { ...GIGACHAT_ANSWER, content: "Не люблю менять тему разговора, но вот сейчас тот самый случай.", finish_reason: "blacklist" } });
    expect(error).toMatchObject({ retryClass: "permanent", reason: "content_policy" });
  });

  it("garbage events are transient (unparseable_response); an empty stream is transient (empty_answer)", async () => {
    expect(await providerFailure({ kind: "raw", contentType: "text/event-stream", body: "data: <html>upstream connect error</html>\n\n" })).toMatchObject({ retryClass: "transient", reason: "unparseable_response" });
    expect(await providerFailure({ kind: "raw", contentType: "text/event-stream", body: "" })).toMatchObject({ retryClass: "transient", reason: "empty_answer" });
    expect(await providerFailure({ kind: "raw", contentType: "text/html", body: "<html>Service temporarily unavailable</html>" })).toMatchObject({ retryClass: "transient", reason: "unparseable_response" });
  });

  it("a stream that ends cleanly before the answer finished is unknown (stream_interrupted)", async () => {
    const error = await providerFailure({ kind: "raw", contentType: "text/event-stream", body: gigachatAnswerChunks("GigaChat-2-Pro").slice(0, 2).join("") });
    expect(error).toMatchObject({ retryClass: "unknown", reason: "stream_interrupted" });
    expect(error.partialText).not.toBe("");
  });
});

describe("broken connections", () => {
  it("a reset mid-stream is unknown (stream_interrupted) and keeps the partial text", async () => {
    const deltas: string[] = [];
    const error = await providerFailure({ kind: "reset", afterEvents: 3 }, { onText: (d) => deltas.push(d) });
    expect(error).toMatchObject({ retryClass: "unknown", reason: "stream_interrupted" });
    expect(error.partialText).toBeTruthy();
    expect(error.partialText).toBe(deltas.join(""));
  });

  it("a refused connection is transient, at the token endpoint and at the chat endpoint", async () => {
    const closedUrl = await refusedUrl();
    const { adapter: own } = freshAdapter({ authUrl: `${closedUrl}/api/v2/oauth` });
    expect(await failure(own.call(request()))).toMatchObject({ retryClass: "transient", reason: "auth_unavailable" });
    // The token comes from the fake; the chat endpoint is the closed port.
    const { adapter: chatRefused } = freshAdapter({ baseURL: `${closedUrl}/api/v1` });
    expect(await failure(chatRefused.call(request()))).toMatchObject({ retryClass: "transient", reason: "connection_failed" });
  });
});

describe("our own abort", () => {
  it("cancelling a call that hangs rejects, though the server never answers, and closes the connection", async () => {
    await adapter.call(request()); // the token is cached: the hang is the chat request's
    server.enqueue({ kind: "hang" });
    const { error } = await abortOnceReceived(() => server.requests, (signal) => adapter.call(request({ signal })), "the chat request");
    expect(error).toBeInstanceOf(CallAbortedError);
    expect(error).toMatchObject({ abortReason: "cancelled", partialText: "" });
    await expectClosedByClient(server);
  });

  it("cancelling mid-stream closes the socket while GigaChat is still streaming, and keeps the partial text", async () => {
    server.enqueue({ kind: "slow", intervalMs: 50 });
    const { error, deltas } = await abortAtFirstText((options) => adapter.call(request(options)));
    expect(error).toBeInstanceOf(CallAbortedError);
    expect((error as CallAbortedError).partialText).toBe(deltas.join(""));
    expect(deltas.join("")).not.toBe("");
    // The server had more chunks to send: the client, not the end of the answer, closed it.
    const seen = await expectClosedByClient(server);
    const progress = server.streamed.get(seen.id)!;
    expect(progress.sent).toBeLessThan(progress.total - 1);
  });
});

describe("configuration", () => {
  it("is not configured without credentials, and then sends nothing", async () => {
    const unconfigured = freshAdapter({ credentials: undefined }).adapter;
    expect(unconfigured.configured()).toBe(false);
    const [authBefore, chatBefore] = [server.authRequests.length, server.requests.length];
    expect(await failure(unconfigured.call(request()))).toMatchObject({ retryClass: "permanent", reason: "not_configured" });
    expect([server.authRequests.length, server.requests.length]).toEqual([authBefore, chatBefore]);
  });

  it("the registered adapter reads GIGACHAT_CREDENTIALS, GIGACHAT_SCOPE and the URLs", async () => {
    const registered = adapterFor("gigachat")!;
    expect(registered.configured()).toBe(true);
    const response = await registered.call(request());
    expect(response.text).toBe(GIGACHAT_ANSWER.content);
    const auth = server.authRequests.at(-1)!;
    expect(auth.headers.authorization).toBe(`Basic ${process.env.GIGACHAT_CREDENTIALS}`);
    expect(auth.body).toEqual({ scope: "GIGACHAT_API_B2B" });
  });
});

describe("TLS with a CA of its own (as Sber's Russian Trusted Root CA)", () => {
  let tlsServer: FakeGigaChat;
  let caFile: string;

  beforeAll(async () => {
    // node:crypto cannot issue certificates: openssl makes a CA and a server certificate for 127.0.0.1.
    const dir = mkdtempSync(path.join(os.tmpdir(), "beacon-gigachat-ca-"));
    const at = (name: string) => path.join(dir, name);
    const openssl = (...args: string[]) => execFileSync("openssl", args, { stdio: "pipe" });
    openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", at("ca.key"), "-out", at("ca.crt"), "-days", "2", "-subj", "/CN=Beacon Test Root CA");
    openssl("req", "-newkey", "rsa:2048", "-nodes", "-keyout", at("server.key"), "-out", at("server.csr"), "-subj", "/CN=127.0.0.1");
    writeFileSync(at("san.ext"), "subjectAltName=IP:127.0.0.1\n");
    openssl("x509", "-req", "-in", at("server.csr"), "-CA", at("ca.crt"), "-CAkey", at("ca.key"), "-CAcreateserial", "-out", at("server.crt"), "-days", "2", "-extfile", at("san.ext"));
    caFile = at("ca.crt");
    tlsServer = await startFakeGigaChat({ tls: { key: readFileSync(at("server.key"), "utf8"), cert: readFileSync(at("server.crt"), "utf8") } });
  });

  afterAll(async () => {
    await tlsServer?.close();
  });

  const tlsAdapter = (ca?: string) =>
    createGigaChatAdapter(() => ({ credentials: Buffer.from(`tls-${ca ? "ca" : "none"}:secret`).toString("base64"), scope: "GIGACHAT_API_PERS", authUrl: tlsServer.authUrl, baseURL: tlsServer.baseURL, tls: { caFile: ca } }));

  it("without the CA the certificate is refused: permanent (tls_untrusted), nothing reaches the server", async () => {
    const error = await failure(tlsAdapter().call(request()));
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ retryClass: "permanent", reason: "tls_untrusted" });
    expect((error as Error).message).toContain("NODE_EXTRA_CA_CERTS");
    expect(tlsServer.authRequests.length + tlsServer.requests.length).toBe(0);
  });

  it("with GIGACHAT_CA_CERT_FILE's CA added to Node's roots, the token and the answer come over verified TLS", async () => {
    const response = await tlsAdapter(caFile).call(request());
    expect(response.text).toBe(GIGACHAT_ANSWER.content);
    expect(tlsServer.authRequests.length).toBe(1);
    expect(tlsServer.requests.length).toBe(1);
  });
});
