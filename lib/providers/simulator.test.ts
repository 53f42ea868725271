import { describe, expect, it } from "vitest";
import { CallAbortedError, ProviderError } from "@/lib/providers/errors";
import type { CallLimits, SearchMode } from "@/lib/providers/types";
import { analyzeAnswer } from "@/lib/analysis/analyze";
import { brandCandidates } from "@/lib/analysis/brand-candidates";
import { answerLanguageOf, type AnswerLanguage } from "@/lib/providers/simulator-languages";
import { seededRandom } from "@/lib/providers/simulator-random";
import { simulateAnswer, simulatorAdapter } from "@/lib/providers/simulator";

const request = (settings: Record<string, unknown>, seed = "capture-1:1", limits: CallLimits = { maxOutputTokens: 2048, maxSearchCalls: 3 }) => ({
  prompt: "What is the best CRM for a startup?",
  model: "sim",
  searchMode: "on" as SearchMode,
  signal: new AbortController().signal,
  limits,
  settings: { latencyMinMs: 0, latencyMaxMs: 0, ...settings },
  subject: { brand: { name: "Lumen CRM", domains: ["lumencrm.com"] }, competitors: [{ name: "HubSpot", domains: ["hubspot.com"] }, { name: "Pipedrive", domains: [] }] },
  seed,
});

describe("simulator in the prompt's language", () => {
  const subject = { brand: { name: "Lumen CRM", aliases: ["Lumen", "Люмен"], domains: ["lumencrm.com"] }, competitors: [{ name: "HubSpot", aliases: [], domains: ["hubspot.com"] }] };
  const answers = (language: AnswerLanguage, prompt: string) =>
    Array.from({ length: 40 }, (_, i) =>
      simulateAnswer({ prompt, searchMode: "off", limits: { maxOutputTokens: 2048, maxSearchCalls: 0 }, subject, style: i % 2 ? "claude" : "chatgpt", random: seededRandom(`lang:${i}`), brandChance: 1, language }),
    );

  it("answers a Russian prompt in Russian, with the brand's Cyrillic name declined, and the analysis finds every form", () => {
    expect(answerLanguageOf("ru", "x")).toBe("ru");
    expect(answerLanguageOf(null, "Какую CRM выбрать?")).toBe("ru");
    const texts = answers("ru", "Какую CRM выбрать?").map((a) => a.text);
    expect(texts.every((t) => /[а-яё]{4,}/i.test(t) && t.includes("Люмен"))).toBe(true);
    const oblique = texts.join("\n").match(/Люмен(а|у|ом|е)(?![а-яё])/g) ?? [];
    expect(new Set(oblique).size, "genitive, prepositional and instrumental forms appear").toBeGreaterThanOrEqual(3);
    for (const answer of texts) {
      const brand = analyzeAnswer({ answer, brand: subject.brand, competitors: subject.competitors, language: "ru" }).entities.find((e) => e.kind === "brand")!;
      // Every written form of the brand is counted: the list item and each sentence naming it.
      const written = (answer.match(/Люмен(а|у|ом|е)?(?![а-яё])/g) ?? []).length;
      expect(brand).toMatchObject({ mentioned: true, count: written });
    }
  });

  it("answers a German prompt in German, with the genitive -s, and English prompts as before", () => {
    const german = answers("de", "Welches CRM?").map((a) => a.text);
    expect(german.every((t) => /\b(die|und|für|mit)\b/.test(t))).toBe(true);
    expect(german.some((t) => t.includes("Lumen CRMs Preismodell"))).toBe(true);
    const english = answers("en", "Which CRM?").map((a) => a.text);
    expect(english.every((t) => !/[а-яё]/i.test(t) && !t.includes("Preismodell"))).toBe(true);
  });
});

