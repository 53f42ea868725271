// A local server that speaks GigaChat's wire format on one port, for tests that put real HTTP
// between the GigaChat adapter and a provider that misbehaves on purpose:
//   POST /api/v2/oauth             the token endpoint (developers.sber.ru/docs/ru/gigachat/api/reference/rest/post-token):
//                                  `Authorization: Basic <key>`, `RqUID`, form `scope=...` -> `{ access_token, expires_at }` (ms)
//   POST /api/v1/chat/completions  the answer endpoint (developers.sber.ru/docs/en/gigachat/api/response-token-streaming):
//                                  SSE `data:` chunks of choices[].delta.content, usage in the last one, then `data: [DONE]`;
//                                  refuses a token it did not issue, or one that expired or was revoked, with 401
// HTTP by default, HTTPS when given a key and certificate (the CA-file test).
//
// Scenario choice works as in openai-server.ts: `enqueue` (chat) / `enqueueAuth`, or a
// `fake:<name>` model from `GIGACHAT_SCENARIOS`, else a normal answer.
import { randomBytes, randomUUID } from "node:crypto";
import http, { type IncomingMessage, type ServerResponse } from "node:http";
import https from "node:https";
import type { AddressInfo } from "node:net";
import { respondCommon, sse, type CommonScenario, type RecordedRequest } from "./openai-server";

export type GigaChatAnswer = {
  content: string;
  usage: { prompt_tokens: number; completion_tokens: number; precached_prompt_tokens: number };
  finish_reason?: "stop" | "length" | "blacklist";
};

export const GIGACHAT_ANSWER: GigaChatAnswer = {
  content:
    "Для команды из 10 человек чаще всего советуют **amoCRM** или **Битрикс24**: у обеих есть бесплатный или недорогой старт. " +
    "Если продажи идут через воронку, посмотрите Pipedrive. Salesforce для такой команды обычно избыточен.",
  usage: { prompt_tokens: 24, completion_tokens: 61, precached_prompt_tokens: 8 },
};

export type GigaChatScenario =
  | CommonScenario
  | { kind: "answer"; answer?: GigaChatAnswer; done?: boolean }
  /** HTTP 200, JSON body with an error object instead of a completion. */
  | { kind: "error-200"; status: number; message: string }
  /** Some chunks of a normal answer, then an error object as an event. */
  | { kind: "error-event"; afterChunks: number }
  /** Streams chunks slowly, one per `intervalMs`, until the client goes away (or the answer ends). */
  | { kind: "slow"; intervalMs: number };

export type AuthScenario = { kind: "status"; status: number; body?: unknown; headers?: Record<string, string> } | { kind: "hang" };

const gigaError = (status: number, message: string) => ({ status, message });

/** Scenarios a model name can ask for: `fake:<name>`. */
export const GIGACHAT_SCENARIOS: Record<string, GigaChatScenario> = {
  answer: { kind: "answer" },
  "rate-limited": { kind: "status", status: 429, headers: { "retry-after": "4" }, body: gigaError(429, "Too Many Requests") },
  "server-error": { kind: "status", status: 500, body: gigaError(500, "Internal Server Error") },
  forbidden: { kind: "status", status: 403, body: gigaError(403, "Permission denied") },
  hang: { kind: "hang" },
  reset: { kind: "reset", afterEvents: 3 },
  "error-200": { kind: "error-200", status: 500, message: "Internal Server Error" },
};

const TEXT_CHUNK = 24;

/** The SSE frames of a streamed answer, `data: [DONE]` last unless `done` is false. */
export function gigachatAnswerChunks(model: string, answer: GigaChatAnswer = GIGACHAT_ANSWER, done = true): string[] {
  const created = Math.floor(Date.now() / 1000);
  const pieces = answer.content.match(new RegExp(`[\\s\\S]{1,${TEXT_CHUNK}}`, "gu")) ?? [];
  const frames = pieces.map((content, i) => {
    const last = i === pieces.length - 1;
    return sse({
      choices: [{ delta: { content, ...(i === 0 ? { role: "assistant" } : {}) }, index: 0, ...(last ? { finish_reason: answer.finish_reason ?? "stop" } : {}) }],
      created,
      model,
      object: "chat.completion",
      ...(last ? { usage: { ...answer.usage, total_tokens: answer.usage.prompt_tokens + answer.usage.completion_tokens } } : {}),
    });
  });
  if (done) frames.push("data: [DONE]\n\n");
  return frames;
}

export type FakeGigaChat = {
  /** Origin; the adapter's auth URL is `${url}/api/v2/oauth`, its base URL `${url}/api/v1`. */
  url: string;
  authUrl: string;
  baseURL: string;
  /** Chat requests (the answer endpoint) only. */
  requests: RecordedRequest[];
  authRequests: RecordedRequest[];
  enqueue: (...scenarios: GigaChatScenario[]) => void;
  enqueueAuth: (...scenarios: AuthScenario[]) => void;
  /** Lifetime of the tokens issued from now on. */
  setTokenTtlMs: (ms: number) => void;
  /** Makes the server refuse a token it issued (as if it had been revoked). */
  revoke: (token: string) => void;
  /** Tokens issued, in order. */
  issued: string[];
  /** Of each `slow` stream, by request id: frames written before the connection closed, of all. */
  streamed: Map<string, { sent: number; total: number }>;
  close: () => Promise<void>;
};

