// An answer is untrusted text analysed synchronously in the worker: whatever it holds, the
// analysis must return (never throw, never stall the worker) and still find what a normal answer
// says. The time bounds are generous (a loaded 2-core machine); the quadratic code these tests
// replaced took 6.6 s for 60,000 "!" and threw on 2,000 nested quotes.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ANALYSIS_MAX_CHARS, analyzeAnswer, type AnalysisInput } from "./analyze";

const brand = { name: "Lumen CRM", aliases: ["Lumen"], domains: ["lumencrm.com"] };
const competitors = [{ name: "HubSpot" }, { name: "Salesforce", aliases: ["SFDC"] }, { name: "Monday.com" }];
const analyze = (answer: string) => analyzeAnswer({ answer, brand, competitors });
const mentioned = (result: ReturnType<typeof analyzeAnswer>) => result.entities.filter((e) => e.mentioned).map((e) => e.name);

/**
 * CPU milliseconds the process spent on `work` (all its threads, garbage collection included).
 * Not wall time: on a loaded machine the wall clock also counts the time spent waiting for a core.
 */
const cpuMs = (work: () => void) => {
  const before = process.cpuUsage();
  work();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000;
};

const repeat = (unit: string, length: number) => unit.repeat(Math.ceil(length / unit.length)).slice(0, length);
const tracked = (length: number) =>
  `https://lumencrm.com/?${Array.from({ length: Math.ceil(length / 8) }, (_, i) => `utm_${i}=1`).join("&")}`.slice(0, length);

/** Texts of a given length built to be slow or deep for a markdown parser or a regular expression. */
const PATHOLOGICAL: Record<string, (length: number) => string> = {
  "a punctuation run": (n) => repeat("!", n),
  "punctuation runs between letters": (n) => repeat("!!!!!!!!!?x", n),
  "sentence ends": (n) => repeat("Lumen. ", n),
  "nested quotes": (n) => repeat(">", n),
  "nested list markers": (n) => repeat("- ", n),
  "nested quotes and lists, one per line": (n) => repeat("> > - > 1. > * Lumen\n", n),
  "unclosed brackets": (n) => repeat("[a", n),
  "unclosed links": (n) => repeat("[Lumen](", n),
  "nested parentheses": (n) => repeat("((((((((((", n),
  "emphasis markers": (n) => repeat("*_~", n),
  "backtick runs": (n) => repeat("`a``", n),
  "table rows": (n) => repeat("| Lumen | HubSpot |\n", n),
  "backslashes": (n) => repeat("\\", n),
  "a line without spaces": (n) => repeat("abcdefghij", n),
  "URLs glued together": (n) => repeat("http://lumencrm.com!", n),
  "a URL with thousands of tracking parameters": tracked,
  "entity names": (n) => repeat("Lumen HubSpot, but SFDC; ", n),
  "combining marks and CJK": (n) => repeat("é\u0301\u0301中文。ﷺ", n),
};

