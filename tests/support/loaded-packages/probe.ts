// Run by node with tsx's loader and the react-server condition, as the launcher runs the worker
// (worker/sdk-loading.process.test.ts). Imports the worker's modules, runs one simulator call, then calls
// each real provider adapter once against a closed local port, and prints as JSON the npm packages
// loaded after each step (ESM imports through the resolve hook, CommonJS ones from require.cache).
import fs from "node:fs";
import { createRequire, register } from "node:module";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import type { AdapterName } from "@/lib/providers/registry";
import type { ProviderRequest } from "@/lib/providers/types";

const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "beacon-loaded-")), "resolved.txt");
fs.writeFileSync(file, "");
register("./record-resolved.mjs", import.meta.url, { data: { file } });
const require = createRequire(import.meta.url);

// Every provider configured, each pointing at a port nobody listens on: a call fails at once with
// connection_failed, after its adapter has loaded the SDK.
const closedPort = await new Promise<number>((resolve) => {
  const server = net.createServer().listen(0, "127.0.0.1", () => {
    const { port } = server.address() as net.AddressInfo;
    server.close(() => resolve(port));
  });
});
const base = `http://127.0.0.1:${closedPort}`;
Object.assign(process.env, {
  OPENAI_API_KEY: "k",
  OPENAI_BASE_URL: `${base}/v1`,
  PERPLEXITY_API_KEY: "k",
  PERPLEXITY_BASE_URL: base,
  GEMINI_API_KEY: "k",
  GOOGLE_GEMINI_BASE_URL: base,
  ANTHROPIC_API_KEY: "k",
  ANTHROPIC_BASE_URL: base,
  SIMULATOR_LATENCY_MS: "0",
  SIMULATOR_ERROR_RATE: "0",
  SIMULATOR_PERMANENT_ERROR_RATE: "0",
  SIMULATOR_TIMEOUT_RATE: "0",
});

function packages(): string[] {
  const paths = [...fs.readFileSync(file, "utf8").split("\n"), ...Object.keys(require.cache)];
  const names = paths.map((p) => /.*\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(p)?.[1]).filter((name) => name !== undefined);
  return [...new Set(names)].sort();
}

const request = (): ProviderRequest => ({
  prompt: "Which CRM is best?",
  model: "m",
  searchMode: "off",
  signal: AbortSignal.timeout(10_000),
  limits: { maxOutputTokens: 2000, maxSearchCalls: 0 },
  seed: "probe",
});

// The worker process's own imports (worker/index.ts), without starting the runner.
await import("@/lib/worker/runner");
await import("@/worker/tasks");
const { adapterFor } = await import("@/lib/providers/registry");
await adapterFor("simulator")!.call(request());
const afterSimulator = packages();

const calls: Record<string, string> = {};
for (const name of ["openai", "perplexity", "gemini", "anthropic"] satisfies AdapterName[]) {
  calls[name] = await adapterFor(name)!.call(request()).then(
    () => "answered",
    (error: { reason?: string }) => error.reason ?? String(error),
  );
}

const afterCalls = packages();
fs.rmSync(path.dirname(file), { recursive: true, force: true });
console.log(JSON.stringify({ afterSimulator, calls, afterCalls }));