describe("simulator", () => {
  it("reproduces the same answer for the same seed and varies across seeds", async () => {
    const a = await simulatorAdapter.call(request({}));
    const b = await simulatorAdapter.call(request({}));
    expect(a).toEqual(b);
    const others = await Promise.all(["x:1", "y:1", "z:1", "w:1"].map((seed) => simulatorAdapter.call(request({}, seed))));
    expect(new Set(others.map((o) => o.text)).size).toBeGreaterThan(1);
  });

  it("answers with usage, sources and search queries when search is on", async () => {
    const answer = await simulatorAdapter.call(request({}));
    expect(answer.text.length).toBeGreaterThan(100);
    expect(answer.usage.outputTokens).toBeGreaterThan(0);
    expect(answer.sources.length).toBeGreaterThan(0);
    expect(answer.searchQueries.length).toBeGreaterThan(0);
  });

  it("streams text in chunks that add up to the answer", async () => {
    let streamed = "";
    const answer = await simulatorAdapter.call({ ...request({}), onText: (d) => (streamed += d) });
    expect(streamed).toBe(answer.text);
  });

  it("takes at least the latency it drew: with more chunks than milliseconds, and when its timers come due early", async () => {
    // A 5 ms call of about 60 chunks: under a millisecond per chunk, so the chunks do not wait.
    const quick = async () => {
      const began = performance.now();
      await simulatorAdapter.call(request({ latencyMinMs: 5, latencyMaxMs: 5 }));
      return performance.now() - began;
    };
    expect(await quick()).toBeGreaterThanOrEqual(5);
    // Node times a timer from the event loop's clock, read when the loop last woke: after 20 ms
    // of work in the same turn, a 2 ms timer is already due when the call sets it.
    const busyUntil = performance.now() + 20;
    while (performance.now() < busyUntil);
    expect(await quick()).toBeGreaterThanOrEqual(5);
  });

  it("throws transient and permanent errors at the configured rates", async () => {
    await expect(simulatorAdapter.call(request({ errorRate: 1 }))).rejects.toMatchObject({ retryClass: "transient" });
    await expect(simulatorAdapter.call(request({ permanentErrorRate: 1 }))).rejects.toMatchObject({ retryClass: "permanent", httpStatus: 400 });
    await expect(simulatorAdapter.call(request({ errorRate: 1 }))).rejects.toBeInstanceOf(ProviderError);
  });

  it("hangs on a timeout until aborted, then stops at once with the partial answer", async () => {
    // No latency: no timer between the chunks, so an answer that does not hang is streamed and
    // returned within one turn of the event loop. Event-loop turns, not milliseconds, show that
    // this one waits and then stops at once.
    const whole = (await simulatorAdapter.call(request({}))).text;
    const controller = new AbortController();
    let streamed = "";
    let settled = false;
    let firstText!: () => void;
    const textArrived = new Promise<void>((resolve) => (firstText = resolve));
    const onText = (delta: string) => {
      streamed += delta;
      firstText();
    };
    const call = simulatorAdapter.call({ ...request({ timeoutRate: 1 }), signal: controller.signal, onText });
    void call.then(
      () => (settled = true),
      () => (settled = true),
    );
    const nextTurn = () => new Promise((resolve) => setImmediate(resolve));
    await textArrived;
    await nextTurn();
    expect(settled, "waiting in the hang").toBe(false);
    expect(streamed.length).toBeGreaterThan(0);
    expect(streamed.length).toBeLessThan(whole.length);
    expect(whole.startsWith(streamed)).toBe(true);

    controller.abort("cancelled");
    await nextTurn();
    expect(settled, "stopped by the abort").toBe(true);
    const error = await call.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CallAbortedError);
    expect((error as CallAbortedError).abortReason).toBe("cancelled");
    expect((error as CallAbortedError).partialText).toBe(streamed);
  });

  describe("call limits", () => {
    const styles = ["chatgpt", "perplexity", "gemini", "claude"] as const;
    const modes: SearchMode[] = ["on", "auto", "off"];

    it("never reports more output, reasoning, searches or input than the limits allow, over many seeds", async () => {
      let answered = 0;
      let truncated = 0;
      for (let i = 0; i < 240; i++) {
        const limits = { maxOutputTokens: 1 + ((i * 37) % 260), maxSearchCalls: i % 4 };
        const base = request({ style: styles[i % styles.length] }, `limits:${i}`, limits);
        const req = { ...base, searchMode: modes[i % modes.length]! };
        const worstInput = Math.ceil(req.prompt.length / 4) + 60 + limits.maxSearchCalls * 4000;
        // The same answer without the output limit (whether it searches at all changes the answer).
        const full = await simulatorAdapter.call({ ...req, limits: { maxOutputTokens: 200_000, maxSearchCalls: limits.maxSearchCalls && 20 } });
        let streamed = "";
        const outcome = await simulatorAdapter.call({ ...req, onText: (d) => (streamed += d) }).then(
          (answer) => ({ answer }),
          (error: unknown) => ({ error }),
        );
        if ("error" in outcome) {
          // Reasoning used up the whole limit before any text, as a real model's can.
          expect(outcome.error).toBeInstanceOf(ProviderError);
          expect(outcome.error).toMatchObject({ retryClass: "transient", reason: "empty_answer" });
          expect(full.usage.reasoningTokens).toBeGreaterThanOrEqual(limits.maxOutputTokens);
          continue;
        }
        const { answer } = outcome;
        answered += 1;
        const { usage } = answer;
        expect(usage.outputTokens + usage.reasoningTokens).toBeLessThanOrEqual(limits.maxOutputTokens);
        expect(usage.searchCalls).toBeLessThanOrEqual(limits.maxSearchCalls);
        expect(answer.searchQueries.length).toBeLessThanOrEqual(limits.maxSearchCalls);
        expect(usage.inputTokens).toBeLessThanOrEqual(worstInput);
        // Cut off where the tokens ran out: a prefix of the unlimited answer, streamed as returned.
        expect(full.text.startsWith(answer.text)).toBe(true);
        expect(streamed).toBe(answer.text);
        if (answer.text.length < full.text.length) truncated += 1;
      }
      // The loop covered both sides of the limits, not only one.
      expect(answered).toBeGreaterThan(100);
      expect(truncated).toBeGreaterThan(50);
    });

    it("searches nothing when no search call is allowed, even with search on", async () => {
      const answer = await simulatorAdapter.call(request({}, "capture-1:1", { maxOutputTokens: 2048, maxSearchCalls: 0 }));
      expect(answer.searchQueries).toEqual([]);
      expect(answer.sources).toEqual([]);
      expect(answer.usage).toMatchObject({ searchCalls: 0, inputTokens: Math.ceil("What is the best CRM for a startup?".length / 4) + 40 });
    });

    it("keeps at most maxSearchCalls queries when it searches", async () => {
      const answers = await Promise.all(["a:1", "b:1", "c:1", "d:1", "e:1", "f:1"].map((seed) => simulatorAdapter.call(request({}, seed, { maxOutputTokens: 2048, maxSearchCalls: 1 }))));
      for (const answer of answers) {
        expect(answer.searchQueries).toHaveLength(1);
        expect(answer.usage.searchCalls).toBe(1);
      }
    });
  });
});

