// A provider configuration's call limits through the Settings actions: values out of range are
// refused with a message on their field (what the provider form shows), saved limits are stored,
// and "Test connection" sends them to the provider (a local server speaking the OpenAI wire
// format, with the real SDK and real HTTP in between).
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { expectFieldError, ok, signUp, type Person } from "../support/workspace-fixtures";
import { createProviderAction, testProviderAction, updateProviderAction } from "@/lib/actions/settings";
import { db } from "@/lib/db/prisma";
import { DEFAULT_CALL_LIMITS } from "@/lib/providers/defaults";
import type { ProviderConfigInput } from "@/lib/providers/schemas";
import { startFakeOpenAI, type FakeServer, type OpenAIScenario } from "@/tests/support/fake-providers/openai-server";

vi.mock("next/headers", () => import("../support/request-context").then((m) => m.nextHeadersMock));

let server: FakeServer<OpenAIScenario>;
let me: Person;

beforeAll(async () => {
  server = await startFakeOpenAI();
  // Before anything reads env(): the registered OpenAI adapter must call the local server.
  process.env.OPENAI_API_KEY = "sk-settings";
  process.env.OPENAI_BASE_URL = server.url;
  me = await signUp({ name: "Lim Its", workspaceName: "Limits" });
});

afterAll(async () => {
  await server.close();
});

const valid: ProviderConfigInput = {
  name: "Limited",
  adapter: "openai",
  model: "gpt-5-mini",
  searchMode: "auto",
  enabled: true,
  inputPricePerMTokMicros: 250_000,
  outputPricePerMTokMicros: 2_000_000,
  cachedPricePerMTokMicros: 25_000,
  reasoningPricePerMTokMicros: 2_000_000,
  searchPriceMicros: 10_000,
  maxConcurrency: 4,
  maxAttempts: 3,
  unknownRetries: 1,
  timeoutMs: 120_000,
  maxOutputTokens: 2048,
  maxSearchCalls: 3,
  breakerWindowSize: 20,
  breakerMinCalls: 10,
  breakerFailureRatePct: 50,
  breakerOpenSeconds: 45,
  breakerSlowCallMs: 60_000,
  breakerSlowCallIsFailure: false,
  breakerProbeTimeoutMs: 15_000,
};

describe("provider configuration limits", () => {
  it.each<[string, Partial<ProviderConfigInput>, RegExp]>([
    ["maxOutputTokens", { maxOutputTokens: 0 }, /at least 1/i],
    ["maxOutputTokens", { maxOutputTokens: 200_001 }, /at most 200,000/i],
    ["maxOutputTokens", { maxOutputTokens: 1.5 }, /whole number/i],
    ["maxSearchCalls", { maxSearchCalls: -1 }, /negative/i],
    ["maxSearchCalls", { maxSearchCalls: 21 }, /at most 20/i],
    ["breakerProbeTimeoutMs", { breakerProbeTimeoutMs: 999 }, /at least 1,000/i],
    ["breakerProbeTimeoutMs", { breakerProbeTimeoutMs: 600_001 }, /at most 600,000/i],
  ])("refuses %s = %o with a message on the field, and stores nothing", async (field, change, message) => {
    const before = await db().providerConfig.count({ where: { workspaceId: me.workspaceId } });
    const result = await me.browser.run(() => createProviderAction({ ...valid, name: `Bad ${field}`, ...change }));
    expectFieldError(result, field, message);
    expect(await db().providerConfig.count({ where: { workspaceId: me.workspaceId } })).toBe(before);
  });

  it("accepts the bounds: 1 and 200,000 tokens, 0 and 20 searches, 1,000 and 600,000 ms", async () => {
    ok(await me.browser.run(() => createProviderAction({ ...valid, name: "Low", maxOutputTokens: 1, maxSearchCalls: 0, breakerProbeTimeoutMs: 1000 })));
    ok(await me.browser.run(() => createProviderAction({ ...valid, name: "High", maxOutputTokens: 200_000, maxSearchCalls: 20, breakerProbeTimeoutMs: 600_000 })));
    const stored = await db().providerConfig.findMany({ where: { workspaceId: me.workspaceId, name: { in: ["Low", "High"] } }, orderBy: { name: "asc" } });
    expect(stored.map((c) => [c.name, c.maxOutputTokens, c.maxSearchCalls, c.breakerProbeTimeoutMs])).toEqual([
      ["High", 200_000, 20, 600_000],
      ["Low", 1, 0, 1000],
    ]);
  });

  it("stores saved limits, and Test connection sends them to the provider", async () => {
    const { id } = ok(await me.browser.run(() => createProviderAction({ ...valid, name: "Tested" })));
    ok(await me.browser.run(() => updateProviderAction({ providerConfigId: id, config: { ...valid, name: "Tested", maxOutputTokens: 321, maxSearchCalls: 1, breakerProbeTimeoutMs: 5000 } })));
    expect(await db().providerConfig.findUniqueOrThrow({ where: { id } })).toMatchObject({ maxOutputTokens: 321, maxSearchCalls: 1, breakerProbeTimeoutMs: 5000 });

    const before = server.requests.length;
    const result = ok(await me.browser.run(() => testProviderAction({ providerConfigId: id, prompt: "What is the best CRM?" })));
    expect(result).toMatchObject({ ok: true });
    expect(server.requests.length).toBe(before + 1);
    expect(server.requests.at(-1)!.body).toMatchObject({ max_output_tokens: 321, max_tool_calls: 1, tools: [{ type: "web_search" }] });
  });

  it("a new workspace's providers start with the limits the CLI and the new-provider form use", async () => {
    const configs = await db().providerConfig.findMany({ where: { workspaceId: me.workspaceId, name: { notIn: ["Low", "High", "Tested"] } } });
    expect(configs.length).toBeGreaterThan(0);
    for (const c of configs) expect(c).toMatchObject({ ...DEFAULT_CALL_LIMITS, breakerProbeTimeoutMs: 15_000 });
  });
});
