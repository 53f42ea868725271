// The built-in provider: realistic answers with no API key. Latency, transient and permanent
// errors and hangs are drawn from seeded randomness (per capture and attempt), so a test can
// reproduce a run, and every wait honours the AbortSignal at once.
import { env } from "@/lib/config/env";
import { CallAbortedError, ProviderError, abortReasonOf } from "@/lib/providers/errors";
import { emptyUsage, type CallLimits, type ProviderAdapter, type ProviderRequest, type ProviderResponse } from "@/lib/providers/types";
import { writeAnswer } from "@/lib/providers/simulator-answers";
import { answerLanguageOf, type AnswerLanguage } from "@/lib/providers/simulator-languages";
import { simulatorSettingsSchema, type SimulatorSettings } from "@/lib/providers/simulator-settings";
import { seededRandom, type Random } from "@/lib/providers/simulator-random";

/** Provider configuration settings, then SIMULATOR_* environment overrides. */
export function effectiveSimulatorSettings(raw: unknown): SimulatorSettings {
  const settings = simulatorSettingsSchema.parse(raw ?? {});
  const e = env();
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
  const seed = `${env().SIMULATOR_SEED ?? "beacon"}:${request.seed ?? request.prompt}`;
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
  // up: the call takes the latency it drew.
  const chunks = answer.text.match(new RegExp(`[\\s\\S]{1,${CHUNK_CHARS}}`, "g")) ?? [];
  const firstToken = Math.round(latency * 0.3);
  const perChunk = chunks.length ? (latency - firstToken) / chunks.length : 0;
  const began = performance.now();
  const until = (offsetMs: number) => sleep(Math.max(0, began + offsetMs - performance.now()), request.signal, partial);
  await until(firstToken);
  for (const [i, chunk] of chunks.entries()) {
    if (hangs && i === Math.floor(chunks.length / 3)) {
      await sleep(24 * 3600 * 1000, request.signal, partial); // until the runner aborts us
    }
    streamed += chunk;
    request.onText?.(chunk);
    if (perChunk >= 1) await until(firstToken + (i + 1) * perChunk);
  }
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