describe("analyzeAnswer on hostile text", () => {
  it("returns a result for any string, markdown-like or random unicode", () => {
    const markdownish = fc.string({ unit: fc.constantFrom(">", "- ", "1. ", "*", "_", "~", "`", "```", "#", "|", "[", "]", "(", ")", "!", ".", "?", "\\", " ", "\n", "\n\n", "Lumen", "HubSpot", "http://", "a"), maxLength: 400 });
    const anything = fc.oneof(markdownish, fc.string({ unit: "binary", maxLength: 400 }), fc.string({ unit: "grapheme", maxLength: 400 }));
    fc.assert(
      fc.property(anything, (answer) => {
        const result = analyze(answer);
        expect(result.entities).toHaveLength(1 + competitors.length);
        expect(result.truncated).toBe(false);
      }),
      { numRuns: 500 },
    );
  });

  it("still finds what a normal answer says when hostile text follows it", () => {
    const normal = [
      "## Best CRMs for a small team",
      "",
      "1. **Lumen CRM** is affordable and intuitive.",
      "   - [HubSpot](https://hubspot.com) has a free plan.",
      "> Salesforce is powerful but expensive.",
      "",
      "| Tool | Verdict |",
      "| --- | --- |",
      "| Monday.com | flexible |",
    ].join("\n");
    const expected = analyze(normal);
    expect(mentioned(expected)).toEqual(["Lumen CRM", "HubSpot", "Salesforce", "Monday.com"]);
    const noise = fc.string({ unit: fc.constantFrom(...Object.values(PATHOLOGICAL).map((make) => make(40)), "```", "\n"), maxLength: 30 });
    fc.assert(
      fc.property(noise, (tail) => {
        const result = analyze(`${normal}\n\n${tail}`);
        for (const entity of expected.entities) {
          const now = result.entities.find((e) => e.name === entity.name)!;
          expect(now.mentioned).toBe(true);
          expect(now.count).toBeGreaterThanOrEqual(entity.count);
        }
      }),
      { numRuns: 300 },
    );
  });

  it.each(Object.entries(PATHOLOGICAL))("analyses a 1 MB answer of %s in under 5 s, reading only the first 200,000 characters", (_, make) => {
    const answer = make(1_000_000);
    let result: ReturnType<typeof analyze> | undefined;
    expect(cpuMs(() => (result = analyze(answer)))).toBeLessThan(5_000);
    expect(result!.truncated).toBe(true);
  });

  it("takes time linear in the length: 8 times the text takes about 8 times as long, not 64", { timeout: 60_000 }, () => {
    const n = ANALYSIS_MAX_CHARS / 8;
    const linear = ["a punctuation run", "nested quotes and lists, one per line", "unclosed links", "emphasis markers", "table rows", "URLs glued together", "a URL with thousands of tracking parameters", "entity names"];
    for (const name of linear) {
      const small: AnalysisInput = { answer: PATHOLOGICAL[name]!(n), brand, competitors };
      const large: AnalysisInput = { ...small, answer: PATHOLOGICAL[name]!(8 * n) };
      analyzeAnswer(small); // warm-up: compiled code on both sides
      analyzeAnswer(large);
      // Eight analyses of n characters against one of 8n, in turns, best of 3, in CPU time: both
      // sides take about as long, so what noise is left (caches, other processes) weighs on both alike.
      // A first turn under half the limit needs no more (quadratic would be about 8).
      let eightSmall = Infinity;
      let oneLarge = Infinity;
      for (let trial = 0; trial < 3; trial++) {
        eightSmall = Math.min(eightSmall, cpuMs(() => Array.from({ length: 8 }, () => analyzeAnswer(small))));
        oneLarge = Math.min(oneLarge, cpuMs(() => analyzeAnswer(large)));
        if (oneLarge / Math.max(eightSmall, 10) < 2) break;
      }
      // Linear gives about 1 (a larger text costs a little more cache and garbage collection),
      // quadratic 8. Under 10 ms the clock's resolution and the scheduler dominate, and nothing is slow.
      expect(oneLarge / Math.max(eightSmall, 10), `${name}: 8 x ${n} characters ${eightSmall.toFixed(1)} ms, ${8 * n} characters ${oneLarge.toFixed(1)} ms`).toBeLessThan(4);
    }
  });
});

describe("the size cap", () => {
  it("analyses the first 200,000 characters and says so", () => {
    const filler = repeat("Plain words here. ", ANALYSIS_MAX_CHARS);
    const whole = analyze(`HubSpot leads. ${filler.slice(0, ANALYSIS_MAX_CHARS - 16)}`);
    expect(whole.truncated).toBe(false);
    const cut = analyze(`HubSpot leads. ${filler} Lumen CRM comes last, see https://lumencrm.com/late.`);
    expect(cut.truncated).toBe(true);
    expect(mentioned(cut)).toEqual(["HubSpot"]);
    expect(cut.citations).toEqual([]);
  });
});
