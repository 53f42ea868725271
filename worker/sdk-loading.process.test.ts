// A worker whose connections use only the simulator never loads a provider SDK (about 50 MB of
// its memory; lib/providers/lazy-sdk.ts): the probe imports the worker's modules in a fresh node
// process (tsx's loader, the react-server condition), runs a simulator call, then calls each real
// adapter once, listing the npm packages loaded after each step.
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const SDKS = ["openai", "@anthropic-ai/sdk", "@google/genai"];

type Probe = { afterSimulator: string[]; calls: Record<string, string>; afterCalls: string[] };
let probe: Probe;

beforeAll(() => {
  const out = execFileSync(process.execPath, ["--conditions=react-server", "--import", "tsx", "tests/support/loaded-packages/probe.ts"], {
    cwd: ROOT,
    encoding: "utf8",
    timeout: 60_000,
  });
  probe = JSON.parse(out.trim().split("\n").at(-1)!) as Probe;
});

describe("provider SDKs in the worker process", () => {
  it("are not loaded by the worker's modules nor by a simulator call", () => {
    // The recorder sees packages the worker does load, so an empty intersection means something.
    expect(probe.afterSimulator).toEqual(expect.arrayContaining(["graphile-worker", "@prisma/client", "pg"]));
    expect(probe.afterSimulator.filter((name) => SDKS.includes(name))).toEqual([]);
  });

  it("are loaded by an adapter's first call, which then behaves as before", () => {
    expect(probe.afterCalls).toEqual(expect.arrayContaining(SDKS));
    expect(probe.calls).toEqual({ openai: "connection_failed", perplexity: "connection_failed", gemini: "connection_failed", anthropic: "connection_failed" });
  });
});
