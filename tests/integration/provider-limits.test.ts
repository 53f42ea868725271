// A connection's call limits through the Instance page's actions (operators): values out of range
// are refused with a message on their field (what the connection form shows), saved limits are
// stored, and "Test connection" sends them to the provider (a local server speaking the OpenAI
// wire format, with the real SDK and real HTTP in between).
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { expectFieldError, ok, signUp, type Person } from "../support/workspace-fixtures";
import { createConnectionAction, grantConnectionAction, revokeConnectionAction, testConnectionAction, updateConnectionAction } from "@/lib/actions/instance";
import { db } from "@/lib/db/prisma";
import { DEFAULT_BREAKER_SETTINGS, DEFAULT_CALL_LIMITS } from "@/lib/providers/limits";
import type { ConnectionInput } from "@/lib/providers/schemas";
import { startFakeOpenAI, type FakeServer, type OpenAIScenario } from "@/tests/support/fake-providers/openai-server";

vi.mock("next/headers", () => import("../support/request-context").then((m) => m.nextHeadersMock));

let server: FakeServer<OpenAIScenario>;
let operator: Person;

beforeAll(async () => {
  server = await startFakeOpenAI();
  // Before anything reads env(): the registered OpenAI adapter must call the local server.
  process.env.OPENAI_API_KEY = "sk-settings";
  process.env.OPENAI_BASE_URL = server.url;
  operator = await signUp({ name: "Lim Its", workspaceName: "Limits" });
  await db().operator.upsert({ where: { userId: operator.userId }, create: { userId: operator.userId }, update: {} });
});

afterAll(async () => {
  await server.close();
});

const valid: ConnectionInput = {
  name: "Limited",
  adapter: "openai",
  models: ["gpt-5-mini"],
  enabled: true,
  grantedToAll: false,
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
  ...DEFAULT_BREAKER_SETTINGS,
};

