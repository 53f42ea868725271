// A local server that speaks the OpenAI Responses wire format (POST /v1/responses, streamed as
// server-sent events in the recorded shape), for tests that put the real openai SDK between an
// adapter and a provider that misbehaves on purpose.
//
// What a request gets: the next scripted scenario (`enqueue`), else the one its model names
// (`fake:<name>`, see `OPENAI_SCENARIOS`; usable from worker processes too), else a normal answer
// with web searches and citations. Every request is recorded, with whether the client closed the
// connection before the response ended.
//
// The scripted-server part (`startScriptedServer`, `Scenario` kinds other than the answer) is
// shared with perplexity-server.ts.
import { randomBytes } from "node:crypto";
import http, { type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export type RecordedRequest = {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** Parsed JSON body (`{ raw }` when it is not a JSON object). */
  body: Record<string, unknown>;
  /** The id the server put in x-request-id and in the answer (resp_... / chat id). */
  id: string;
  /** "client": the client closed the connection before the response ended; "server": we dropped it. */
  closedBy?: "client" | "server";
  /** Resolves when the connection of this request has closed, for whatever reason. */
  closed: Promise<void>;
};

/** Misbehaviours both fake providers share; each server adds its own answer kinds. */
export type CommonScenario =
  /** An error status, after `delayMs` when given (a provider that thinks before it refuses). */
  | { kind: "status"; status: number; body?: unknown; headers?: Record<string, string>; delayMs?: number }
  /** Streams the first `afterEvents` events of a normal answer, then resets (RST) the connection. */
  | { kind: "reset"; afterEvents: number }
  /** Never answers; waits for the client to go away. */
  | { kind: "hang" }
  /** Streams the first `afterEvents` events of a normal answer, then goes silent. */
  | { kind: "stall"; afterEvents: number }
  /** A 200 with whatever body and content type (garbage, an HTML page, nothing). */
  | { kind: "raw"; contentType: string; body: string; status?: number };

export type Responder<S> = (scenario: S, ctx: ScenarioContext) => void;

export type ScenarioContext = {
  req: IncomingMessage;
  res: ServerResponse;
  record: RecordedRequest;
  /** Events of a normal answer for this request, for partial streams. */
  answerEvents: () => string[];
};

export type FakeServer<S> = {
  /** Base URL to give the SDK (includes /v1 for OpenAI). */
  url: string;
  requests: RecordedRequest[];
  /** Scripted scenarios, used one per request in order before any model-named scenario. */
  enqueue: (...scenarios: S[]) => void;
  close: () => Promise<void>;
};

export function sse(data: unknown, event?: string): string {
  return `${event ? `event: ${event}\n` : ""}data: ${JSON.stringify(data)}\n\n`;
}

async function readBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed && typeof parsed === "object" ? (parsed as Record<string, unknown>) : { raw: text };
  } catch {
    return { raw: text };
  }
}

/** Writes frames in order; resolves once the last one has been handed to the kernel. */
function writeAll(res: ServerResponse, frames: string[]): Promise<void> {
  return new Promise((resolve) => {
    if (!frames.length) return resolve();
    frames.forEach((frame, i) => res.write(frame, i === frames.length - 1 ? () => resolve() : undefined));
  });
}

/** Handles the scenarios both servers share; returns false for an answer kind. */
export function respondCommon(scenario: CommonScenario | { kind: string }, ctx: ScenarioContext, streamHeaders: Record<string, string>): boolean {
  const { res, req, record } = ctx;
  const s = scenario as CommonScenario;
  switch (s.kind) {
    case "status": {
      const send = () => {
        res.writeHead(s.status, { "content-type": "application/json", "x-request-id": record.id, ...s.headers });
        res.end(JSON.stringify(s.body ?? { error: { message: `status ${s.status}`, type: "fake", code: null } }));
      };
      if (s.delayMs) setTimeout(send, s.delayMs);
      else send();
      return true;
    }
    case "raw":
      res.writeHead(s.status ?? 200, { "content-type": s.contentType, "x-request-id": record.id });
      res.end(s.body);
      return true;
    case "hang":
      return true; // not even the headers go out
    case "reset":
    case "stall":
      res.writeHead(200, streamHeaders);
      void writeAll(res, ctx.answerEvents().slice(0, s.afterEvents)).then(() => {
        if (s.kind === "stall") return;
        record.closedBy = "server";
        // Give the loopback a turn to deliver the bytes before the RST discards unsent data.
        setImmediate(() => req.socket.resetAndDestroy());
      });
      return true;
    default:
      return false;
  }
}

