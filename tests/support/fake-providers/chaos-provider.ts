// The chaos test's provider (tests/integration/lifecycle-chaos.test.ts): one local server that
// speaks OpenAI's chat completions for every connection of a run (each connection's base URL is
// /c/<tag>/v1, so a request names its connection), answers with text that names the brand, its
// alias and the competitor pool in varying mixes (so brand edits change the analysis), fails as
// each connection's current fault settings say, and records every request it receives, in the
// test process's clock, so the test can compare calls with the captures and kill switches.
//
// A request's prompt names its capture (every capture of a run has its own prompt text) or its
// setup suggestion (the setup prompt names the site, SETUP_MARKER...), so calls are counted per
// connection + model + capture without anything in the request but what the adapter sends.
import http, { type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { compatibleAnswerChunks } from "./openai-compatible-server";

/** What the competitor pool and the brand are called in answers (names and aliases). */
const ANSWER_NAMES = ["Acme", "Acme One", "Globex", "Globex Corp", "Initech", "Initrode", "Umbrella", "Hooli", "Vandelay"] as const;
/** Every setup request of the chaos test names a site that starts with this. */
export const SETUP_MARKER = "chaos-setup-";

export type Faults = { errorRate: number; timeoutRate: number; permanentErrorRate: number };
export const HEALTHY: Faults = { errorRate: 0, timeoutRate: 0, permanentErrorRate: 0 };

export type ProviderCall = {
  seq: number;
  /** The connection's tag (its base URL's /c/<tag>). */
  tag: string;
  model: string;
  prompt: string;
  /** Date.now() when the request's body had arrived. */
  at: number;
  /** What the server did: a whole answer, a 500, a 400, no answer at all (a hang). */
  outcome: "answered" | "error" | "permanent" | "hang";
  /** The client went away before the answer was written (its own timeout or abort). */
  closedByClient: boolean;
  /** Date.now() when the whole response was handed to the operating system (the client may not have read it yet). */
  sentAt?: number;
};

type Hold = { match: (prompt: string) => boolean; arrived: boolean; released: boolean; waiting: (() => void)[] };

export type ChaosProvider = {
  /** Base URL of a connection tagged `tag`, for its openai_compatible settings. */
  baseUrl: (tag: string) => string;
  calls: ProviderCall[];
  /** Sets a connection's faults (every new request draws from them). */
  setFaults: (tag: string, faults: Faults) => void;
  /** Reseeds the server's draws (one seed per chaos run, so a schedule replays the same faults as far as timing allows). */
  seed: (seed: number) => void;
  /**
   * Holds the first request whose prompt matches until `release()`, so the caller can act while
   * the call is in flight. `arrived` says whether it came; a hold released before its request
   * comes lets that request through.
   */
  hold: (match: (prompt: string) => boolean) => { arrived: () => boolean; release: () => void };
  close: () => Promise<void>;
};

/** mulberry32: small, seedable, good enough for fault draws. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ADJECTIVES = ["an excellent choice", "reliable", "expensive and slow", "fine for most teams", "a poor fit", "the best option"];

/** An answer naming a random mix of the brand, its alias and the competitor pool. */
function answerText(random: () => number): string {
  const named = ANSWER_NAMES.filter(() => random() < 0.45);
  if (!named.length) return "There are many CRMs; it depends on your team's needs.";
  // Half of them as a list, whose names untracked at the time are competitor discovery's candidates.
  if (random() < 0.5) return named.map((name) => `- **${name}**: ${ADJECTIVES[Math.floor(random() * ADJECTIVES.length)]}.`).join("\n");
  return named.map((name) => `${name} is ${ADJECTIVES[Math.floor(random() * ADJECTIVES.length)]}.`).join(" ");
}

export async function startChaosProvider(options: { latencyMs: [number, number] }): Promise<ChaosProvider> {
  const calls: ProviderCall[] = [];
  const faults = new Map<string, Faults>();
  const holds: Hold[] = [];
  let random = prng(1);
  const open = new Set<ServerResponse>();

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const match = /^\/c\/([^/]+)\/v1\/chat\/completions$/.exec(req.url ?? "");
      let body: { model?: string; messages?: { content?: string }[] } = {};
      try {
        body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as typeof body;
      } catch {
        // answered 400 below
      }
      const prompt = body.messages?.[0]?.content ?? "";
      if (!match || req.method !== "POST" || !body.model) {
        res.writeHead(400, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: "bad request", type: "invalid_request_error", code: 400 } }));
        return;
      }
      const tag = match[1]!;
      const f = faults.get(tag) ?? HEALTHY;
      const draw = random();
      const outcome: ProviderCall["outcome"] =
        draw < f.timeoutRate ? "hang" : draw < f.timeoutRate + f.errorRate ? "error" : draw < f.timeoutRate + f.errorRate + f.permanentErrorRate ? "permanent" : "answered";
      const call: ProviderCall = { seq: calls.length + 1, tag, model: body.model, prompt, at: Date.now(), outcome, closedByClient: false };
      calls.push(call);
      open.add(res);
      res.on("finish", () => (call.sentAt = Date.now()));
      res.on("close", () => {
        open.delete(res);
        if (!res.writableFinished) call.closedByClient = true;
      });
      const text = answerText(random);
      const [min, max] = options.latencyMs;
      const latency = min + Math.floor(random() * (max - min + 1));
      const respond = () => {
        if (res.destroyed) return;
        const id = `chatcmpl-chaos-${call.seq}`;
        if (outcome === "hang") return; // the worker's timeout ends it
        if (outcome === "error" || outcome === "permanent") {
          const status = outcome === "error" ? 500 : 400;
          res.writeHead(status, { "content-type": "application/json", "x-request-id": id });
          res.end(JSON.stringify({ error: { message: outcome === "error" ? "The engine is overloaded" : "Invalid request", type: outcome === "error" ? "server_error" : "invalid_request_error", code: status } }));
          return;
        }
        res.writeHead(200, { "content-type": "text/event-stream; charset=utf-8", "x-request-id": id });
        res.end(compatibleAnswerChunks(id, body.model!, { content: text, usage: { prompt_tokens: 40, completion_tokens: 120 } }).join(""));
      };
      const hold = holds.find((h) => !h.arrived && !h.released && h.match(prompt));
      if (hold) {
        hold.arrived = true;
        hold.waiting.push(() => setTimeout(respond, latency));
        return;
      }
      setTimeout(respond, latency);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    baseUrl: (tag) => `http://127.0.0.1:${port}/c/${tag}/v1`,
    calls,
    setFaults: (tag, f) => faults.set(tag, f),
    seed: (seed) => (random = prng(seed)),
    hold(match) {
      const hold: Hold = { match, arrived: false, released: false, waiting: [] };
      holds.push(hold);
      return {
        arrived: () => hold.arrived,
        release: () => {
          hold.released = true;
          hold.waiting.splice(0).forEach((f) => f());
        },
      };
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const h of holds) h.waiting.splice(0).forEach((f) => f());
        for (const res of open) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
