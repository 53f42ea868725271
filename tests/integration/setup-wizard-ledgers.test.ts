// The setup wizard's paid call against the lifecycle's ledgers and fencing (issue 17, defects 3
// and 4). The wizard reserves its worst case "in flight" without an attempt row, so:
// - the repair pass must count that reservation as in flight (one definition, the view
//   beacon_in_flight), or it "repairs" it away and claims get past the hard cap;
// - its job must be fenced like a capture's run (run token, the worker's lease, a guarded
//   finish): a second run while the first one holds the row calls nothing, and a run whose worker
//   was swept writes nothing when it wakes, its reservation charged as an estimate by the sweeper.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { worstCaseCost } from "@/lib/billing/money";
import { runRepairPass } from "@/lib/lifecycle/repair";
import { grantConnection, revokeConnection, updateConnection } from "@/lib/connections/connections";
import { db } from "@/lib/db/prisma";
import { sweepDeadWorkers } from "@/lib/worker/sweeper";
import { setupCallLimits, setupPrompt } from "@/lib/setup/prompt";
import { requestSetupSuggestions, runSetupSuggestions } from "@/lib/setup/suggestions";
import { startFakeOpenAICompatible, type CompatibleScenario } from "@/tests/support/fake-providers/openai-compatible-server";
import type { FakeServer } from "@/tests/support/fake-providers/openai-server";
import { budgetNow, claim, connectionInputOf, expectBudgetConsistent, liveWorker, newSpace, startSpaceCheck } from "../support/lifecycle-fixtures";
import { actAt, gateAt, lockWaiters } from "../support/pause";
import { waitFor } from "../support/wait-for";
import { ROLE_LOSSES } from "../support/workspace-fixtures";

let server: FakeServer<CompatibleScenario>;
beforeAll(async () => {
  server = await startFakeOpenAICompatible();
});
afterAll(() => server.close());

/** A grant's spend on a connection this month, over its shards. */
async function grantNow(workspaceId: string, connectionId: string) {
  const [row] = await db().$queryRaw<{ inFlight: bigint | null; charged: bigint | null }[]>`
    SELECT sum("inFlightMicros")::bigint AS "inFlight", sum("chargedMicros")::bigint AS charged FROM grant_spend_periods
    WHERE "workspaceId" = ${workspaceId}::uuid AND "connectionId" = ${connectionId}::uuid AND "periodStart" = date_trunc('month', now() AT TIME ZONE 'UTC')::date`;
  return { inFlight: row?.inFlight ?? 0n, charged: row?.charged ?? 0n };
}

/** No month of the workspace has a negative sum, on the budget or on any grant. */
async function expectNothingNegative(workspaceId: string) {
  const [row] = await db().$queryRaw<{ negative: number }[]>`
    SELECT ((SELECT count(*) FROM (SELECT 1 FROM budget_periods WHERE "workspaceId" = ${workspaceId}::uuid GROUP BY "periodStart"
              HAVING sum("reservedMicros") < 0 OR sum("inFlightMicros") < 0 OR sum("chargedMicros") < 0) b)
          + (SELECT count(*) FROM (SELECT 1 FROM grant_spend_periods WHERE "workspaceId" = ${workspaceId}::uuid GROUP BY "connectionId", "periodStart"
              HAVING sum("inFlightMicros") < 0 OR sum("chargedMicros") < 0) g))::int AS negative`;
  expect(row!.negative, "months with a negative sum").toBe(0);
}

/** The wizard's call settled: nothing in flight, `charged` charged on the budget and the grant, no month negative, nothing for the repair pass. */
async function expectSettled(workspaceId: string, connectionId: string, charged: bigint) {
  expect(await budgetNow(workspaceId)).toMatchObject({ inFlight: 0n, charged });
  expect(await grantNow(workspaceId, connectionId)).toEqual({ inFlight: 0n, charged });
  await expectNothingNegative(workspaceId);
  expect(await runRepairPass()).toEqual({});
  await expectBudgetConsistent(workspaceId);
}