describe("simulator's untracked products", () => {
  const subject = { brand: { name: "Lumen CRM", aliases: ["Lumen"], domains: ["lumencrm.com"] }, competitors: [{ name: "HubSpot", domains: ["hubspot.com"] }, { name: "Close", domains: [] }] };
  const tracked = [subject.brand, ...subject.competitors];
  const styles = ["chatgpt", "perplexity", "gemini", "claude", "overview"] as const;
  const run = (i: number, untracked: boolean) =>
    simulateAnswer({
      prompt: "Best CRM?", searchMode: "on", limits: { maxOutputTokens: 2048, maxSearchCalls: 3 }, subject, style: styles[i % 5]!,
      random: seededRandom(`untracked:${i}`), untracked: untracked ? seededRandom(`untracked:${i}:untracked`) : undefined, language: i % 3 ? "en" : "ru",
    });

  it("names one or two untracked products in about 30 % of answers, found by discovery, without changing anything else", () => {
    let naming = 0;
    for (let i = 0; i < 300; i++) {
      const plain = run(i, false);
      const extra = run(i, true);
      const found = brandCandidates(extra.text, tracked);
      // Never a tracked name (Close is tracked here), and at most two.
      expect(found.length).toBeLessThanOrEqual(2);
      expect(found).not.toContain("Close");
      if (found.length) naming++;
      else expect(extra.text).toBe(plain.text);
      expect(brandCandidates(plain.text, tracked)).toEqual([]);
      // The other draws are untouched: sources, queries, usage's reasoning, and the tracked analysis.
      expect(extra.sources).toEqual(plain.sources);
      expect(extra.searchQueries).toEqual(plain.searchQueries);
      expect(extra.usage.reasoningTokens).toBe(plain.usage.reasoningTokens);
      const analysis = (text: string) => analyzeAnswer({ answer: text, brand: subject.brand, competitors: subject.competitors }).entities;
      expect(analysis(extra.text)).toEqual(analysis(plain.text));
    }
    expect(naming).toBeGreaterThan(300 * 0.2);
    expect(naming).toBeLessThan(300 * 0.4);
  });
});
