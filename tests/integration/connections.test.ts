// Provider connections belong to the instance (issue 9 item 1): a workspace uses only the
// connections granted to it, with a model from the allowlist; a grant's monthly limit is a hard
// cap like the budget; the concurrency cap and the breaker count across every workspace on the
// connection. Real database, the lifecycle driven in this process.
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { acrossMigration } from "../support/partial-migrations";
import { budgetNow, claim, claimed, expectBudgetConsistent, liveWorker, newSpace, startSpaceCheck, succeed, type Space } from "../support/lifecycle-fixtures";
import { acquirePermission, recordCall } from "@/lib/breaker/breaker";
import { grantConnection, grantedConnections, revokeConnection } from "@/lib/connections/connections";
import { db } from "@/lib/db/prisma";
import { NotFoundError, UserError } from "@/lib/errors";
import { createProviderConfig, listProviderConfigs } from "@/lib/workspaces/provider-configs";

let a: Space;
let b: Space;
let workerId: string;
let openai: { id: string; models: string[] };

beforeAll(async () => {
  a = await newSpace();
  b = await newSpace();
  workerId = await liveWorker();
  openai = await db().providerConnection.findUniqueOrThrow({ where: { name: "OpenAI" }, select: { id: true, models: true } });
});

/** Points B's "ChatGPT" at A's connection (granted to both): one connection, two workspaces. */
async function shareChatGPT(changes: { maxConcurrency?: number } = {}) {
  const connectionId = a.connections.ChatGPT!;
  await db().connectionGrant.upsert({ where: { connectionId_workspaceId: { connectionId, workspaceId: b.workspaceId } }, create: { connectionId, workspaceId: b.workspaceId }, update: {} });
  await db().providerConnection.update({ where: { id: connectionId }, data: changes });
  await db().providerConfig.update({ where: { id: b.providers.ChatGPT! }, data: { connectionId } });
  return connectionId;
}

describe("what a workspace may use", () => {
  it("sees the simulators and its own grants only, never a real connection it was not granted", async () => {
    const names = (await grantedConnections(a.workspaceId)).map((c) => c.name);
    expect(names).toEqual(expect.arrayContaining(["Simulated ChatGPT", "Simulated Claude"]));
    expect(names).not.toContain("OpenAI");
    await expect(createProviderConfig(a.workspaceId, { name: "Sneaky", connectionId: openai.id, model: openai.models[0]!, searchMode: "auto", enabled: true })).rejects.toThrow(NotFoundError);
    expect(await db().providerConfig.count({ where: { workspaceId: a.workspaceId, name: "Sneaky" } })).toBe(0);
  });

  it("once granted, may pick only a model of the allowlist; revoked, its provider is disabled and no check can use it", async () => {
    await grantConnection({ connectionId: openai.id, workspaceId: a.workspaceId, monthlySpendLimitMicros: null }, null);
    await expect(createProviderConfig(a.workspaceId, { name: "Pro", connectionId: openai.id, model: "o1-pro", searchMode: "auto", enabled: true })).rejects.toThrow(/does not offer the model/);
    const { id } = await createProviderConfig(a.workspaceId, { name: "Granted", connectionId: openai.id, model: openai.models[0]!, searchMode: "auto", enabled: true });
    await revokeConnection(openai.id, a.workspaceId);
    expect(await db().providerConfig.findUniqueOrThrow({ where: { id } })).toMatchObject({ enabled: false });
    // Even turned back on by hand, a check refuses a provider whose connection is not granted.
    await db().providerConfig.update({ where: { id }, data: { enabled: true } });
    await expect(startSpaceCheck(a, { providers: ["Granted"] })).rejects.toThrow(UserError);
  });

  it("lists a provider as usable by the claim's own rule: a model off the allowlist is not granted, with the claim's reason", async () => {
    const space = await newSpace();
    const connectionId = space.connections.ChatGPT!;
    const { models } = await db().providerConnection.findUniqueOrThrow({ where: { id: connectionId } });
    const listed = async () => (await listProviderConfigs(space.workspaceId)).find((p) => p.id === space.providers.ChatGPT)!;
    expect(await listed()).toMatchObject({ granted: true, accessRefusal: null });
    // Its model taken off the allowlist, the provider still on (the operator's edit also switches it off; the rule does not rely on that).
    await db().providerConnection.update({ where: { id: connectionId }, data: { models: [...models.filter((m) => m !== models[0]), "another-model"] } });
    expect(await listed()).toMatchObject({ enabled: true, granted: false, accessRefusal: expect.stringMatching(/no longer allowed/) });
    await expect(startSpaceCheck(space, { providers: ["ChatGPT"] })).rejects.toThrow(UserError);
  });
});