describe("connection limits", () => {
  it.each<[string, Partial<ConnectionInput>, RegExp]>([
    ["maxOutputTokens", { maxOutputTokens: 0 }, /at least 1/i],
    ["maxOutputTokens", { maxOutputTokens: 200_001 }, /at most 200,000/i],
    ["maxOutputTokens", { maxOutputTokens: 1.5 }, /whole number/i],
    ["maxSearchCalls", { maxSearchCalls: -1 }, /negative/i],
    ["maxSearchCalls", { maxSearchCalls: 21 }, /at most 20/i],
    ["breakerProbeTimeoutMs", { breakerProbeTimeoutMs: 999 }, /at least 1,000/i],
    ["breakerProbeTimeoutMs", { breakerProbeTimeoutMs: 600_001 }, /at most 600,000/i],
  ])("refuses %s = %o with a message on the field, and stores nothing", async (field, change, message) => {
    const before = await db().providerConnection.count();
    const result = await operator.browser.run(() => createConnectionAction({ ...valid, name: `Bad ${field}`, ...change }));
    expectFieldError(result, field, message);
    expect(await db().providerConnection.count()).toBe(before);
  });

  it("accepts the bounds: 1 and 200,000 tokens, 0 and 20 searches, 1,000 and 600,000 ms", async () => {
    ok(await operator.browser.run(() => createConnectionAction({ ...valid, name: "Low", maxOutputTokens: 1, maxSearchCalls: 0, breakerProbeTimeoutMs: 1000 })));
    ok(await operator.browser.run(() => createConnectionAction({ ...valid, name: "High", maxOutputTokens: 200_000, maxSearchCalls: 20, breakerProbeTimeoutMs: 600_000 })));
    const stored = await db().providerConnection.findMany({ where: { name: { in: ["Low", "High"] } }, orderBy: { name: "asc" } });
    expect(stored.map((c) => [c.name, c.maxOutputTokens, c.maxSearchCalls, c.breakerProbeTimeoutMs])).toEqual([
      ["High", 200_000, 20, 600_000],
      ["Low", 1, 0, 1000],
    ]);
  });

  it("stores saved limits, and Test connection sends them to the provider", async () => {
    const { id } = ok(await operator.browser.run(() => createConnectionAction({ ...valid, name: "Tested" })))!;
    ok(await operator.browser.run(() => updateConnectionAction({ connectionId: id, connection: { ...valid, name: "Tested", maxOutputTokens: 321, maxSearchCalls: 1, breakerProbeTimeoutMs: 5000 } })));
    expect(await db().providerConnection.findUniqueOrThrow({ where: { id } })).toMatchObject({ maxOutputTokens: 321, maxSearchCalls: 1, breakerProbeTimeoutMs: 5000 });

    const before = server.requests.length;
    const result = ok(await operator.browser.run(() => testConnectionAction({ connectionId: id, model: "gpt-5-mini", prompt: "What is the best CRM?" })));
    expect(result).toMatchObject({ ok: true });
    expect(server.requests.length).toBe(before + 1);
    expect(server.requests.at(-1)!.body).toMatchObject({ max_output_tokens: 321, max_tool_calls: 1, tools: [{ type: "web_search" }] });
  });

  it("a connection form opened before a disable cannot switch it back on: its save is refused, nothing changed", async () => {
    const { id } = ok(await operator.browser.run(() => createConnectionAction({ ...valid, name: "Stale form" })))!;
    // Operator B opens the Edit dialog (it holds the row as read); operator A disables the connection.
    const opened = await db().providerConnection.findUniqueOrThrow({ where: { id } });
    ok(await operator.browser.run(() => updateConnectionAction({ connectionId: id, version: opened.updatedAt, connection: { ...valid, name: "Stale form", enabled: false } })));
    // B saves a price with the form's "enabled" as it was.
    const stale = await operator.browser.run(() => updateConnectionAction({ connectionId: id, version: opened.updatedAt, connection: { ...valid, name: "Stale form", inputPricePerMTokMicros: 300_000 } }));
    expect(stale?.serverError?.code).toBe("conflict");
    expect(stale?.serverError?.message).toMatch(/changed since .* opened/);
    expect(await db().providerConnection.findUniqueOrThrow({ where: { id } })).toMatchObject({ enabled: false, inputPricePerMTokMicros: valid.inputPricePerMTokMicros });
  });

  it("a grant dialog opened before another operator's grant or revoke cannot write over it", async () => {
    const { id: connectionId } = ok(await operator.browser.run(() => createConnectionAction({ ...valid, name: "Granted twice" })))!;
    const workspaceId = operator.workspaceId;
    const grantOf = () => db().connectionGrant.findUnique({ where: { connectionId_workspaceId: { connectionId, workspaceId } } });
    // Two operators open "Grant" for the same workspace; the first grants with a $10 limit.
    ok(await operator.browser.run(() => grantConnectionAction({ connectionId, workspaceId, monthlySpendLimitMicros: 10_000_000, expected: null })));
    const second = await operator.browser.run(() => grantConnectionAction({ connectionId, workspaceId, monthlySpendLimitMicros: null, expected: null }));
    expect(second?.serverError).toMatchObject({ code: "conflict", message: expect.stringMatching(/granted .* meanwhile/) });
    expect((await grantOf())?.monthlySpendLimitMicros).toBe(10_000_000n);
    // A limit edit opened now; another operator revokes the grant; the edit is not a new grant.
    ok(await operator.browser.run(() => revokeConnectionAction({ connectionId, workspaceId })));
    const edit = await operator.browser.run(() => grantConnectionAction({ connectionId, workspaceId, monthlySpendLimitMicros: 20_000_000, expected: { monthlySpendLimitMicros: 10_000_000 } }));
    expect(edit?.serverError).toMatchObject({ code: "conflict", message: expect.stringMatching(/revoked/) });
    expect(await grantOf()).toBeNull();
    // A limit edited meanwhile: refused too.
    ok(await operator.browser.run(() => grantConnectionAction({ connectionId, workspaceId, monthlySpendLimitMicros: 5_000_000, expected: null })));
    ok(await operator.browser.run(() => grantConnectionAction({ connectionId, workspaceId, monthlySpendLimitMicros: 6_000_000, expected: { monthlySpendLimitMicros: 5_000_000 } })));
    expect((await operator.browser.run(() => grantConnectionAction({ connectionId, workspaceId, monthlySpendLimitMicros: null, expected: { monthlySpendLimitMicros: 5_000_000 } })))?.serverError?.code).toBe("conflict");
    expect((await grantOf())?.monthlySpendLimitMicros).toBe(6_000_000n);
  });

  it("the default connections start with the limits the CLI uses and the breaker thresholds the form offers", async () => {
    const defaults = await db().providerConnection.findMany({ where: { name: { in: ["Simulated ChatGPT", "OpenAI", "Anthropic"] } } });
    expect(defaults).toHaveLength(3);
    for (const c of defaults) expect(c).toMatchObject({ ...DEFAULT_CALL_LIMITS, ...DEFAULT_BREAKER_SETTINGS });
  });
});
