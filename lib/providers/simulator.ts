// The built-in provider: realistic answers with no API key. Latency, transient and permanent
// errors and hangs are drawn from seeded randomness (per capture and attempt), so a test can
// reproduce a run, and every wait honours the AbortSignal at once.
import { z } from "zod";
import { envReader } from "@/lib/config/env";
import { anthropicEngine } from "@/lib/providers/anthropic";
import { defineEngine, type EngineConnection, type ListPrice, type Prices } from "@/lib/providers/engine";
import { geminiEngine } from "@/lib/providers/gemini";
import { gigachatEngine } from "@/lib/providers/gigachat";
import { googleAiOverviewEngine } from "@/lib/providers/google-serp";
import { openaiEngine } from "@/lib/providers/openai";
import { perplexityEngine } from "@/lib/providers/perplexity";
import { yandexSearchEngine } from "@/lib/providers/yandex-search";
import { CallAbortedError, ProviderError, abortReasonOf } from "@/lib/providers/errors";
import { emptyUsage, type CallLimits, type ProviderAdapter, type ProviderRequest, type ProviderResponse, type SearchMode } from "@/lib/providers/types";
import { writeAnswer } from "@/lib/providers/simulator-answers";
import { answerLanguageOf, type AnswerLanguage } from "@/lib/providers/simulator-languages";
import { simulatorSettingsSchema, type SimulatorSettings } from "@/lib/providers/simulator-settings";
import { seededRandom, type Random } from "@/lib/providers/simulator-random";

// Overrides for tests and demos; each wins over the connection's settings.
const variables = {
  SIMULATOR_LATENCY_MS: z
    .string()
    .regex(/^\d+(-\d+)?$/, "Use a number of milliseconds or a range such as 500-3000")
    .optional(),
  SIMULATOR_ERROR_RATE: z.coerce.number().min(0).max(1).optional(),
  SIMULATOR_PERMANENT_ERROR_RATE: z.coerce.number().min(0).max(1).optional(),
  SIMULATOR_TIMEOUT_RATE: z.coerce.number().min(0).max(1).optional(),
  SIMULATOR_SEED: z.string().optional(),
};
const config = envReader(variables);

/** Provider configuration settings, then SIMULATOR_* environment overrides. */
export function effectiveSimulatorSettings(raw: unknown): SimulatorSettings {
  const settings = simulatorSettingsSchema.parse(raw ?? {});
  const e = config();
  if (e.SIMULATOR_LATENCY_MS) {
    const [min, max = min] = e.SIMULATOR_LATENCY_MS.split("-").map(Number) as [number, number?];
    settings.latencyMinMs = min;
    settings.latencyMaxMs = Math.max(min, max);
  }
  if (e.SIMULATOR_ERROR_RATE !== undefined) settings.errorRate = e.SIMULATOR_ERROR_RATE;
  if (e.SIMULATOR_PERMANENT_ERROR_RATE !== undefined) settings.permanentErrorRate = e.SIMULATOR_PERMANENT_ERROR_RATE;
  if (e.SIMULATOR_TIMEOUT_RATE !== undefined) settings.timeoutRate = e.SIMULATOR_TIMEOUT_RATE;
  return settings;
}

