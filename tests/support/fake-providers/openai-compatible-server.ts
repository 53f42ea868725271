// A local server that speaks OpenAI's chat completions wire format as the compatible servers do
// (POST /v1/chat/completions, streamed as `data:` chunks of `object: "chat.completion.chunk"`
// ending with `data: [DONE]`; https://platform.openai.com/docs/api-reference/chat-streaming),
// with their dialects:
//   - DeepSeek and vLLM's reasoning parsers stream the thinking as `delta.reasoning_content`
//     before the answer's `delta.content` (https://api-docs.deepseek.com/guides/reasoning_model,
//     https://docs.vllm.ai/en/latest/features/reasoning_outputs.html);
//   - the usage chunk (`choices: []`, `usage` with completion_tokens_details.reasoning_tokens) is
//     sent only when the request asks for it with stream_options.include_usage, and not at all by
//     servers that ignore the option (scenario "no-usage");
//   - xAI's `citations[]` of URLs, or `annotations` of type url_citation, are the only sources;
//   - errors after the headers are an `{"error": ...}` chunk inside the 200 (vLLM's
//     create_streaming_error_response; Ollama's OpenAI layer, openai/openai.go).
//
// Scenario choice and recording work as in openai-server.ts (`enqueue`, or a `fake:<name>` model
// from `COMPATIBLE_SCENARIOS`, else a normal answer).
import { respondCommon, sse, startScriptedServer, type CommonScenario, type FakeServer, type ScenarioContext } from "./openai-server";

export type CompatibleAnswer = {
  content: string;
  /** Streamed as delta.reasoning_content before the answer. */
  reasoning?: string;
  /** xAI-style citations[] on the last chunk. */
  citations?: string[];
  /** url_citation annotations on the last content delta. */
  annotations?: { url: string; title: string }[];
  usage: { prompt_tokens: number; completion_tokens: number; cached_tokens?: number; reasoning_tokens?: number };
  finish_reason?: "stop" | "length";
};

export const COMPATIBLE_ANSWER: CompatibleAnswer = {
  content:
    "For a 10-person startup, **HubSpot CRM** is a common first choice: its free tier covers contacts and deals. " +
    "Pipedrive suits sales-led teams that live in their pipeline. Salesforce is usually more than a team this size needs.",
  usage: { prompt_tokens: 18, completion_tokens: 64, cached_tokens: 0 },
};

/** deepseek-reasoner / a vLLM reasoning parser: the thinking names Zoho, the answer does not. */
export const COMPATIBLE_REASONING_ANSWER: CompatibleAnswer = {
  ...COMPATIBLE_ANSWER,
  reasoning: "The user wants a CRM for a small team. Zoho CRM, HubSpot and Pipedrive come to mind; Zoho is cheap but clunky.",
  usage: { prompt_tokens: 18, completion_tokens: 364, cached_tokens: 12, reasoning_tokens: 300 },
};

/** Grok with live search: citations[] of URLs, the first marked in the text. */
export const COMPATIBLE_CITED_ANSWER: CompatibleAnswer = {
  ...COMPATIBLE_ANSWER,
  content: "HubSpot CRM has a free tier that covers contacts and deals [1]. Pipedrive suits sales-led teams.",
  citations: ["https://www.hubspot.com/products/crm", "https://www.g2.com/categories/crm"],
};

export const COMPATIBLE_ANNOTATED_ANSWER: CompatibleAnswer = {
  ...COMPATIBLE_ANSWER,
  annotations: [{ url: "https://www.pipedrive.com/en/pricing", title: "Pipedrive pricing" }],
};

export type CompatibleScenario =
  | CommonScenario
  | { kind: "answer"; answer?: CompatibleAnswer; usage?: "if-asked" | "never" }
  /** An `{"error": ...}` chunk after `afterChunks` chunks of a normal answer (0: the first chunk). */
  | { kind: "error-chunk"; afterChunks: number; error: Record<string, unknown> }
  /** HTTP 200 with a whole chat.completion JSON body, though a stream was asked for. */
  | { kind: "json"; answer?: CompatibleAnswer };

const error = (status: number, type: string, message: string) => ({ error: { message, type, code: status } });

/** vLLM's streamed error shape (code = an HTTP status) and Ollama's (no code). */
export const VLLM_STREAM_ERROR = { error: { message: "The engine failed while generating", type: "InternalServerError", code: 500 } };
export const VLLM_BAD_REQUEST_CHUNK = { error: { message: "This model's maximum context length is 4096 tokens", type: "BadRequestError", code: 400 } };
export const OLLAMA_STREAM_ERROR = { error: { type: "api_error", message: "llama runner process has terminated: signal: killed" } };

