// A local server that speaks the Gemini API wire format (POST
// /v1beta/models/<model>:streamGenerateContent?alt=sse, streamed as `data:` chunks in the recorded
// shape: text parts, usageMetadata as a running total, groundingMetadata with the search queries,
// redirect-link chunks and supports on the last chunk), for tests that put the real @google/genai
// SDK between the adapter and a provider that misbehaves on purpose.
//
// Scenario choice and recording work as in openai-server.ts (`enqueue`, or a `fake:<name>` model
// from `GEMINI_SCENARIOS`, else a normal answer); the model is part of the URL here, so this file
// routes requests itself and shares only the common misbehaviours.
import { randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { respondCommon, sse, type CommonScenario, type FakeServer, type RecordedRequest, type ScenarioContext } from "./openai-server";

export type GeminiAnswer = {
  text: string;
  /** Grounding chunks: `uri` is a redirect link, `title` the domain, as Google sends them. */
  chunks: { uri: string; title: string }[];
  /** groundingSupports: the text segment (must occur in `text`) and the chunks that back it. */
  supports: { segment: string; chunkIndices: number[] }[];
  queries: string[];
  usage: { promptTokenCount: number; candidatesTokenCount: number; thoughtsTokenCount?: number; cachedContentTokenCount?: number; toolUsePromptTokenCount?: number };
};

const redirect = (id: string) => `https://vertexaisearch.cloud.google.com/grounding-api-redirect/AUZIYQ${id}`;

export const GEMINI_ANSWER: GeminiAnswer = {
  text:
    "For a 10-person startup, **HubSpot CRM** is a strong first choice: its free plan covers contacts, deals and email tracking. " +
    "**Pipedrive** suits sales-led teams that want a visual pipeline. Salesforce tends to be more than a small team needs.",
  chunks: [
    { uri: redirect("hubspot1"), title: "hubspot.com" },
    { uri: redirect("pipedrive1"), title: "pipedrive.com" },
    { uri: redirect("g2crm1"), title: "g2.com" },
  ],
  supports: [
    { segment: "For a 10-person startup, **HubSpot CRM** is a strong first choice: its free plan covers contacts, deals and email tracking.", chunkIndices: [0] },
    { segment: "**Pipedrive** suits sales-led teams that want a visual pipeline.", chunkIndices: [1, 0] },
  ],
  queries: ["best CRM for 10 person startup", "HubSpot vs Pipedrive small business"],
  usage: { promptTokenCount: 14, candidatesTokenCount: 96, thoughtsTokenCount: 310, cachedContentTokenCount: 4, toolUsePromptTokenCount: 420 },
};

type ChunkBody = Record<string, unknown>;

export type GeminiScenario =
  | CommonScenario
  | { kind: "answer"; answer?: GeminiAnswer }
  /** Exactly these chunk bodies, each as one `data:` frame. */
  | { kind: "chunks"; chunks: ChunkBody[] }
  /** The first `afterChunks` chunks of a normal answer, then an error object as a chunk. */
  | { kind: "error-chunk"; afterChunks: number; code: number; status: string };

const googleError = (code: number, status: string, message: string, details?: unknown[]) => ({ error: { code, message, status, ...(details ? { details } : {}) } });

const QUOTA_DETAILS = [
  { "@type": "type.googleapis.com/google.rpc.QuotaFailure", violations: [{ quotaMetric: "generativelanguage.googleapis.com/generate_content_free_tier_requests", quotaId: "GenerateRequestsPerMinutePerProjectPerModel-FreeTier" }] },
  { "@type": "type.googleapis.com/google.rpc.Help", links: [{ description: "Learn more about Gemini API quotas", url: "https://ai.google.dev/gemini-api/docs/rate-limits" }] },
  { "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: "38s" },
];

const meta = { modelVersion: "gemini-2.5-flash", responseId: "fixed-response-id" };

/** Scenarios a model name can ask for: `fake:<name>`. */
export const GEMINI_SCENARIOS: Record<string, GeminiScenario> = {
  answer: { kind: "answer" },
  "rate-limited": { kind: "status", status: 429, body: googleError(429, "RESOURCE_EXHAUSTED", "You exceeded your current quota, please check your plan and billing details.", QUOTA_DETAILS) },
  "rate-limited-bare": { kind: "status", status: 429, body: googleError(429, "RESOURCE_EXHAUSTED", "Resource has been exhausted (e.g. check quota).") },
  "server-error": { kind: "status", status: 500, body: googleError(500, "INTERNAL", "An internal error has occurred. Please retry or report in https://developers.generativeai.google/guide/troubleshooting") },
  "bad-gateway": { kind: "status", status: 502, headers: { "content-type": "text/html" }, body: "<html><head><title>502 Bad Gateway</title></head></html>" },
  unavailable: { kind: "status", status: 503, body: googleError(503, "UNAVAILABLE", "The model is overloaded. Please try again later.") },
  "bad-request": { kind: "status", status: 400, body: googleError(400, "INVALID_ARGUMENT", "Invalid JSON payload received. Unknown name \"googleSerch\" at 'tools[0]': Cannot find field.") },
  "bad-key": {
    kind: "status",
    status: 400,
    body: googleError(400, "INVALID_ARGUMENT", "API key not valid. Please pass a valid API key.", [{ "@type": "type.googleapis.com/google.rpc.ErrorInfo", reason: "API_KEY_INVALID", domain: "googleapis.com", metadata: { service: "generativelanguage.googleapis.com" } }]),
  },
  unauthorized: { kind: "status", status: 401, body: googleError(401, "UNAUTHENTICATED", "Request had invalid authentication credentials.") },
  forbidden: { kind: "status", status: 403, body: googleError(403, "PERMISSION_DENIED", "Method doesn't allow unregistered callers (callers without established identity).") },
  // Two chunks: the opening words of the answer.
  reset: { kind: "reset", afterEvents: 2 },
  hang: { kind: "hang" },
  stall: { kind: "stall", afterEvents: 2 },
  garbage: { kind: "raw", contentType: "text/event-stream", body: "data: <html><body>upstream connect error</body></html>\n\n" },
  html: { kind: "raw", contentType: "text/html", body: "<html><body><h1>Service temporarily unavailable</h1></body></html>" },
  empty: { kind: "raw", contentType: "text/event-stream", body: "" },
  "error-chunk": { kind: "error-chunk", afterChunks: 2, code: 503, status: "UNAVAILABLE" },
  safety: {
    kind: "chunks",
    chunks: [{ candidates: [{ finishReason: "SAFETY", index: 0, safetyRatings: [{ category: "HARM_CATEGORY_DANGEROUS_CONTENT", probability: "HIGH", blocked: true }] }], usageMetadata: { promptTokenCount: 14, totalTokenCount: 14 }, ...meta }],
  },
  "prompt-blocked": { kind: "chunks", chunks: [{ promptFeedback: { blockReason: "PROHIBITED_CONTENT" }, usageMetadata: { promptTokenCount: 14, totalTokenCount: 14 }, ...meta }] },
  "no-candidates": { kind: "chunks", chunks: [{ candidates: [], usageMetadata: { promptTokenCount: 14, totalTokenCount: 14 }, ...meta }] },
};

const TEXT_CHUNK = 40;

/** The chunk bodies of a real streamed, grounded answer. */
export function geminiAnswerChunks(responseId: string, model: string, answer: GeminiAnswer = GEMINI_ANSWER): ChunkBody[] {
  const pieces = answer.text.match(new RegExp(`[\\s\\S]{1,${TEXT_CHUNK}}`, "g")) ?? [];
  const u = answer.usage;
  return pieces.map((text, i) => {
    const last = i === pieces.length - 1;
    const candidate: Record<string, unknown> = { content: { parts: [{ text }], role: "model" }, index: 0 };
    const usageMetadata: Record<string, unknown> = { promptTokenCount: u.promptTokenCount, totalTokenCount: u.promptTokenCount, promptTokensDetails: [{ modality: "TEXT", tokenCount: u.promptTokenCount }] };
    if (last) {
      candidate.finishReason = "STOP";
      candidate.groundingMetadata = {
        searchEntryPoint: { renderedContent: '<style>.container { display: flex; }</style><div class="container">...</div>' },
        groundingChunks: answer.chunks.map((c) => ({ web: { uri: c.uri, title: c.title } })),
        groundingSupports: answer.supports.map((s) => {
          const startIndex = Buffer.byteLength(answer.text.slice(0, answer.text.indexOf(s.segment)));
          return { segment: { startIndex, endIndex: startIndex + Buffer.byteLength(s.segment), text: s.segment }, groundingChunkIndices: s.chunkIndices, confidenceScores: s.chunkIndices.map(() => 0.9) };
        }),
        webSearchQueries: answer.queries,
      };
      const total = u.promptTokenCount + u.candidatesTokenCount + (u.thoughtsTokenCount ?? 0) + (u.toolUsePromptTokenCount ?? 0);
      Object.assign(usageMetadata, { candidatesTokenCount: u.candidatesTokenCount, totalTokenCount: total, cachedContentTokenCount: u.cachedContentTokenCount, thoughtsTokenCount: u.thoughtsTokenCount, toolUsePromptTokenCount: u.toolUsePromptTokenCount });
    }
    return { candidates: [candidate], usageMetadata, modelVersion: model, responseId };
  });
}

const frames = (chunks: ChunkBody[]) => chunks.map((chunk) => sse(chunk));

function respondGemini(scenario: GeminiScenario, ctx: ScenarioContext, model: string): void {
  const { res, record } = ctx;
  const headers = { "content-type": "text/event-stream", "x-request-id": record.id };
  if (respondCommon(scenario, ctx, headers)) return;
  res.writeHead(200, headers);
  switch (scenario.kind) {
    case "answer":
      res.end(frames(geminiAnswerChunks(record.id, model, scenario.answer)).join(""));
      return;
    case "chunks":
      res.end(frames(scenario.chunks).join(""));
      return;
    case "error-chunk":
      res.end(ctx.answerEvents().slice(0, scenario.afterChunks).join("") + sse(googleError(scenario.code, scenario.status, "The service is currently unavailable.")));
      return;
  }
}

const ROUTE = /^\/v1beta\/models\/(.+):streamGenerateContent\?alt=sse$/;

/** Give the SDK `url` as `httpOptions.baseUrl`. */
export async function startFakeGemini(): Promise<FakeServer<GeminiScenario>> {
  const requests: RecordedRequest[] = [];
  const queue: GeminiScenario[] = [];
  const server = http.createServer(async (req, res) => {
    let markClosed = () => {};
    const closed = new Promise<void>((resolve) => (markClosed = resolve));
    const record: RecordedRequest = { method: req.method ?? "", path: req.url ?? "", headers: req.headers, body: {}, id: randomBytes(8).toString("base64url"), closed };
    requests.push(record);
    res.on("close", () => {
      if (!res.writableFinished && !record.closedBy) record.closedBy = "client";
      markClosed();
    });
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    try {
      record.body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as Record<string, unknown>;
    } catch {
      record.body = { raw: Buffer.concat(chunks).toString("utf8") };
    }
    const model = decodeURIComponent(ROUTE.exec(req.url ?? "")?.[1] ?? "");
    if (req.method !== "POST" || !model) {
      res.writeHead(404, { "content-type": "application/json" });
      res.end(JSON.stringify(googleError(404, "NOT_FOUND", `no route ${req.method} ${req.url}`)));
      return;
    }
    const named = model.startsWith("fake:") ? GEMINI_SCENARIOS[model.slice(5)] : GEMINI_SCENARIOS.answer;
    const scenario = queue.shift() ?? named ?? { kind: "status", status: 404, body: googleError(404, "NOT_FOUND", `models/${model} is not found for API version v1beta`) };
    respondGemini(scenario, { req, res, record, answerEvents: () => frames(geminiAnswerChunks(record.id, model)) }, model);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    enqueue: (...scenarios) => queue.push(...scenarios),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