const SETUP_JSON = {
  brand: { name: "Fenced", aliases: [], domains: ["fenced.io"] },
  competitors: [{ name: "Rival", domains: ["rival.io"] }],
  questions: Array.from({ length: 20 }, (_, i) => ({ text: `Which tool is best for team ${i + 1}?`, tag: "discovery" })),
};

/** A workspace with its own OpenAI-compatible connection to the fake server, granted with a limit. */
async function compatibleSpace() {
  const space = await newSpace({ prompts: 1 });
  const connection = await db().providerConnection.create({
    data: {
      name: `Fenced ${randomUUID().slice(0, 8)}`,
      adapter: "openai_compatible",
      models: ["fenced-model"],
      inputPricePerMTokMicros: 1_000_000,
      outputPricePerMTokMicros: 2_000_000,
      settings: { baseURL: server.url },
    },
  });
  await grantConnection({ connectionId: connection.id, workspaceId: space.workspaceId, monthlySpendLimitMicros: 100_000_000 }, null);
  return { space, connection };
}

describe("the wizard's reservation is in flight for the repair pass", () => {
  it("a call held in flight: the repair pass repairs nothing, a claim that does not fit beside it is refused, and it settles exactly", async () => {
    const space = await newSpace({ prompts: 1 });
    const workerId = await liveWorker();
    const connectionId = space.connections.ChatGPT!;
    const { captureIds } = await startSpaceCheck(space, { prompts: 1 });
    const { suggestionId } = await requestSetupSuggestions({ workspaceId: space.workspaceId, userId: null, domain: "acme-crm.com", language: "en", connectionId });
    const reserved = (await db().setupSuggestion.findUniqueOrThrow({ where: { id: suggestionId } })).reservedMicros;

    // The budget fits the wizard's worst case and a capture's worst case minus one micro-dollar.
    const capture = await db().capture.findUniqueOrThrow({ where: { id: captureIds[0]! }, include: { connection: true, prompt: true } });
    const c = capture.connection;
    const captureWorst = worstCaseCost(capture.prompt.text, capture.searchMode, { maxOutputTokens: c.maxOutputTokens, maxSearchCalls: c.maxSearchCalls }, c);
    await db().workspace.update({ where: { id: space.workspaceId }, data: { monthlyBudgetMicros: reserved + BigInt(captureWorst) - 1n } });

    const held = gateAt("setup:after-provider", (context) => context.suggestionId === suggestionId);
    const running = runSetupSuggestions(suggestionId, { workerId });
    await held.reached;

    expect(await runRepairPass(), "nothing to repair while the wizard's call is in flight").toEqual({});
    expect((await budgetNow(space.workspaceId)).inFlight).toBe(reserved);
    expect((await grantNow(space.workspaceId, connectionId)).inFlight).toBe(reserved);
    // The hard cap still counts the wizard's call: the capture's worst case does not fit beside it.
    expect((await claim(captureIds[0]!, workerId)).result.kind).toBe("waiting_for_budget");
    expect((await budgetNow(space.workspaceId)).inFlight).toBe(reserved);

    held.open();
    expect(await running).toBe("succeeded");
    const cost = (await db().setupSuggestion.findUniqueOrThrow({ where: { id: suggestionId } })).costMicros!;
    expect(cost).toBeGreaterThan(0n);
    expect(await budgetNow(space.workspaceId)).toMatchObject({ inFlight: 0n, charged: cost });
    expect(await grantNow(space.workspaceId, connectionId)).toEqual({ inFlight: 0n, charged: cost });
    await expectNothingNegative(space.workspaceId);
    expect(await runRepairPass(), "nothing to repair after it settled").toEqual({});
    await expectBudgetConsistent(space.workspaceId);
  });

  it("a queued call whose job is gone gets it back from the repair pass, so its reservation settles", async () => {
    const space = await newSpace({ prompts: 1 });
    const workerId = await liveWorker();
    const { suggestionId } = await requestSetupSuggestions({ workspaceId: space.workspaceId, userId: null, domain: "orphan.io", language: "en", connectionId: space.connections.ChatGPT! });
    await db().$executeRaw`DELETE FROM graphile_worker._private_jobs WHERE key = ${`setup:${suggestionId}`}`;
    expect(await runRepairPass()).toEqual({ setup_waiting_without_job: 1 });
    expect(await runRepairPass(), "a second pass finds nothing").toEqual({});
    const [job] = await db().$queryRaw<{ n: bigint }[]>`SELECT count(*) AS n FROM graphile_worker.jobs WHERE key = ${`setup:${suggestionId}`}`;
    expect(job!.n).toBe(1n);
    expect(await runSetupSuggestions(suggestionId, { workerId })).toBe("succeeded");
    expect((await budgetNow(space.workspaceId)).inFlight).toBe(0n);
    await expectBudgetConsistent(space.workspaceId);
  });
});

