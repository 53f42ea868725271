// A local server that speaks Perplexity's chat completions wire format (POST /chat/completions,
// streamed as `data:` chunks in the recorded shape: citations on every chunk, search_results and
// the full usage in the final ones, a last `chat.completion.done` chunk), for tests that put the
// real openai SDK between the Perplexity adapter and a provider that misbehaves on purpose.
//
// Scenario choice and recording work as in openai-server.ts (`enqueue`, or a `fake:<name>` model
// from `PERPLEXITY_SCENARIOS`, else a normal answer).
import { respondCommon, sse, startScriptedServer, type CommonScenario, type FakeServer, type ScenarioContext } from "./openai-server";

export type PerplexityAnswer = {
  /** Streamed as is, `<think>` block and `[n]` markers included. */
  content: string;
  citations: string[];
  search_results: { title: string; url: string; date: string | null }[];
  usage: { prompt_tokens: number; completion_tokens: number; reasoning_tokens?: number; num_search_queries?: number };
  /** Of the last chunk: "length" when the answer was cut off at max_tokens. Default "stop". */
  finish_reason?: "stop" | "length";
};

export const PERPLEXITY_ANSWER: PerplexityAnswer = {
  content:
    "For a 10-person startup, **HubSpot CRM** is the common starting point: its free tier covers contacts and deals[1][2]. " +
    "Pipedrive suits sales-led teams that live in their pipeline[3]. Salesforce is usually more than a team this size needs.",
  citations: ["https://www.hubspot.com/products/crm", "https://www.g2.com/categories/crm", "https://www.pipedrive.com/en/pricing", "https://www.salesforce.com/small-business/"],
  search_results: [
    { title: "Free CRM Software | HubSpot", url: "https://www.hubspot.com/products/crm", date: "2026-03-02" },
    { title: "Best CRM Software 2026 | G2", url: "https://www.g2.com/categories/crm", date: "2026-09-14" },
    { title: "Pipedrive pricing", url: "https://www.pipedrive.com/en/pricing", date: null },
    { title: "Salesforce for small business", url: "https://www.salesforce.com/small-business/", date: "2025-11-20" },
  ],
  usage: { prompt_tokens: 14, completion_tokens: 96, num_search_queries: 1 },
};

/** A sonar-reasoning answer: the think block must not reach the stored text. */
export const PERPLEXITY_REASONING_ANSWER: PerplexityAnswer = {
  ...PERPLEXITY_ANSWER,
  content: "<think>\nThe user wants a CRM. Salesforce, Zoho and HubSpot come to mind; check sources.\n</think>\n\n" + PERPLEXITY_ANSWER.content,
  usage: { prompt_tokens: 14, completion_tokens: 131, reasoning_tokens: 2048, num_search_queries: 2 },
};

export type PerplexityScenario =
  | CommonScenario
  | { kind: "answer"; answer?: PerplexityAnswer }
  /** HTTP 200 with a JSON body reporting a failed run (the Agent API's shape). */
  | { kind: "failed-200" }
  /** A normal answer's first chunks, then a chunk reporting `status: "failed"`. */
  | { kind: "failed-chunk" };

const error = (status: number, type: string, message: string) => ({ error: { message, type, code: status } });

/** Scenarios a model name can ask for: `fake:<name>`. */
export const PERPLEXITY_SCENARIOS: Record<string, PerplexityScenario> = {
  answer: { kind: "answer" },
  reasoning: { kind: "answer", answer: PERPLEXITY_REASONING_ANSWER },
  "rate-limited": { kind: "status", status: 429, headers: { "retry-after": "3" }, body: error(429, "rate_limit_exceeded", "Too many requests") },
  "server-error": { kind: "status", status: 500, body: error(500, "internal_server_error", "Internal server error") },
  "bad-gateway": { kind: "status", status: 502, body: "<html><center><h1>502 Bad Gateway</h1></center></html>" },
  unavailable: { kind: "status", status: 503, body: error(503, "service_unavailable", "Service temporarily unavailable") },
  "bad-request": { kind: "status", status: 400, body: error(400, "invalid_model", "Invalid model 'sonar-xl'") },
  unauthorized: { kind: "status", status: 401, body: error(401, "invalid_api_key", "Invalid API key") },
  reset: { kind: "reset", afterEvents: 3 },
  hang: { kind: "hang" },
  stall: { kind: "stall", afterEvents: 3 },
  garbage: { kind: "raw", contentType: "text/event-stream", body: "data: <html><body>upstream connect error</body></html>\n\n" },
  html: { kind: "raw", contentType: "text/html", body: "<html><body><h1>Service temporarily unavailable</h1></body></html>" },
  empty: { kind: "raw", contentType: "text/event-stream", body: "" },
  "failed-200": { kind: "failed-200" },
  "failed-chunk": { kind: "failed-chunk" },
};