describe("a grant's monthly limit", () => {
  it("is a hard cap: a call that does not fit waits for budget; a raised limit wakes it", async () => {
    const space = await newSpace();
    const connectionId = space.connections.ChatGPT!;
    await db().connectionGrant.update({ where: { connectionId_workspaceId: { connectionId, workspaceId: space.workspaceId } }, data: { monthlySpendLimitMicros: 1_000 } });
    const { captureIds } = await startSpaceCheck(space);
    const { result } = await claim(captureIds[0]!, workerId);
    expect(result.kind).toBe("waiting_for_budget");
    expect(await db().capture.findUniqueOrThrow({ where: { id: captureIds[0] } })).toMatchObject({ status: "postponed", waitingFor: "budget" });
    expect((await budgetNow(space.workspaceId)).inFlight, "the workspace budget's reservation was taken back").toBe(0n);

    await grantConnection({ connectionId, workspaceId: space.workspaceId, monthlySpendLimitMicros: 10_000_000 }, null);
    const [{ due }] = (await db().$queryRaw<{ due: number }[]>`SELECT count(*)::int AS due FROM graphile_worker.jobs WHERE key = ${`capture:${captureIds[0]}`} AND run_at <= now()`) as [{ due: number }];
    expect(due).toBe(1);
    const runToken = await claimed(captureIds[0]!, workerId);
    await succeed(captureIds[0]!, runToken, 700);
    const [spend] = await db().$queryRaw<{ inFlight: bigint; charged: bigint }[]>`
      SELECT sum("inFlightMicros")::bigint AS "inFlight", sum("chargedMicros")::bigint AS charged FROM grant_spend_periods
      WHERE "connectionId" = ${connectionId}::uuid AND "workspaceId" = ${space.workspaceId}::uuid`;
    expect(spend).toEqual({ inFlight: 0n, charged: 700n });
    await expectBudgetConsistent(space.workspaceId);
  });
});

describe("counted per connection across workspaces", () => {
  it("the concurrency cap: two workspaces on a connection of cap 1 never run two calls at once", async () => {
    const connectionId = await shareChatGPT({ maxConcurrency: 1 });
    const [first, second] = [await startSpaceCheck(a), await startSpaceCheck(b)];
    const results = await Promise.all([claim(first.captureIds[0]!, workerId), claim(second.captureIds[0]!, workerId)]);
    expect(results.map((r) => r.result.kind).sort()).toEqual(["busy", "claimed"]);
    expect(await db().capture.count({ where: { connectionId, status: "running" } })).toBe(1);
    const winner = results.find((r) => r.result.kind === "claimed")!;
    const winnerCapture = [first.captureIds[0]!, second.captureIds[0]!][results.indexOf(winner)]!;
    await succeed(winnerCapture, winner.runToken);
  });

  it("the breaker: failures in one workspace open it for every workspace on the connection and model", async () => {
    const connectionId = await shareChatGPT();
    const model = (await db().providerConfig.findUniqueOrThrow({ where: { id: a.providers.ChatGPT! } })).model;
    const connection = await db().providerConnection.findUniqueOrThrow({ where: { id: connectionId } });
    const key = { ...connection, connectionId, model };
    for (let i = 0; i < connection.breakerMinCalls; i++) await recordCall(key, "failure", 10, null);
    expect((await acquirePermission(key)).allowed, "open for A's captures").toBe(false);
    const { captureIds } = await startSpaceCheck(b);
    const { result } = await claim(captureIds[0]!, workerId, randomUUID());
    expect(result.kind, "and for B's").toBe("breaker_open");
  });
});