describe("the wizard's job is fenced", () => {
  it("two runs of the job at once: one provider call, one charge", async () => {
    const { space, connection } = await compatibleSpace();
    const [first, second] = [await liveWorker(), await liveWorker()];
    server.enqueue({ kind: "answer", answer: { content: JSON.stringify(SETUP_JSON), usage: { prompt_tokens: 300, completion_tokens: 1200 } } });
    const { suggestionId } = await requestSetupSuggestions({ workspaceId: space.workspaceId, userId: null, domain: "fenced.io", language: "en", connectionId: connection.id });
    const calls = server.requests.length;

    const held = gateAt("setup:after-provider", (context) => context.suggestionId === suggestionId);
    const running = runSetupSuggestions(suggestionId, { workerId: first });
    await held.reached;
    expect(await runSetupSuggestions(suggestionId, { workerId: second }), "the second run while the first holds the row").toBe("skipped");
    expect(server.requests.length, "provider calls").toBe(calls + 1);

    held.open();
    expect(await running).toBe("succeeded");
    const row = await db().setupSuggestion.findUniqueOrThrow({ where: { id: suggestionId } });
    const cost = 300n * 1n + 1200n * 2n; // 1 and 2 micro-dollars a token
    expect(row.costMicros).toBe(cost);
    expect(await budgetNow(space.workspaceId)).toMatchObject({ inFlight: 0n, charged: cost });
    expect(await grantNow(space.workspaceId, connection.id)).toEqual({ inFlight: 0n, charged: cost });
    expect(server.requests.length).toBe(calls + 1);
    await expectNothingNegative(space.workspaceId);
    await expectBudgetConsistent(space.workspaceId);
  });

  it("a run whose worker was swept: the sweeper ends it charged its estimate, nobody calls again, and its late result writes nothing", async () => {
    const { space, connection } = await compatibleSpace();
    const [stalled, other] = [await liveWorker(), await liveWorker()];
    server.enqueue({ kind: "answer", answer: { content: JSON.stringify(SETUP_JSON), usage: { prompt_tokens: 300, completion_tokens: 1200 } } });
    const { suggestionId } = await requestSetupSuggestions({ workspaceId: space.workspaceId, userId: null, domain: "fenced.io", language: "en", connectionId: connection.id });
    const reserved = (await db().setupSuggestion.findUniqueOrThrow({ where: { id: suggestionId } })).reservedMicros;
    const calls = server.requests.length;

    const held = gateAt("setup:after-provider", (context) => context.suggestionId === suggestionId);
    const late = runSetupSuggestions(suggestionId, { workerId: stalled });
    await held.reached;
    // Its worker stops beating (frozen, cut off): its lease runs out and a sweeper takes over.
    await db().$executeRaw`UPDATE worker_heartbeats SET "leaseExpiresAt" = now() AT TIME ZONE 'UTC' - interval '1 second' WHERE "workerId" = ${stalled}`;
    await sweepDeadWorkers();

    const swept = await db().setupSuggestion.findUniqueOrThrow({ where: { id: suggestionId } });
    expect(swept).toMatchObject({ status: "failed", result: null });
    expect(swept.error).toMatch(/stopped/);
    const estimate = swept.costMicros!;
    expect(estimate).toBeGreaterThan(0n);
    expect(estimate).toBeLessThanOrEqual(reserved);
    expect(await budgetNow(space.workspaceId)).toMatchObject({ inFlight: 0n, charged: estimate });
    // The job run again (graphile-worker unlocked the dead worker's job) calls nothing.
    expect(await runSetupSuggestions(suggestionId, { workerId: other })).toBe("skipped");

    held.open();
    expect(await late, "the swept run's result").toBe("lost");
    const after = await db().setupSuggestion.findUniqueOrThrow({ where: { id: suggestionId } });
    expect(after).toMatchObject({ status: "failed", result: null, costMicros: estimate, error: swept.error });
    expect(server.requests.length, "provider calls").toBe(calls + 1);
    await expectSettled(space.workspaceId, connection.id, estimate);
  });

  it("a run its live worker no longer lists (given up) is ended by the sweeper, charged its estimate; a run it lists is left alone", async () => {
    const space = await newSpace({ prompts: 1 });
    const workerId = await liveWorker();
    const { suggestionId } = await requestSetupSuggestions({ workspaceId: space.workspaceId, userId: null, domain: "given-up.io", language: "en", connectionId: space.connections.ChatGPT! });
    const held = gateAt("setup:after-provider", (context) => context.suggestionId === suggestionId);
    const late = runSetupSuggestions(suggestionId, { workerId });
    await held.reached;
    const { runToken } = await db().setupSuggestion.findUniqueOrThrow({ where: { id: suggestionId } });
    // Its worker's heartbeat after the claim: listed, so still running.
    await db().$executeRaw`UPDATE worker_heartbeats SET "activeAsOf" = now() AT TIME ZONE 'UTC', "activeRunTokens" = ARRAY[${runToken}::uuid] WHERE "workerId" = ${workerId}`;
    expect((await sweepDeadWorkers()).setupEnded).toBe(0);
    // The next heartbeat no longer lists it: the worker gave the run up.
    await db().$executeRaw`UPDATE worker_heartbeats SET "activeAsOf" = now() AT TIME ZONE 'UTC', "activeRunTokens" = '{}' WHERE "workerId" = ${workerId}`;
    expect((await sweepDeadWorkers()).setupEnded).toBe(1);
    const swept = await db().setupSuggestion.findUniqueOrThrow({ where: { id: suggestionId } });
    expect(swept.status).toBe("failed");
    expect(await budgetNow(space.workspaceId)).toMatchObject({ inFlight: 0n, charged: swept.costMicros });
    held.open();
    expect(await late).toBe("lost");
    expect(await budgetNow(space.workspaceId)).toMatchObject({ inFlight: 0n, charged: swept.costMicros });
    await expectBudgetConsistent(space.workspaceId);
  });
});

