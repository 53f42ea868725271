// A local server that speaks the Anthropic Messages wire format (POST /v1/messages, streamed as
// server-sent events in the recorded shape: message_start, content blocks for server_tool_use,
// web_search_tool_result and text with citations, message_delta with usage, message_stop), for
// tests that put the real @anthropic-ai/sdk between the adapter and a provider that misbehaves on
// purpose.
//
// Scenario choice and recording work as in openai-server.ts (`enqueue`, or a `fake:<name>` model
// from `ANTHROPIC_SCENARIOS`, else a normal answer).
import { respondCommon, sse, startScriptedServer, type CommonScenario, type FakeServer, type ScenarioContext } from "./openai-server";

type SearchResult = { url: string; title: string; page_age?: string | null };

export type AnthropicBlock =
  | { type: "text"; text: string; citations?: { url: string; title: string; cited_text: string }[] }
  /** A server_tool_use block with this query, then its web_search_tool_result (results or an error code). */
  | { type: "search"; query: string; results: SearchResult[] | { error_code: string } };

export type AnthropicAnswer = {
  blocks: AnthropicBlock[];
  stopReason: "end_turn" | "pause_turn" | "refusal" | "max_tokens";
  usage: { input_tokens: number; output_tokens: number; cache_read_input_tokens: number; cache_creation_input_tokens: number; web_search_requests: number; thinking_tokens?: number };
};

const HUBSPOT = { url: "https://www.hubspot.com/products/crm", title: "Free CRM Software | HubSpot", page_age: "March 2, 2026" };
const PIPEDRIVE = { url: "https://www.pipedrive.com/en/pricing", title: "Pipedrive pricing", page_age: null };
const G2 = { url: "https://www.g2.com/categories/crm", title: "Best CRM Software 2026 | G2", page_age: "September 14, 2026" };
const ZOHO = { url: "https://www.zoho.com/crm/", title: "Zoho CRM", page_age: null };

const SEARCHES: AnthropicBlock[] = [
  { type: "text", text: "I'll look up current CRM recommendations for small teams." },
  { type: "search", query: "best CRM for 10 person startup 2026", results: [HUBSPOT, G2, PIPEDRIVE] },
  { type: "search", query: "HubSpot vs Pipedrive pricing small team", results: [PIPEDRIVE, ZOHO] },
];

const ANSWER_TEXT: AnthropicBlock[] = [
  { type: "text", text: "For a 10-person startup, " },
  { type: "text", text: "HubSpot CRM is the usual first pick, since its free tier covers contacts and deals", citations: [{ ...HUBSPOT, cited_text: "HubSpot's free CRM includes contact management, deals and tasks." }] },
  { type: "text", text: ". " },
  { type: "text", text: "Pipedrive suits sales-led teams that live in their pipeline", citations: [{ ...PIPEDRIVE, cited_text: "Pipedrive is built around a visual sales pipeline." }] },
  { type: "text", text: ". Salesforce is usually more than a team this size needs." },
];

export const ANTHROPIC_ANSWER: AnthropicAnswer = {
  blocks: [...SEARCHES, ...ANSWER_TEXT],
  stopReason: "end_turn",
  usage: { input_tokens: 2679, output_tokens: 512, cache_read_input_tokens: 1024, cache_creation_input_tokens: 0, web_search_requests: 2 },
};

export const textOf = (answer: AnthropicAnswer) => answer.blocks.map((b) => (b.type === "text" ? b.text : "")).join("");

/** The first half of a long search turn, handed back with stop_reason "pause_turn". */
export const ANTHROPIC_PAUSED: AnthropicAnswer = {
  blocks: SEARCHES,
  stopReason: "pause_turn",
  usage: { input_tokens: 2100, output_tokens: 90, cache_read_input_tokens: 0, cache_creation_input_tokens: 0, web_search_requests: 2 },
};

/** The rest of that turn, streamed for the request that sent the paused content back. */
export const ANTHROPIC_CONTINUED: AnthropicAnswer = {
  blocks: ANSWER_TEXT,
  stopReason: "end_turn",
  usage: { input_tokens: 5200, output_tokens: 420, cache_read_input_tokens: 0, cache_creation_input_tokens: 0, web_search_requests: 0 },
};

