// Analysis throughput: answers analysed per second on one core (analyzeAnswer is synchronous,
// so one Node thread = one core). The answers are the simulator's, in all four styles (lists,
// tables, links, citations), analysed against the demo brand and its three competitors.
import { ANALYSIS_MAX_CHARS, analyzeAnswer } from "@/lib/analysis/analyze";
import { DEFAULT_CALL_LIMITS } from "@/lib/providers/limits";
import { seededRandom } from "@/lib/providers/simulator-random";
import { simulateAnswer } from "@/lib/providers/simulator";
import { DEMO_BRAND, DEMO_PROMPTS } from "@/lib/seed/demo-content";

export type AnalysisThroughput = { answers: number; seconds: number; answersPerSecondPerCore: number; meanAnswerChars: number };

export function measureAnalysisThroughput(count = 5000): AnalysisThroughput {
  const random = seededRandom("bench:analysis");
  const styles = ["chatgpt", "perplexity", "gemini", "claude"] as const;
  const brand = { name: DEMO_BRAND.name, aliases: DEMO_BRAND.aliases, domains: DEMO_BRAND.domains };
  const answers = Array.from({ length: count }, (_, i) =>
    simulateAnswer({
      prompt: DEMO_PROMPTS[i % DEMO_PROMPTS.length]!.text,
      searchMode: "on",
      limits: DEFAULT_CALL_LIMITS,
      subject: { brand, competitors: DEMO_BRAND.competitors },
      style: styles[i % styles.length]!,
      random,
    }),
  );
  for (const answer of answers.slice(0, 200)) analyzeAnswer({ answer: answer.text, brand, competitors: DEMO_BRAND.competitors, sources: answer.sources }); // warm-up
  const started = performance.now();
  for (const answer of answers) analyzeAnswer({ answer: answer.text, brand, competitors: DEMO_BRAND.competitors, sources: answer.sources });
  const seconds = (performance.now() - started) / 1000;
  return {
    answers: count,
    seconds: Math.round(seconds * 1000) / 1000,
    answersPerSecondPerCore: Math.round(count / seconds),
    meanAnswerChars: Math.round(answers.reduce((n, a) => n + a.text.length, 0) / count),
  };
}

export type HostileAnalysis = { pattern: string; chars: number; ms: number; truncated: boolean };

// Answers built to be slow or deep for a markdown parser or a regular expression (the old
// analysis took 24 s for 120,000 "!" and threw on 2,000 nested quotes).
const HOSTILE: Record<string, string> = {
  'a run of "!"': "!",
  "nested quotes and lists": "> > - > 1. > * Acme\n",
  "unclosed links": "[Acme](",
  "table rows": "| Acme | HubSpot |\n",
  "URLs glued together": "http://acme.example!",
  "sentences naming the brand": "Acme is good, but HubSpot is not. ",
};

/** Each hostile answer at the analysis cap and at 1 MB (cut to the cap), best of 3 runs. */
export function measureHostileAnalysis(): HostileAnalysis[] {
  const brand = { name: "Acme", domains: ["acme.example"] };
  const competitors = [{ name: "HubSpot" }];
  return Object.entries(HOSTILE).flatMap(([pattern, unit]) =>
    [ANALYSIS_MAX_CHARS, 1_000_000].map((chars) => {
      const answer = unit.repeat(Math.ceil(chars / unit.length)).slice(0, chars);
      let best = Infinity;
      let truncated = false;
      for (let run = 0; run < 3; run++) {
        const started = performance.now();
        truncated = analyzeAnswer({ answer, brand, competitors }).truncated;
        best = Math.min(best, performance.now() - started);
      }
      return { pattern, chars, ms: Math.round(best * 10) / 10, truncated };
    }),
  );
}