describe("the provider_connections migration", () => {
  it("turns each kind of configuration into one connection, grants real ones only where they were called, and keeps every capture on its connection", async () => {
    await acrossMigration(
      "20261130140000_provider_connections",
      async (sql) => {
        await sql(`INSERT INTO users (id, name, email) VALUES ('u', 'U', 'u@example.com')`);
        const workspace = async (slug: string) => (await sql(`INSERT INTO workspaces (slug, name) VALUES ($1, $1) RETURNING id`, [slug])).rows[0].id as string;
        const [used, unused] = [await workspace("used"), await workspace("unused")];
        const config = async (ws: string, name: string, adapter: string, model: string, style?: string, cap = 4) =>
          (
            await sql(
              `INSERT INTO provider_configs ("workspaceId", name, adapter, model, "maxConcurrency", settings, "inputPricePerMTokMicros")
               VALUES ($1, $2, $3, $4, $5, $6::jsonb, 777) RETURNING id`,
              [ws, name, adapter, model, cap, JSON.stringify(style ? { style } : {})],
            )
          ).rows[0].id as string;
        const usedOpenAI = await config(used, "OpenAI API", "openai", "gpt-5-mini", undefined, 7);
        const unusedOpenAI = await config(unused, "OpenAI API", "openai", "gpt-5");
        const simulated = await config(used, "ChatGPT", "simulator", "gpt-5-mini", "chatgpt");
        await config(unused, "Claude", "simulator", "claude-haiku-4-5", "claude");
        const { rows: [brand] } = await sql(`INSERT INTO brands ("workspaceId", name) VALUES ($1, 'B') RETURNING id`, [used]);
        const { rows: [prompt] } = await sql(`INSERT INTO prompts ("workspaceId", text) VALUES ($1, 'Which CRM?') RETURNING id`, [used]);
        const { rows: [check] } = await sql(`INSERT INTO checks ("workspaceId", "brandId", "totalCaptures", "updatedAt") VALUES ($1, $2, 2, now()) RETURNING id`, [used, brand.id]);
        for (const providerId of [usedOpenAI, simulated]) {
          await sql(
            `INSERT INTO captures ("workspaceId", "checkId", "brandId", "promptId", "providerConfigId", sample, "maxAttempts", model, "searchMode", "updatedAt")
             VALUES ($1, $2, $3, $4, $5, 1, 3, 'm', 'auto', now())`,
            [used, check.id, brand.id, prompt.id, providerId],
          );
        }
        return { used, usedOpenAI, unusedOpenAI };
      },
      async (sql, { used, usedOpenAI, unusedOpenAI }) => {
        const { rows: connections } = await sql(`SELECT name, adapter::text, models, "maxConcurrency", "inputPricePerMTokMicros", "grantedToAll" FROM provider_connections ORDER BY name`);
        expect(connections.find((c) => c.name === "OpenAI")).toMatchObject({ adapter: "openai", models: ["gpt-5", "gpt-5-mini"], grantedToAll: false, inputPricePerMTokMicros: 777 });
        expect(connections.find((c) => c.name === "Simulated ChatGPT")).toMatchObject({ adapter: "simulator", grantedToAll: true });
        expect(connections.find((c) => c.name === "Simulated Claude")).toMatchObject({ adapter: "simulator", grantedToAll: true });
        const { rows: grants } = await sql(`SELECT g."workspaceId" FROM connection_grants g JOIN provider_connections c ON c.id = g."connectionId" WHERE c.name = 'OpenAI'`);
        expect(grants.map((g) => g.workspaceId), "only the workspace that called OpenAI keeps it").toEqual([used]);
        const { rows: providers } = await sql(`SELECT id, enabled FROM provider_configs`);
        expect(providers.find((p) => p.id === unusedOpenAI)?.enabled, "a workspace that never called it loses it").toBe(false);
        expect(providers.find((p) => p.id === usedOpenAI)?.enabled).toBe(true);
        const { rows: orphans } = await sql(`SELECT count(*)::int AS n FROM captures c JOIN provider_configs p ON p.id = c."providerConfigId" WHERE c."connectionId" IS DISTINCT FROM p."connectionId"`);
        expect(orphans[0].n).toBe(0);
      },
    );
  });
});