const TEXT_CHUNK = 20;

/** The chunks of a real streamed answer, each as an SSE frame (no `[DONE]`, as Perplexity sends). */
export function perplexityAnswerChunks(id: string, model: string, answer: PerplexityAnswer = PERPLEXITY_ANSWER): string[] {
  const created = Math.floor(Date.now() / 1000);
  const pieces = answer.content.match(new RegExp(`[\\s\\S]{1,${TEXT_CHUNK}}`, "g")) ?? [];
  const frames = pieces.map((content, i) => {
    const last = i >= pieces.length - 2; // search_results arrive in the final chunks
    return sse({
      id,
      model,
      created,
      object: "chat.completion.chunk",
      usage: { prompt_tokens: answer.usage.prompt_tokens, completion_tokens: i + 1, total_tokens: answer.usage.prompt_tokens + i + 1 },
      citations: answer.citations,
      ...(last ? { search_results: answer.search_results } : {}),
      choices: [{ index: 0, delta: { role: "assistant", content }, finish_reason: null }],
    });
  });
  const usage = {
    ...answer.usage,
    total_tokens: answer.usage.prompt_tokens + answer.usage.completion_tokens,
    search_context_size: "low",
    cost: { input_tokens_cost: 0.00001, output_tokens_cost: 0.0001, request_cost: 0.005, total_cost: 0.00511 },
  };
  frames.push(
    sse({
      id,
      model,
      created,
      object: "chat.completion.done",
      usage,
      citations: answer.citations,
      search_results: answer.search_results,
      choices: [{ index: 0, delta: { role: "assistant", content: "" }, finish_reason: answer.finish_reason ?? "stop" }],
    }),
  );
  return frames;
}

function respondPerplexity(scenario: PerplexityScenario, ctx: ScenarioContext): void {
  const { res, record } = ctx;
  const headers = { "content-type": "text/event-stream; charset=utf-8" };
  if (respondCommon(scenario, ctx, headers)) return;
  switch (scenario.kind) {
    case "answer":
      res.writeHead(200, headers);
      res.end(perplexityAnswerChunks(record.id, String(record.body.model ?? ""), scenario.answer).join(""));
      return;
    case "failed-200":
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ id: record.id, object: "response", status: "failed", error: { code: "internal_error", message: "The run failed" }, output: [] }));
      return;
    case "failed-chunk":
      res.writeHead(200, headers);
      res.end(ctx.answerEvents().slice(0, 2).join("") + sse({ id: record.id, status: "failed", error: { message: "Search backend unavailable" } }));
      return;
  }
}

function pickPerplexity(body: Record<string, unknown>): PerplexityScenario {
  const name = typeof body.model === "string" && body.model.startsWith("fake:") ? body.model.slice(5) : "answer";
  return PERPLEXITY_SCENARIOS[name] ?? { kind: "status", status: 400, body: error(400, "invalid_model", `Invalid model '${name}'`) };
}

export function startFakePerplexity(): Promise<FakeServer<PerplexityScenario>> {
  return startScriptedServer<PerplexityScenario>({
    pathPrefix: "",
    endpoint: "/chat/completions",
    idPrefix: "",
    pick: pickPerplexity,
    respond: respondPerplexity,
    answerEvents: (record) => perplexityAnswerChunks(record.id, String(record.body.model ?? "")),
  });
}
