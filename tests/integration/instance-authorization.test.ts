// The Instance page's actions (lib/actions/instance.ts, and forcing a breaker) belong to operators.
// An owner of a workspace, even of the operator's own workspace, is refused every one of them and
// nothing changes; the same calls made by an operator succeed, so the refusals are not down to
// bad input. A workspace admin cannot point a provider at a connection that was not granted.
import { beforeAll, describe, expect, it, vi } from "vitest";
import { join, ok, refused, signUp, type AnyAction, type Person } from "../support/workspace-fixtures";
import { adminOverviewAction, forceBreakerAction } from "@/lib/actions/admin";
import {
  amIOperatorAction,
  createConnectionAction,
  grantConnectionAction,
  grantOperatorAction,
  instanceOverviewAction,
  revokeConnectionAction,
  testConnectionAction,
  updateConnectionAction,
} from "@/lib/actions/instance";
import { createProviderAction, grantedConnectionsAction } from "@/lib/actions/settings";
import { db } from "@/lib/db/prisma";
import { grantOperator, isOperator } from "@/lib/instance/operators";
import { beat } from "@/lib/jobs/heartbeats";
import { DEFAULT_BREAKER_SETTINGS } from "@/lib/providers/limits";
import type { ConnectionInput } from "@/lib/providers/schemas";

vi.mock("next/headers", () => import("../support/request-context").then((m) => m.nextHeadersMock));

let operator: Person;
let owner: Person;
let openai: { id: string; models: string[] };
let anthropic: { id: string; models: string[] };
let simulator: { id: string; models: string[] };

const connection = (name: string): ConnectionInput => ({
  name,
  adapter: "simulator",
  models: ["sim-small", "sim-large"],
  enabled: true,
  grantedToAll: false,
  inputPricePerMTokMicros: 1,
  outputPricePerMTokMicros: 1,
  cachedPricePerMTokMicros: 0,
  reasoningPricePerMTokMicros: 0,
  searchPriceMicros: 0,
  maxConcurrency: 100,
  maxAttempts: 3,
  unknownRetries: 1,
  timeoutMs: 10_000,
  maxOutputTokens: 1000,
  maxSearchCalls: 1,
  ...DEFAULT_BREAKER_SETTINGS,
  simulator: { style: "chatgpt", latencyMinMs: 0, latencyMaxMs: 0, errorRate: 0, permanentErrorRate: 0, timeoutRate: 0 },
});

/** Everything an instance action could write. */
async function snapshotInstance() {
  const [connections, grants, operators, breakers, providers] = await Promise.all([
    db().providerConnection.findMany({ orderBy: { id: "asc" } }),
    db().connectionGrant.findMany({ orderBy: [{ connectionId: "asc" }, { workspaceId: "asc" }] }),
    db().operator.findMany({ orderBy: { userId: "asc" } }),
    db().breakerState.findMany({ orderBy: [{ connectionId: "asc" }, { model: "asc" }] }),
    db().providerConfig.findMany({ orderBy: { id: "asc" } }),
  ]);
  return { connections, grants, operators, breakers, providers };
}

const byName = async (name: string) => db().providerConnection.findUniqueOrThrow({ where: { name }, select: { id: true, models: true } });

beforeAll(async () => {
  operator = await signUp({ name: "Olga Operator", workspaceName: "Instance Co" });
  // Whether or not sign-up made the first account an operator, this one is.
  await grantOperator(operator.email);
  owner = await join(operator, "owner", "Owen Owner");
  [openai, anthropic, simulator] = await Promise.all([byName("OpenAI"), byName("Anthropic"), byName("Simulated ChatGPT")]);
  // Something for a revoke to take away: the operator grants OpenAI to the workspace both are in.
  ok(await operator.browser.run(() => grantConnectionAction({ connectionId: openai.id, workspaceId: operator.workspaceId, monthlySpendLimitMicros: 5_000_000 })));
});