function sleep(ms: number, signal: AbortSignal, partialText: () => string): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new CallAbortedError(abortReasonOf(signal), partialText()));
    const onAbort = () => {
      clearTimeout(timer);
      reject(new CallAbortedError(abortReasonOf(signal), partialText()));
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

const CHUNK_CHARS = 24;

async function call(request: ProviderRequest): Promise<ProviderResponse> {
  const settings = effectiveSimulatorSettings(request.settings);
  const seed = `${config().SIMULATOR_SEED ?? "beacon"}:${request.seed ?? request.prompt}`;
  const random = seededRandom(seed);
  const latency = random.int(settings.latencyMinMs, Math.max(settings.latencyMinMs, settings.latencyMaxMs));
  const answer = simulateAnswer({
    prompt: request.prompt,
    searchMode: request.searchMode,
    limits: request.limits,
    subject: request.subject,
    style: settings.style,
    random,
    untracked: seededRandom(`${seed}:untracked`),
    language: answerLanguageOf(request.language, request.prompt),
  });
  const requestId = `sim_${Math.floor(random.next() * 1e12).toString(36)}`;
  let streamed = "";
  const partial = () => streamed;

  const roll = random.next();
  if (roll < settings.permanentErrorRate) {
    await sleep(Math.min(latency, 200), request.signal, partial);
    throw new ProviderError("Simulated invalid request (400)", { retryClass: "permanent", reason: "invalid_request", httpStatus: 400, requestId });
  }
  if (roll < settings.permanentErrorRate + settings.errorRate) {
    await sleep(Math.min(latency, 300), request.signal, partial);
    const rateLimited = random.next() < 0.5;
    throw new ProviderError(rateLimited ? "Simulated rate limit (429)" : "Simulated overload (503)", {
      retryClass: "transient",
      reason: rateLimited ? "rate_limited" : "server_error",
      httpStatus: rateLimited ? 429 : 503,
      retryAfterMs: rateLimited ? 1000 : undefined,
      requestId,
    });
  }
  const hangs = roll < settings.permanentErrorRate + settings.errorRate + settings.timeoutRate;
  // Drawn only when asked for, so that every other persona's seeded answers stay as they were.
  if (!hangs && settings.noAnswerRate > 0 && random.next() < settings.noAnswerRate) {
    await sleep(latency, request.signal, partial);
    return { text: "", noAnswer: true, sources: [], searchQueries: [request.prompt], usage: { ...emptyUsage(), searchCalls: 1 }, requestId };
  }

  // Stream: a first-token delay, then the rest of the latency spread over the chunks. Each chunk
  // is due at its time from the start, so timers that fire late on a busy event loop do not add
  // up: the call takes the latency it drew. Node times a timer from the loop's clock, read when
  // the loop last woke, so a timer set after work in the same turn can come due early: `until`
  // sleeps again for what is left, and the call never ends before its latency (the breaker's
  // slow-call count and the lifecycle tests rely on it).
  const chunks = answer.text.match(new RegExp(`[\\s\\S]{1,${CHUNK_CHARS}}`, "g")) ?? [];
  const firstToken = Math.round(latency * 0.3);
  const perChunk = chunks.length ? (latency - firstToken) / chunks.length : 0;
  const began = performance.now();
  const until = async (offsetMs: number) => {
    for (let left = began + offsetMs - performance.now(); left > 0; left = began + offsetMs - performance.now()) {
      await sleep(left, request.signal, partial);
    }
  };
  await until(firstToken);
  for (const [i, chunk] of chunks.entries()) {
    if (hangs && i === Math.floor(chunks.length / 3)) {
      await sleep(24 * 3600 * 1000, request.signal, partial); // until the runner aborts us
    }
    streamed += chunk;
    request.onText?.(chunk);
    if (perChunk >= 1) await until(firstToken + (i + 1) * perChunk);
  }
  await until(latency); // chunks under a millisecond apart were not waited for one by one
  // Reasoning can use up a small output limit before any text, as with the real providers.
  if (!answer.text.trim()) throw new ProviderError("Simulated empty answer (output limit reached)", { retryClass: "transient", reason: "empty_answer", requestId });

  return { ...answer, requestId };
}

/** Characters per token, as the simulator counts usage. */
const CHARS_PER_TOKEN = 4;

/**
 * A complete simulated answer with its usage, without the streaming: what `call` streams, and
 * what the demo history is made of. It keeps to `limits` as a real provider does: reasoning
 * first, then the text cut off where the output tokens run out, and no more searches than allowed.
 */
export function simulateAnswer(input: {
  prompt: string;
  searchMode: ProviderRequest["searchMode"];
  limits: CallLimits;
  subject?: ProviderRequest["subject"];
  style: SimulatorSettings["style"];
  random: Random;
  /** Separate draws for the untracked products an answer names (lib/providers/simulator-answers.ts). */
  untracked?: Random;
  /** Chance that the brand appears at all (0..1). */
  brandChance?: number;
  /** The language to answer in (lib/providers/simulator-languages.ts; default English). */
  language?: AnswerLanguage;
}): Omit<ProviderResponse, "requestId"> {
  const { maxOutputTokens, maxSearchCalls } = input.limits;
  const search = input.searchMode !== "off" && maxSearchCalls > 0;
  const answer = writeAnswer({
    prompt: input.prompt,
    brand: input.subject?.brand ?? { name: "Your brand", domains: [] },
    competitors: input.subject?.competitors ?? [],
    style: input.style,
    search,
    random: input.random,
    untracked: input.untracked,
    brandChance: input.brandChance,
    language: input.language,
  });
  const reasoningTokens = Math.min(input.style === "chatgpt" ? input.random.int(0, 200) : 0, maxOutputTokens);
  const text = answer.text.slice(0, (maxOutputTokens - reasoningTokens) * CHARS_PER_TOKEN);
  const searchQueries = answer.searchQueries.slice(0, maxSearchCalls);
  return {
    ...answer,
    text,
    searchQueries,
    usage: {
      // Within the budget's worst case: a search adds 900 tokens, its allowance is 4,000.
      inputTokens: Math.ceil(input.prompt.length / CHARS_PER_TOKEN) + 40 + (search ? 900 : 0),
      outputTokens: Math.ceil(text.length / CHARS_PER_TOKEN),
      reasoningTokens,
      cachedTokens: 0,
      searchCalls: searchQueries.length,
    },
  };
}

export const simulatorAdapter: ProviderAdapter = { name: "simulator", configured: () => true, call };

const simulated = (style: string, providerName: string, listPrice: ListPrice, searchMode: SearchMode, settings: Record<string, unknown>): EngineConnection => ({
  name: `Simulated ${providerName}`,
  providerName,
  models: [listPrice.model],
  searchMode,
  prices: listPrice.prices,
  settings: { style, ...settings },
  grantedToAll: true,
});

/**
 * A simulated answer engine beyond the four assistants (Google's AI Overviews, GigaChat, Alice AI):
 * granted to no workspace by default (the demo workspace has them, disabled: lib/seed/demo.ts).
 */
const persona = (style: string, providerName: string, model: string, prices: Prices, searchMode: SearchMode, settings: Record<string, unknown>): EngineConnection => ({
  name: `Simulated ${providerName}`,
  providerName,
  models: [model],
  searchMode,
  prices,
  settings: { style, ...settings },
  grantedToAll: false,
});

/**
 * Four simulated assistants with the manner, speed and list prices of the real ones, usable by
 * every workspace (no API key needed), and three more simulated engines for the demo.
 */
export const simulatorEngine = defineEngine({
  name: "simulator",
  label: "Simulator",
  writesAnswers: true,
  env: variables,
  listPrice: null,
  defaultConnections: [
    simulated("chatgpt", "ChatGPT", openaiEngine.listPrice, "auto", { latencyMinMs: 1500, latencyMaxMs: 5000, errorRate: 0.05 }),
    simulated("perplexity", "Perplexity", perplexityEngine.listPrice, "on", { latencyMinMs: 1000, latencyMaxMs: 3500, errorRate: 0.03 }),
    simulated("gemini", "Gemini", geminiEngine.listPrice, "auto", { latencyMinMs: 800, latencyMaxMs: 3000, errorRate: 0.05 }),
    simulated("claude", "Claude", anthropicEngine.listPrice, "on", { latencyMinMs: 2000, latencyMaxMs: 6000, errorRate: 0.03 }),
    // Google shows an AI Overview above some searches only: the rest are "no answer shown".
    persona("overview", "Google AI Overviews", "ai-overview", googleAiOverviewEngine.listPrice.prices, "on", { latencyMinMs: 1500, latencyMaxMs: 4000, errorRate: 0.02, noAnswerRate: 0.3 }),
    persona("chatgpt", "GigaChat", gigachatEngine.listPrice.model, gigachatEngine.listPrice.prices, "off", { latencyMinMs: 1000, latencyMaxMs: 4000, errorRate: 0.03 }),
    persona("perplexity", "Alice AI", "generative-search", yandexSearchEngine.listPrice.prices, "on", { latencyMinMs: 1500, latencyMaxMs: 4500, errorRate: 0.03 }),
  ],
  adapter: simulatorAdapter,
});
