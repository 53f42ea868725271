import { describe, expect, it } from "vitest";
import { CallAbortedError, ProviderError } from "@/lib/providers/errors";
import { simulatorAdapter } from "./simulator";

const request = (settings: Record<string, unknown>, seed = "capture-1:1") => ({
  prompt: "What is the best CRM for a startup?",
  model: "sim",
  searchMode: "on" as const,
  signal: new AbortController().signal,
  settings: { latencyMinMs: 0, latencyMaxMs: 0, ...settings },
  subject: { brand: { name: "Lumen CRM", domains: ["lumencrm.com"] }, competitors: [{ name: "HubSpot", domains: ["hubspot.com"] }, { name: "Pipedrive", domains: [] }] },
  seed,
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

  it("throws transient and permanent errors at the configured rates", async () => {
    await expect(simulatorAdapter.call(request({ errorRate: 1 }))).rejects.toMatchObject({ retryClass: "transient" });
    await expect(simulatorAdapter.call(request({ permanentErrorRate: 1 }))).rejects.toMatchObject({ retryClass: "permanent", httpStatus: 400 });
    await expect(simulatorAdapter.call(request({ errorRate: 1 }))).rejects.toBeInstanceOf(ProviderError);
  });

  it("hangs on a timeout until aborted, then stops at once with the partial answer", async () => {
    const controller = new AbortController();
    const call = simulatorAdapter.call({ ...request({ timeoutRate: 1, latencyMinMs: 30, latencyMaxMs: 30 }), signal: controller.signal });
    setTimeout(() => controller.abort("cancelled"), 100);
    const started = Date.now();
    const error = await call.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CallAbortedError);
    expect((error as CallAbortedError).abortReason).toBe("cancelled");
    expect((error as CallAbortedError).partialText.length).toBeGreaterThan(0);
    expect(Date.now() - started).toBeLessThan(1000);
  });
});