/**
 * A node:http server on 127.0.0.1 and a random port. `pick` chooses the scenario of a request
 * that has none queued; `respond` writes it.
 */
export async function startScriptedServer<S>(options: {
  pathPrefix: string;
  endpoint: string;
  pick: (body: Record<string, unknown>) => S;
  respond: Responder<S>;
  answerEvents: (record: RecordedRequest) => string[];
  idPrefix: string;
}): Promise<FakeServer<S>> {
  const requests: RecordedRequest[] = [];
  const queue: S[] = [];
  const server = http.createServer(async (req, res) => {
    let markClosed = () => {};
    const closed = new Promise<void>((resolve) => (markClosed = resolve));
    const record: RecordedRequest = { method: req.method ?? "", path: req.url ?? "", headers: req.headers, body: {}, id: `${options.idPrefix}${randomBytes(6).toString("hex")}`, closed };
    requests.push(record);
    res.on("close", () => {
      if (!res.writableFinished && !record.closedBy) record.closedBy = "client";
      markClosed();
    });
    record.body = await readBody(req);
    if (req.method !== "POST" || req.url !== `${options.pathPrefix}${options.endpoint}`) {
      res.writeHead(404, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: { message: `no route ${req.method} ${req.url}`, type: "invalid_request_error", code: null } }));
      return;
    }
    const scenario = queue.length ? (queue.shift() as S) : options.pick(record.body);
    options.respond(scenario, { req, res, record, answerEvents: () => options.answerEvents(record) });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${options.pathPrefix}`,
    requests,
    enqueue: (...scenarios) => queue.push(...scenarios),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

// ---------------------------------------------------------------------------------------------
// OpenAI Responses

export type OpenAIAnswer = {
  text: string;
  /** url_citation annotations: the quoted `marker` is where the citation sits in the text. */
  citations: { url: string; title: string; marker: string }[];
  /** One web_search_call item each. */
  searches: ({ type: "search"; query: string; queries?: string[]; sources: string[] } | { type: "open_page"; url: string })[];
  usage: { input_tokens: number; cached_tokens: number; output_tokens: number; reasoning_tokens: number };
};

export const OPENAI_ANSWER: OpenAIAnswer = {
  text:
    "For a 10-person startup, **HubSpot CRM** is the usual first pick: free to start and quick to adopt " +
    "([hubspot.com](https://www.hubspot.com/products/crm?utm_source=openai)). Pipedrive suits sales-led teams " +
    "that live in their pipeline ([pipedrive.com](https://www.pipedrive.com/en/pricing?utm_source=openai)). " +
    "Salesforce is usually more than a team this size needs.",
  citations: [
    { url: "https://www.hubspot.com/products/crm?utm_source=openai", title: "Free CRM Software | HubSpot", marker: "([hubspot.com](https://www.hubspot.com/products/crm?utm_source=openai))" },
    { url: "https://www.pipedrive.com/en/pricing?utm_source=openai", title: "Pipedrive pricing", marker: "([pipedrive.com](https://www.pipedrive.com/en/pricing?utm_source=openai))" },
  ],
  searches: [
    {
      type: "search",
      query: "best CRM for small startups 2026",
      queries: ["best CRM for small startups 2026", "HubSpot vs Pipedrive for 10 person team"],
      sources: ["https://www.hubspot.com/products/crm?utm_source=openai", "https://www.g2.com/categories/crm", "https://www.capterra.com/customer-relationship-management-software/"],
    },
    { type: "search", query: "Pipedrive pricing", sources: ["https://www.pipedrive.com/en/pricing?utm_source=openai"] },
    { type: "open_page", url: "https://www.zoho.com/crm/" },
  ],
  usage: { input_tokens: 1840, cached_tokens: 256, output_tokens: 512, reasoning_tokens: 192 },
};

export type OpenAIScenario =
  | CommonScenario
  /**
   * A whole answer; with `thenStallMs`, once it is handed to the operating system this whole
   * process (and the client code running in it) is blocked that long: its event loop comes back
   * with the client's timers due and the answer unread in its socket.
   */
  | { kind: "answer"; answer?: OpenAIAnswer; thenStallMs?: number }
  /** response.failed with this error code (e.g. server_error, invalid_prompt). */
  | { kind: "failed"; code: string; message?: string }
  /** Some text (`text`, default a sentence's start), then response.incomplete with the answer's usage. */
  | { kind: "incomplete"; reason: "max_output_tokens" | "content_filter"; text?: string }
  /** An `error` event in the stream, in the nested shape the API sends. */
  | { kind: "error-event"; code: string; message?: string };

/** Scenarios a model name can ask for: `fake:<name>`. */
export const OPENAI_SCENARIOS: Record<string, OpenAIScenario> = {
  answer: { kind: "answer" },
  "rate-limited": { kind: "status", status: 429, headers: { "retry-after": "7" }, body: { error: { message: "Rate limit reached", type: "requests", code: "rate_limit_exceeded" } } },
  // A limit spent for the day (a rate limit per day): Retry-After a day out.
  "day-limited": { kind: "status", status: 429, headers: { "retry-after": "86400" }, body: { error: { message: "Rate limit reached for requests per day (RPD)", type: "requests", code: "rate_limit_exceeded" } } },
  "slow-rate-limited": { kind: "status", status: 429, delayMs: 1500, headers: { "retry-after": "1" }, body: { error: { message: "Rate limit reached", type: "requests", code: "rate_limit_exceeded" } } },
  "server-error": { kind: "status", status: 500, body: { error: { message: "The server had an error", type: "server_error", code: null } } },
  "bad-gateway": { kind: "status", status: 502, body: "<html>502 Bad Gateway</html>" },
  unavailable: { kind: "status", status: 503, body: { error: { message: "The engine is currently overloaded", type: "server_error", code: null } } },
  "bad-request": { kind: "status", status: 400, body: { error: { message: "Invalid value for 'model'", type: "invalid_request_error", code: "model_not_found" } } },
  unauthorized: { kind: "status", status: 401, body: { error: { message: "Incorrect API key provided", type: "invalid_request_error", code: "invalid_api_key" } } },
  // 22 events: the searches, the message item and the first three text deltas.
  reset: { kind: "reset", afterEvents: 22 },
  hang: { kind: "hang" },
  stall: { kind: "stall", afterEvents: 22 },
  garbage: { kind: "raw", contentType: "text/event-stream", body: "data: <html><body>upstream connect error</body></html>\n\n" },
  html: { kind: "raw", contentType: "text/html", body: "<html><body><h1>Service temporarily unavailable</h1></body></html>" },
  empty: { kind: "raw", contentType: "text/event-stream", body: "" },
  failed: { kind: "failed", code: "server_error" },
};

const TEXT_CHUNK = 24;

function responseObject(id: string, model: string, status: string, extra: Record<string, unknown> = {}) {
  return { id, object: "response", created_at: Math.floor(Date.now() / 1000), status, error: null, incomplete_details: null, model, output: [], usage: null, ...extra };
}

function usageOf(u: OpenAIAnswer["usage"]) {
  return {
    input_tokens: u.input_tokens,
    input_tokens_details: { cached_tokens: u.cached_tokens },
    output_tokens: u.output_tokens,
    output_tokens_details: { reasoning_tokens: u.reasoning_tokens },
    total_tokens: u.input_tokens + u.output_tokens,
  };
}

/** The event sequence of a real streamed response with web searches (created ... completed). */
export function openaiAnswerEvents(id: string, model: string, answer: OpenAIAnswer = OPENAI_ANSWER): string[] {
  const events: { type: string; [k: string]: unknown }[] = [];
  const push = (e: { type: string; [k: string]: unknown }) => events.push({ ...e, sequence_number: events.length });
  push({ type: "response.created", response: responseObject(id, model, "in_progress") });
  push({ type: "response.in_progress", response: responseObject(id, model, "in_progress") });
  const output: unknown[] = [];
  answer.searches.forEach((search, i) => {
    const itemId = `ws_${id.slice(5)}_${i}`;
    const action = search.type === "search" ? { type: "search", query: search.query, ...(search.queries ? { queries: search.queries } : {}), sources: search.sources.map((url) => ({ type: "url", url })) } : search;
    const item = { id: itemId, type: "web_search_call", status: "completed", action };
    push({ type: "response.output_item.added", output_index: output.length, item: { id: itemId, type: "web_search_call", status: "in_progress" } });
    for (const phase of ["in_progress", "searching", "completed"]) push({ type: `response.web_search_call.${phase}`, output_index: output.length, item_id: itemId });
    push({ type: "response.output_item.done", output_index: output.length, item });
    output.push(item);
  });
  const msgId = `msg_${id.slice(5)}`;
  const annotations = answer.citations.map((c) => {
    const start = answer.text.indexOf(c.marker);
    if (start < 0) throw new Error(`citation marker not in text: ${c.marker}`);
    return { type: "url_citation", start_index: start, end_index: start + c.marker.length, title: c.title, url: c.url };
  });
  const index = output.length;
  push({ type: "response.output_item.added", output_index: index, item: { id: msgId, type: "message", status: "in_progress", content: [], role: "assistant" } });
  push({ type: "response.content_part.added", item_id: msgId, output_index: index, content_index: 0, part: { type: "output_text", annotations: [], logprobs: [], text: "" } });
  let sent = 0;
  let announced = 0;
  while (sent < answer.text.length) {
    const delta = answer.text.slice(sent, sent + TEXT_CHUNK);
    sent += delta.length;
    push({ type: "response.output_text.delta", item_id: msgId, output_index: index, content_index: 0, delta, logprobs: [] });
    while (announced < annotations.length && (annotations[announced]?.end_index ?? Infinity) <= sent) {
      push({ type: "response.output_text.annotation.added", item_id: msgId, output_index: index, content_index: 0, annotation_index: announced, annotation: annotations[announced] });
      announced += 1;
    }
  }
  const part = { type: "output_text", annotations, logprobs: [], text: answer.text };
  push({ type: "response.output_text.done", item_id: msgId, output_index: index, content_index: 0, text: answer.text, logprobs: [] });
  push({ type: "response.content_part.done", item_id: msgId, output_index: index, content_index: 0, part });
  const message = { id: msgId, type: "message", status: "completed", content: [part], role: "assistant" };
  push({ type: "response.output_item.done", output_index: index, item: message });
  output.push(message);
  push({ type: "response.completed", response: responseObject(id, model, "completed", { output, usage: usageOf(answer.usage) }) });
  return events.map((e) => sse(e, e.type));
}

function respondOpenAI(scenario: OpenAIScenario, ctx: ScenarioContext): void {
  const { res, record } = ctx;
  const headers = { "content-type": "text/event-stream; charset=utf-8", "x-request-id": record.id };
  if (respondCommon(scenario, ctx, headers)) return;
  const model = String(record.body.model ?? "");
  const id = record.id;
  const created = sse({ type: "response.created", sequence_number: 0, response: responseObject(id, model, "in_progress") }, "response.created");
  res.writeHead(200, headers);
  switch (scenario.kind) {
    case "answer": {
      const stallMs = scenario.thenStallMs;
      res.end(openaiAnswerEvents(id, model, scenario.answer).join(""), stallMs ? () => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, stallMs) : undefined);
      return;
    }
    case "failed": {
      const error = { code: scenario.code, message: scenario.message ?? `The response failed (${scenario.code})` };
      res.end(created + sse({ type: "response.failed", sequence_number: 1, response: responseObject(id, model, "failed", { error }) }, "response.failed"));
      return;
    }
    case "incomplete": {
      const text = scenario.text ?? "HubSpot CRM is the usual first pick";
      const delta = sse({ type: "response.output_text.delta", sequence_number: 1, item_id: `msg_${id}`, output_index: 0, content_index: 0, delta: text, logprobs: [] }, "response.output_text.delta");
      const output = [{ id: `msg_${id}`, type: "message", status: "incomplete", role: "assistant", content: [{ type: "output_text", text, annotations: [] }] }];
      const response = responseObject(id, model, "incomplete", { incomplete_details: { reason: scenario.reason }, output, usage: usageOf(OPENAI_ANSWER.usage) });
      res.end(created + delta + sse({ type: "response.incomplete", sequence_number: 2, response }, "response.incomplete"));
      return;
    }
    case "error-event": {
      const error = { type: scenario.code, code: scenario.code, message: scenario.message ?? `Stream error (${scenario.code})`, param: null };
      res.end(created + sse({ type: "error", sequence_number: 1, error }, "error"));
      return;
    }
  }
}

function pickOpenAI(body: Record<string, unknown>): OpenAIScenario {
  const name = typeof body.model === "string" && body.model.startsWith("fake:") ? body.model.slice(5) : "answer";
  return OPENAI_SCENARIOS[name] ?? { kind: "status", status: 404, body: { error: { message: `The model '${name}' does not exist`, type: "invalid_request_error", code: "model_not_found" } } };
}

export function startFakeOpenAI(): Promise<FakeServer<OpenAIScenario>> {
  return startScriptedServer<OpenAIScenario>({
    pathPrefix: "/v1",
    endpoint: "/responses",
    idPrefix: "resp_",
    pick: pickOpenAI,
    respond: respondOpenAI,
    answerEvents: (record) => openaiAnswerEvents(record.id, String(record.body.model ?? "")),
  });
}