const withSearch = (results: SearchResult[] | { error_code: string }, extra: AnthropicBlock[] = []): AnthropicAnswer => ({
  blocks: [{ type: "search", query: "best CRM for 10 person startup 2026", results }, ...extra, { type: "text", text: "Without fresh search results: HubSpot and Pipedrive are common picks for small teams." }],
  stopReason: "end_turn",
  usage: { input_tokens: 900, output_tokens: 60, cache_read_input_tokens: 0, cache_creation_input_tokens: 0, web_search_requests: 1 },
});

export type AnthropicScenario =
  | CommonScenario
  | { kind: "answer"; answer?: AnthropicAnswer }
  /** The paused half while the request carries fewer than `times` assistant messages, then the rest. */
  | { kind: "pause"; times: number }
  /** The first `afterEvents` events of a normal answer, then an `error` event of this type. */
  | { kind: "error-event"; type: string; afterEvents: number };

const anthropicError = (type: string, message: string) => ({ type: "error", error: { type, message } });

/** Scenarios a model name can ask for: `fake:<name>`. */
export const ANTHROPIC_SCENARIOS: Record<string, AnthropicScenario> = {
  answer: { kind: "answer" },
  "rate-limited": { kind: "status", status: 429, headers: { "retry-after": "12" }, body: anthropicError("rate_limit_error", "Number of request tokens has exceeded your per-minute rate limit") },
  "server-error": { kind: "status", status: 500, body: anthropicError("api_error", "Internal server error") },
  "bad-gateway": { kind: "status", status: 502, body: "<html><center><h1>502 Bad Gateway</h1></center></html>" },
  unavailable: { kind: "status", status: 503, body: anthropicError("api_error", "Service unavailable") },
  overloaded: { kind: "status", status: 529, body: anthropicError("overloaded_error", "Overloaded") },
  "bad-request": { kind: "status", status: 400, body: anthropicError("invalid_request_error", "model: claude-nope is not a valid model") },
  unauthorized: { kind: "status", status: 401, body: anthropicError("authentication_error", "invalid x-api-key") },
  forbidden: { kind: "status", status: 403, body: anthropicError("permission_error", "Your API key does not have permission to use the specified resource.") },
  // 12 events: message_start, ping, the opening text block and the start of the first search.
  reset: { kind: "reset", afterEvents: 12 },
  hang: { kind: "hang" },
  stall: { kind: "stall", afterEvents: 12 },
  garbage: { kind: "raw", contentType: "text/event-stream", body: "event: message_start\ndata: <html><body>upstream connect error</body></html>\n\n" },
  html: { kind: "raw", contentType: "text/html", body: "<html><body><h1>Service temporarily unavailable</h1></body></html>" },
  empty: { kind: "raw", contentType: "text/event-stream", body: "" },
  pause: { kind: "pause", times: 1 },
  "search-unavailable": { kind: "answer", answer: withSearch({ error_code: "unavailable" }) },
  "search-rate-limited": { kind: "answer", answer: withSearch({ error_code: "too_many_requests" }) },
  "max-uses": { kind: "answer", answer: withSearch([HUBSPOT], [{ type: "search", query: "hubspot pricing", results: { error_code: "max_uses_exceeded" } }]) },
  refusal: { kind: "answer", answer: { blocks: [], stopReason: "refusal", usage: { input_tokens: 40, output_tokens: 2, cache_read_input_tokens: 0, cache_creation_input_tokens: 0, web_search_requests: 0 } } },
  "overloaded-mid-stream": { kind: "error-event", type: "overloaded_error", afterEvents: 12 },
};

const TEXT_CHUNK = 24;
const encrypted = (s: string) => Buffer.from(s).toString("base64");