describe("the wizard's call meets the kill switches and its reservation", () => {
  const changes: [string, (connectionId: string, workspaceId: string) => Promise<unknown>, RegExp][] = [
    ["the grant revoked", (connectionId, workspaceId) => revokeConnection(connectionId, workspaceId), /revoked/],
    ["the connection disabled", (connectionId) => db().providerConnection.update({ where: { id: connectionId }, data: { enabled: false } }), /disabled/],
    ["its model taken off the allowlist", (connectionId) => db().providerConnection.update({ where: { id: connectionId }, data: { models: ["another-model"] } }), /no longer allowed/],
  ];
  for (const [name, change, reason] of changes) {
    it(`${name} after the request: the run calls nothing, fails with the reason and gives the reservation back`, async () => {
      const { space, connection } = await compatibleSpace();
      const workerId = await liveWorker();
      const { suggestionId } = await requestSetupSuggestions({ workspaceId: space.workspaceId, userId: null, domain: "fenced.io", language: "en", connectionId: connection.id });
      const calls = server.requests.length;
      await change(connection.id, space.workspaceId);

      expect(await runSetupSuggestions(suggestionId, { workerId })).toBe("failed");
      expect(server.requests.length, "provider calls").toBe(calls);
      const row = await db().setupSuggestion.findUniqueOrThrow({ where: { id: suggestionId } });
      expect(row).toMatchObject({ status: "failed", costMicros: 0n, result: null });
      expect(row.error).toMatch(reason);
      await expectSettled(space.workspaceId, connection.id, 0n);
    });
  }

  it("a revoke held before its commit: the wizard's claim waits for it, then refuses; the provider hears nothing", async () => {
    const { space, connection } = await compatibleSpace();
    const workerId = await liveWorker();
    const { suggestionId } = await requestSetupSuggestions({ workspaceId: space.workspaceId, userId: null, domain: "fenced.io", language: "en", connectionId: connection.id });
    const calls = server.requests.length;
    const held = gateAt("access:before-commit");
    const revoke = revokeConnection(connection.id, space.workspaceId);
    await held.reached;

    let ran: string | null = null;
    const running = runSetupSuggestions(suggestionId, { workerId }).then((outcome) => (ran = outcome));
    // Its claim reads the access under the lock the revoke holds: it must wait, not run on the grant it still sees.
    await waitFor(async () => ran !== null || (await lockWaiters()) > 0, { what: "the wizard's claim to wait for the revoke or to finish", timeoutMs: 10_000, intervalMs: 10 });
    expect(ran, "the claim did not wait for the revoke").toBeNull();
    held.open();
    await revoke;

    expect(await running).toBe("failed");
    expect(server.requests.length, "provider calls").toBe(calls);
    const row = await db().setupSuggestion.findUniqueOrThrow({ where: { id: suggestionId } });
    expect(row).toMatchObject({ status: "failed", costMicros: 0n });
    expect(row.error).toMatch(/revoked/);
    expect(await budgetNow(space.workspaceId)).toMatchObject({ inFlight: 0n, charged: 0n });
    await expectBudgetConsistent(space.workspaceId);
  });

  /** The connection's prices times ten, saved as the Instance page saves them (updateConnection, under the access lock). */
  const tenfoldPrices = async (connectionId: string) =>
    updateConnection(connectionId, await connectionInputOf(connectionId, { inputPricePerMTokMicros: 10_000_000, outputPricePerMTokMicros: 20_000_000 }));
  const answered = () => server.enqueue({ kind: "answer", answer: { content: JSON.stringify(SETUP_JSON), usage: { prompt_tokens: 300, completion_tokens: 1200 } } });

  it("prices raised between the request and the run: the run reserves and is charged at the new prices, the old reservation given back", async () => {
    const { space, connection } = await compatibleSpace();
    const workerId = await liveWorker();
    answered();
    const { suggestionId } = await requestSetupSuggestions({ workspaceId: space.workspaceId, userId: null, domain: "fenced.io", language: "en", connectionId: connection.id });
    const requested = await db().setupSuggestion.findUniqueOrThrow({ where: { id: suggestionId } });
    await tenfoldPrices(connection.id);
    const edited = await db().providerConnection.findUniqueOrThrow({ where: { id: connection.id } });
    const worst = BigInt(worstCaseCost(setupPrompt(requested), "off", setupCallLimits(edited), edited));
    expect(worst).toBeGreaterThan(requested.reservedMicros);

    const held = gateAt("setup:after-provider", (context) => context.suggestionId === suggestionId);
    const running = runSetupSuggestions(suggestionId, { workerId });
    await held.reached;
    expect((await db().setupSuggestion.findUniqueOrThrow({ where: { id: suggestionId } })).reservedMicros, "reserved during the call").toBe(worst);
    expect((await budgetNow(space.workspaceId)).inFlight).toBe(worst);
    expect((await grantNow(space.workspaceId, connection.id)).inFlight).toBe(worst);
    held.open();
    expect(await running).toBe("succeeded");

    const cost = 300n * 10n + 1200n * 20n; // the new prices: 10 and 20 micro-dollars a token
    expect((await db().setupSuggestion.findUniqueOrThrow({ where: { id: suggestionId } })).costMicros).toBe(cost);
    await expectSettled(space.workspaceId, connection.id, cost);
  });

  it("prices raised after the run's claim committed: the call is made and charged with what the claim read", async () => {
    const { space, connection } = await compatibleSpace();
    const workerId = await liveWorker();
    answered();
    const { suggestionId } = await requestSetupSuggestions({ workspaceId: space.workspaceId, userId: null, domain: "fenced.io", language: "en", connectionId: connection.id });
    const reserved = (await db().setupSuggestion.findUniqueOrThrow({ where: { id: suggestionId } })).reservedMicros;

    const edits = actAt("setup:claimed", () => tenfoldPrices(connection.id));
    expect(await runSetupSuggestions(suggestionId, { workerId })).toBe("succeeded");
    expect(edits(), "the edit committed between the claim and the call").toBe(1);

    const cost = 300n * 1n + 1200n * 2n; // the prices the claim read
    const row = await db().setupSuggestion.findUniqueOrThrow({ where: { id: suggestionId } });
    expect(row).toMatchObject({ reservedMicros: reserved, costMicros: cost });
    expect(await budgetNow(space.workspaceId)).toMatchObject({ inFlight: 0n, charged: cost });
    expect(await grantNow(space.workspaceId, connection.id)).toEqual({ inFlight: 0n, charged: cost });
    await expectBudgetConsistent(space.workspaceId);
  });

  it("a claim whose reply was lost after its commit: the run goes on as claimed, or, when the connection was edited in between, calls nothing", async () => {
    for (const edited of [false, true]) {
      const { space, connection } = await compatibleSpace();
      const workerId = await liveWorker();
      if (!edited) answered();
      const { suggestionId } = await requestSetupSuggestions({ workspaceId: space.workspaceId, userId: null, domain: "fenced.io", language: "en", connectionId: connection.id });
      const reserved = (await db().setupSuggestion.findUniqueOrThrow({ where: { id: suggestionId } })).reservedMicros;
      const calls = server.requests.length;
      const lost = actAt("setup:claim-committed", async () => {
        if (edited) await tenfoldPrices(connection.id);
        throw new Error("Connection terminated unexpectedly");
      });

      const outcome = await runSetupSuggestions(suggestionId, { workerId });
      expect(lost()).toBe(1);
      const row = await db().setupSuggestion.findUniqueOrThrow({ where: { id: suggestionId } });
      if (edited) {
        expect(outcome).toBe("failed");
        expect(server.requests.length, "provider calls").toBe(calls);
        expect(row).toMatchObject({ status: "failed", costMicros: 0n, reservedMicros: reserved });
        expect(row.error).toMatch(/edited/);
        expect(await budgetNow(space.workspaceId)).toMatchObject({ inFlight: 0n, charged: 0n });
      } else {
        expect(outcome).toBe("succeeded");
        expect(server.requests.length, "provider calls").toBe(calls + 1);
        expect(await budgetNow(space.workspaceId)).toMatchObject({ inFlight: 0n, charged: 300n * 1n + 1200n * 2n });
      }
      await expectNothingNegative(space.workspaceId);
      await expectBudgetConsistent(space.workspaceId);
    }
  });

  it("prices raised past what the budget has left: the run calls nothing and fails with the shortfall, nothing held", async () => {
    const { space, connection } = await compatibleSpace();
    const workerId = await liveWorker();
    const { suggestionId } = await requestSetupSuggestions({ workspaceId: space.workspaceId, userId: null, domain: "fenced.io", language: "en", connectionId: connection.id });
    const reserved = (await db().setupSuggestion.findUniqueOrThrow({ where: { id: suggestionId } })).reservedMicros;
    await db().workspace.update({ where: { id: space.workspaceId }, data: { monthlyBudgetMicros: reserved * 2n } });
    await tenfoldPrices(connection.id);
    const calls = server.requests.length;

    expect(await runSetupSuggestions(suggestionId, { workerId })).toBe("failed");
    expect(server.requests.length, "provider calls").toBe(calls);
    const row = await db().setupSuggestion.findUniqueOrThrow({ where: { id: suggestionId } });
    expect(row).toMatchObject({ status: "failed", costMicros: 0n, reservedMicros: reserved });
    expect(row.error).toMatch(/edited after you asked.*over this month's budget/);
    await expectSettled(space.workspaceId, connection.id, 0n);
  });

  it("is charged at most what it reserved, even when the operator raised the prices during the call", async () => {
    const { space, connection } = await compatibleSpace();
    const workerId = await liveWorker();
    server.enqueue({ kind: "answer", answer: { content: JSON.stringify(SETUP_JSON), usage: { prompt_tokens: 300, completion_tokens: 1200 } } });
    const { suggestionId } = await requestSetupSuggestions({ workspaceId: space.workspaceId, userId: null, domain: "fenced.io", language: "en", connectionId: connection.id });
    const reserved = (await db().setupSuggestion.findUniqueOrThrow({ where: { id: suggestionId } })).reservedMicros;

    const held = gateAt("setup:after-provider", (context) => context.suggestionId === suggestionId);
    const late = runSetupSuggestions(suggestionId, { workerId });
    await held.reached;
    // Prices up a hundredfold while the call runs; then its worker is swept: the estimate uses today's prices.
    await db().providerConnection.update({ where: { id: connection.id }, data: { inputPricePerMTokMicros: 100_000_000, outputPricePerMTokMicros: 200_000_000 } });
    await db().$executeRaw`UPDATE worker_heartbeats SET "leaseExpiresAt" = now() AT TIME ZONE 'UTC' - interval '1 second' WHERE "workerId" = ${workerId}`;
    await sweepDeadWorkers();
    held.open();
    expect(await late).toBe("lost");

    const row = await db().setupSuggestion.findUniqueOrThrow({ where: { id: suggestionId } });
    expect(row.costMicros).toBe(reserved);
    expect(await budgetNow(space.workspaceId)).toMatchObject({ inFlight: 0n, charged: reserved });
    expect(await grantNow(space.workspaceId, connection.id)).toEqual({ inFlight: 0n, charged: reserved });
    await expectNothingNegative(space.workspaceId);
    await expectBudgetConsistent(space.workspaceId);
  });
});

describe("the requester's role, read again as the call is reserved", () => {
  it.each(ROLE_LOSSES)("a requester %s after the action's check gets no paid call: nothing stored, nothing reserved", async (_, change) => {
    const space = await newSpace({ prompts: 1 });
    const before = await budgetNow(space.workspaceId);
    // The action read the role (an owner's); the change lands before the request's transaction.
    const ownerId = space.owner.userId!;
    await change(space.workspaceId, ownerId);
    await expect(
      requestSetupSuggestions({ workspaceId: space.workspaceId, userId: ownerId, domain: "demoted.io", language: "en", connectionId: space.connections.ChatGPT! }),
    ).rejects.toMatchObject({ code: "forbidden" });
    expect(await db().setupSuggestion.count({ where: { workspaceId: space.workspaceId } })).toBe(0);
    expect(await budgetNow(space.workspaceId)).toEqual(before);
  });
});