async function readRaw(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

export async function startFakeGigaChat(options: { tls?: { key: string; cert: string } } = {}): Promise<FakeGigaChat> {
  const requests: RecordedRequest[] = [];
  const authRequests: RecordedRequest[] = [];
  const queue: GigaChatScenario[] = [];
  const authQueue: AuthScenario[] = [];
  const valid = new Map<string, number>();
  const issued: string[] = [];
  const streamed = new Map<string, { sent: number; total: number }>();
  let ttlMs = 30 * 60_000;

  function record(req: IncomingMessage, res: ServerResponse, list: RecordedRequest[]): RecordedRequest {
    let markClosed = () => {};
    const closed = new Promise<void>((resolve) => (markClosed = resolve));
    const rec: RecordedRequest = { method: req.method ?? "", path: req.url ?? "", headers: req.headers, body: {}, id: randomUUID(), closed };
    list.push(rec);
    res.on("close", () => {
      if (!res.writableFinished && !rec.closedBy) rec.closedBy = "client";
      markClosed();
    });
    return rec;
  }

  function oauth(req: IncomingMessage, res: ServerResponse, raw: string, rec: RecordedRequest) {
    rec.body = Object.fromEntries(new URLSearchParams(raw));
    const scenario = authQueue.shift();
    if (scenario?.kind === "hang") return;
    if (scenario) {
      res.writeHead(scenario.status, { "content-type": "application/json", ...scenario.headers });
      res.end(JSON.stringify(scenario.body ?? { code: 6, message: "credentials doesn't match db data" }));
      return;
    }
    const token = `tok-${randomBytes(8).toString("hex")}`;
    const expiresAt = Date.now() + ttlMs;
    valid.set(token, expiresAt);
    issued.push(token);
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ access_token: token, expires_at: expiresAt }));
  }

  function chat(req: IncomingMessage, res: ServerResponse, raw: string, rec: RecordedRequest) {
    try {
      rec.body = JSON.parse(raw) as Record<string, unknown>;
    } catch {
      rec.body = { raw };
    }
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1] ?? "";
    const expiresAt = valid.get(token);
    if (!expiresAt || expiresAt <= Date.now()) {
      res.writeHead(401, { "content-type": "application/json", "x-request-id": rec.id });
      res.end(JSON.stringify(gigaError(401, "Token has expired")));
      return;
    }
    const model = String(rec.body.model ?? "");
    const name = model.startsWith("fake:") ? model.slice(5) : "answer";
    const scenario = queue.shift() ?? GIGACHAT_SCENARIOS[name] ?? { kind: "status", status: 404, body: gigaError(404, `No such model: ${name}`) };
    const headers = { "content-type": "text/event-stream; charset=utf-8", "x-request-id": rec.id, "x-session-id": randomUUID() };
    const ctx = { req, res, record: rec, answerEvents: () => gigachatAnswerChunks(model) };
    if (respondCommon(scenario, ctx, headers)) return;
    switch (scenario.kind) {
      case "answer":
        res.writeHead(200, headers);
        res.end(gigachatAnswerChunks(model, scenario.answer, scenario.done ?? true).join(""));
        return;
      case "error-200":
        res.writeHead(200, { "content-type": "application/json", "x-request-id": rec.id });
        res.end(JSON.stringify(gigaError(scenario.status, scenario.message)));
        return;
      case "error-event":
        res.writeHead(200, headers);
        res.end(gigachatAnswerChunks(model).slice(0, scenario.afterChunks).join("") + sse(gigaError(500, "Internal Server Error")));
        return;
      case "slow": {
        res.writeHead(200, headers);
        const frames = gigachatAnswerChunks(model);
        const progress = { sent: 0, total: frames.length };
        streamed.set(rec.id, progress);
        const timer = setInterval(() => {
          if (progress.sent >= frames.length) {
            clearInterval(timer);
            res.end();
            return;
          }
          res.write(frames[progress.sent++]);
        }, scenario.intervalMs);
        res.on("close", () => clearInterval(timer));
        return;
      }
    }
  }

  const handler = async (req: IncomingMessage, res: ServerResponse) => {
    const isAuth = req.url === "/api/v2/oauth";
    const rec = record(req, res, isAuth ? authRequests : requests);
    const raw = await readRaw(req);
    if (req.method === "POST" && isAuth) return oauth(req, res, raw, rec);
    if (req.method === "POST" && req.url === "/api/v1/chat/completions") return chat(req, res, raw, rec);
    res.writeHead(404, { "content-type": "application/json" });
    res.end(JSON.stringify(gigaError(404, `no route ${req.method} ${req.url}`)));
  };
  const server = options.tls ? https.createServer({ key: options.tls.key, cert: options.tls.cert }, handler) : http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const url = `${options.tls ? "https" : "http"}://127.0.0.1:${port}`;
  return {
    url,
    authUrl: `${url}/api/v2/oauth`,
    baseURL: `${url}/api/v1`,
    requests,
    authRequests,
    issued,
    streamed,
    enqueue: (...scenarios) => queue.push(...scenarios),
    enqueueAuth: (...scenarios) => authQueue.push(...scenarios),
    setTokenTtlMs: (ms) => (ttlMs = ms),
    revoke: (token) => valid.delete(token),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