/** The event sequence of a real streamed message with web searches and cited text. */
export function anthropicAnswerEvents(requestId: string, model: string, answer: AnthropicAnswer = ANTHROPIC_ANSWER): string[] {
  const events: string[] = [];
  const push = (data: { type: string; [k: string]: unknown }) => events.push(sse(data, data.type));
  const id = `msg_${requestId.replace(/^req_/, "")}`;
  const u = answer.usage;
  push({
    type: "message_start",
    message: { id, type: "message", role: "assistant", model, content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: u.input_tokens, cache_creation_input_tokens: u.cache_creation_input_tokens, cache_read_input_tokens: u.cache_read_input_tokens, output_tokens: 1, service_tier: "standard" } },
  });
  push({ type: "ping" });
  let index = 0;
  for (const [n, block] of answer.blocks.entries()) {
    if (block.type === "text") {
      push({ type: "content_block_start", index, content_block: { type: "text", text: "" } });
      for (const c of block.citations ?? []) {
        push({ type: "content_block_delta", index, delta: { type: "citations_delta", citation: { type: "web_search_result_location", url: c.url, title: c.title, cited_text: c.cited_text, encrypted_index: encrypted(c.url) } } });
      }
      for (let i = 0; i < block.text.length; i += TEXT_CHUNK) push({ type: "content_block_delta", index, delta: { type: "text_delta", text: block.text.slice(i, i + TEXT_CHUNK) } });
      push({ type: "content_block_stop", index });
      index += 1;
      continue;
    }
    const toolId = `srvtoolu_${id.slice(4, 12)}${n}`;
    push({ type: "content_block_start", index, content_block: { type: "server_tool_use", id: toolId, name: "web_search", input: {} } });
    const json = JSON.stringify({ query: block.query });
    for (const piece of ["", json.slice(0, 9), json.slice(9, 20), json.slice(20)]) push({ type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json: piece } });
    push({ type: "content_block_stop", index });
    index += 1;
    const content = Array.isArray(block.results)
      ? block.results.map((r) => ({ type: "web_search_result", title: r.title, url: r.url, encrypted_content: encrypted(r.url), page_age: r.page_age ?? null }))
      : { type: "web_search_tool_result_error", error_code: block.results.error_code };
    push({ type: "content_block_start", index, content_block: { type: "web_search_tool_result", tool_use_id: toolId, content } });
    push({ type: "content_block_stop", index });
    index += 1;
  }
  push({
    type: "message_delta",
    delta: { stop_reason: answer.stopReason, stop_sequence: null },
    usage: {
      input_tokens: u.input_tokens,
      cache_creation_input_tokens: u.cache_creation_input_tokens,
      cache_read_input_tokens: u.cache_read_input_tokens,
      output_tokens: u.output_tokens,
      server_tool_use: { web_search_requests: u.web_search_requests },
      ...(u.thinking_tokens ? { output_tokens_details: { thinking_tokens: u.thinking_tokens } } : {}),
    },
  });
  push({ type: "message_stop" });
  return events;
}

function assistantTurns(body: Record<string, unknown>): number {
  const messages = Array.isArray(body.messages) ? (body.messages as { role?: string }[]) : [];
  return messages.filter((m) => m.role === "assistant").length;
}

function respondAnthropic(scenario: AnthropicScenario, ctx: ScenarioContext): void {
  const { res, record } = ctx;
  const headers = { "content-type": "text/event-stream; charset=utf-8", "request-id": record.id };
  if (respondCommon(scenario, ctx, headers)) return;
  const model = String(record.body.model ?? "");
  res.writeHead(200, headers);
  switch (scenario.kind) {
    case "answer":
      res.end(anthropicAnswerEvents(record.id, model, scenario.answer).join(""));
      return;
    case "pause":
      res.end(anthropicAnswerEvents(record.id, model, assistantTurns(record.body) < scenario.times ? ANTHROPIC_PAUSED : ANTHROPIC_CONTINUED).join(""));
      return;
    case "error-event":
      res.end(ctx.answerEvents().slice(0, scenario.afterEvents).join("") + sse(anthropicError(scenario.type, "Overloaded"), "error"));
      return;
  }
}

function pickAnthropic(body: Record<string, unknown>): AnthropicScenario {
  const name = typeof body.model === "string" && body.model.startsWith("fake:") ? body.model.slice(5) : "answer";
  return ANTHROPIC_SCENARIOS[name] ?? { kind: "status", status: 404, body: anthropicError("not_found_error", `model: ${name}`) };
}

/** Give the SDK `url` as its base URL (it posts to `${url}/v1/messages`). */
export function startFakeAnthropic(): Promise<FakeServer<AnthropicScenario>> {
  return startScriptedServer<AnthropicScenario>({
    pathPrefix: "",
    endpoint: "/v1/messages",
    idPrefix: "req_",
    pick: pickAnthropic,
    respond: respondAnthropic,
    answerEvents: (record) => anthropicAnswerEvents(record.id, String(record.body.model ?? "")),
  });
}