/** The calls of the Instance page, made with input an operator's call succeeds with. */
const instanceCalls = (): [string, AnyAction][] => [
  ["read the overview", () => instanceOverviewAction()],
  ["create a connection", () => createConnectionAction(connection("Owner's own connection"))],
  ["change a connection's cap and prices", () => updateConnectionAction({ connectionId: simulator.id, connection: { ...connection("Simulated ChatGPT"), models: simulator.models } })],
  ["grant a connection", () => grantConnectionAction({ connectionId: anthropic.id, workspaceId: owner.workspaceId, monthlySpendLimitMicros: null })],
  ["raise a grant's limit", () => grantConnectionAction({ connectionId: openai.id, workspaceId: owner.workspaceId, monthlySpendLimitMicros: 900_000_000 })],
  ["test a connection", () => testConnectionAction({ connectionId: simulator.id, model: simulator.models[0]!, prompt: "Which CRM is best?" })],
  ["force a breaker open", () => forceBreakerAction({ connectionId: simulator.id, model: simulator.models[0]!, forced: "open" })],
  ["revoke a grant", () => revokeConnectionAction({ connectionId: openai.id, workspaceId: owner.workspaceId })],
  // Last: it makes the owner an operator.
  ["make someone an operator", () => grantOperatorAction({ email: owner.email })],
];

describe("an owner who is not an operator", () => {
  it("is told it is not an operator", async () => {
    expect(await isOperator(owner.userId)).toBe(false);
    expect(ok(await owner.browser.run(() => amIOperatorAction()))).toEqual({ operator: false });
    expect(ok(await operator.browser.run(() => amIOperatorAction()))).toEqual({ operator: true });
  });

  it.each(instanceCalls())("cannot %s, and nothing changes", async (_, call) => {
    const before = await snapshotInstance();
    const error = refused(await owner.browser.run(call), "forbidden");
    expect(error.message).toMatch(/operators/i);
    expect(await snapshotInstance()).toEqual(before);
  });

  it("sees the workers on the Jobs page without their machines' names and process ids, which an operator sees", async () => {
    const workerId = `worker-host-7:${process.pid}:${Date.now()}`;
    await beat({ workerId, slotIds: [], hostname: "worker-host-7", pid: 4242, concurrency: 4 }, "running", 60);
    const asOwner = ok(await owner.browser.run(() => adminOverviewAction())).workers;
    expect(asOwner.length).toBeGreaterThan(0);
    expect(JSON.stringify(asOwner)).not.toMatch(/worker-host-7|4242/);
    expect(asOwner.every((w) => w.hostname === null && w.pid === null && /^[0-9a-f]{8}$/.test(w.workerId))).toBe(true);
    const asOperator = ok(await operator.browser.run(() => adminOverviewAction())).workers;
    expect(asOperator.find((w) => w.workerId === workerId)).toMatchObject({ hostname: "worker-host-7", pid: 4242, alive: true });
    await db().workerHeartbeat.delete({ where: { workerId } });
  });

  it("cannot point a provider at a connection its workspace was not granted", async () => {
    const granted = ok(await owner.browser.run(() => grantedConnectionsAction())).map((c) => c.id);
    expect(granted).toContain(openai.id);
    expect(granted).toContain(simulator.id);
    expect(granted).not.toContain(anthropic.id);

    const before = await snapshotInstance();
    const error = refused(
      await owner.browser.run(() => createProviderAction({ name: "Sneaky Claude", connectionId: anthropic.id, model: anthropic.models[0]!, searchMode: "auto", enabled: true })),
      "not_found",
    );
    expect(error.field).toBe("connectionId");
    expect(await snapshotInstance()).toEqual(before);
  });
});

describe("an operator", () => {
  it("makes every one of those calls", async () => {
    for (const [what, call] of instanceCalls()) {
      const result = await operator.browser.run(call);
      expect(result?.serverError, what).toBeUndefined();
      expect(result?.validationErrors, what).toBeUndefined();
    }
    expect(await isOperator(owner.userId)).toBe(true);
    expect(await db().providerConnection.count({ where: { name: "Owner's own connection" } })).toBe(1);
    expect((await db().providerConnection.findUniqueOrThrow({ where: { id: simulator.id } })).maxConcurrency).toBe(100);
  });
});