/** Scenarios a model name can ask for: `fake:<name>`. */
export const COMPATIBLE_SCENARIOS: Record<string, CompatibleScenario> = {
  answer: { kind: "answer" },
  reasoning: { kind: "answer", answer: COMPATIBLE_REASONING_ANSWER },
  cited: { kind: "answer", answer: COMPATIBLE_CITED_ANSWER },
  "no-usage": { kind: "answer", usage: "never" },
  "rate-limited": { kind: "status", status: 429, headers: { "retry-after": "7" }, body: error(429, "rate_limit_exceeded", "Rate limit reached") },
  "server-error": { kind: "status", status: 500, body: error(500, "internal_server_error", "Internal server error") },
  unauthorized: { kind: "status", status: 401, body: error(401, "authentication_error", "Authentication Fails, Your api key is invalid") },
  "error-chunk": { kind: "error-chunk", afterChunks: 2, error: VLLM_STREAM_ERROR },
  hang: { kind: "hang" },
};

const TEXT_CHUNK = 24;
const pieces = (text: string) => text.match(new RegExp(`[\\s\\S]{1,${TEXT_CHUNK}}`, "g")) ?? [];

/** The SSE frames of a streamed answer, in the order the servers send them. */
export function compatibleAnswerChunks(id: string, model: string, answer: CompatibleAnswer = COMPATIBLE_ANSWER, withUsage = true): string[] {
  const created = Math.floor(Date.now() / 1000);
  const chunk = (delta: Record<string, unknown>, finish: string | null = null, extra: Record<string, unknown> = {}) =>
    sse({ id, object: "chat.completion.chunk", created, model, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }], ...extra });
  const frames = [chunk({ role: "assistant", content: "" })];
  for (const piece of pieces(answer.reasoning ?? "")) frames.push(chunk({ reasoning_content: piece, content: null }));
  const content = pieces(answer.content);
  content.forEach((piece, i) => frames.push(chunk({ content: piece, ...(i === content.length - 1 && answer.annotations ? { annotations: answer.annotations.map((a) => ({ type: "url_citation", url_citation: a })) } : {}) })));
  frames.push(chunk({}, answer.finish_reason ?? "stop", answer.citations ? { citations: answer.citations } : {}));
  if (withUsage) {
    const u = answer.usage;
    frames.push(
      sse({
        id,
        object: "chat.completion.chunk",
        created,
        model,
        choices: [],
        usage: {
          prompt_tokens: u.prompt_tokens,
          completion_tokens: u.completion_tokens,
          total_tokens: u.prompt_tokens + u.completion_tokens,
          prompt_tokens_details: { cached_tokens: u.cached_tokens ?? 0 },
          ...(u.reasoning_tokens !== undefined ? { completion_tokens_details: { reasoning_tokens: u.reasoning_tokens } } : {}),
        },
      }),
    );
  }
  frames.push("data: [DONE]\n\n");
  return frames;
}

const asksForUsage = (body: Record<string, unknown>) => (body.stream_options as { include_usage?: boolean } | undefined)?.include_usage === true;

function respondCompatible(scenario: CompatibleScenario, ctx: ScenarioContext): void {
  const { res, record } = ctx;
  const headers = { "content-type": "text/event-stream; charset=utf-8", "x-request-id": `req-${record.id}` };
  if (respondCommon(scenario, ctx, headers)) return;
  const model = String(record.body.model ?? "");
  switch (scenario.kind) {
    case "answer": {
      const withUsage = scenario.usage !== "never" && asksForUsage(record.body);
      res.writeHead(200, headers);
      res.end(compatibleAnswerChunks(record.id, model, scenario.answer, withUsage).join(""));
      return;
    }
    case "error-chunk":
      // Both servers end the stream after the error: vLLM with [DONE], Ollama by closing it.
      res.writeHead(200, headers);
      res.end(ctx.answerEvents().slice(0, scenario.afterChunks).join("") + sse(scenario.error) + "data: [DONE]\n\n");
      return;
    case "json": {
      const answer = scenario.answer ?? COMPATIBLE_ANSWER;
      res.writeHead(200, { "content-type": "application/json", "x-request-id": `req-${record.id}` });
      res.end(
        JSON.stringify({
          id: record.id,
          object: "chat.completion",
          model,
          choices: [{ index: 0, message: { role: "assistant", content: answer.content, reasoning_content: answer.reasoning ?? null }, finish_reason: "stop" }],
          usage: { prompt_tokens: answer.usage.prompt_tokens, completion_tokens: answer.usage.completion_tokens, total_tokens: answer.usage.prompt_tokens + answer.usage.completion_tokens },
        }),
      );
      return;
    }
  }
}

function pickCompatible(body: Record<string, unknown>): CompatibleScenario {
  const name = typeof body.model === "string" && body.model.startsWith("fake:") ? body.model.slice(5) : "answer";
  return COMPATIBLE_SCENARIOS[name] ?? { kind: "status", status: 404, body: error(404, "not_found_error", `model '${name}' not found`) };
}

export function startFakeOpenAICompatible(): Promise<FakeServer<CompatibleScenario>> {
  return startScriptedServer<CompatibleScenario>({
    pathPrefix: "/v1",
    endpoint: "/chat/completions",
    idPrefix: "chatcmpl-",
    pick: pickCompatible,
    respond: respondCompatible,
    answerEvents: (record) => compatibleAnswerChunks(record.id, String(record.body.model ?? "")),
  });
}
