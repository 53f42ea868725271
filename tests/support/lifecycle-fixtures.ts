// Workspaces of their own (own budget, own providers) and the lifecycle driven from the test
// process, one transition at a time, for tests that put two sides of a race at a chosen moment.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, expect } from "vitest";
import { startFakeOpenAI, type FakeServer, type OpenAIScenario } from "./fake-providers/openai-server";
import { worstCaseCost } from "@/lib/billing/money";
import { claimCapture, connectionVersion, type ClaimResult } from "@/lib/lifecycle/claim";
import { succeedCapture, type Success } from "@/lib/lifecycle/results";
import { runCapture, type RunOutcome } from "@/lib/lifecycle/run/run-capture";
import type { Caller } from "@/lib/checks/cancel-retry";
import { createCheck } from "@/lib/checks/create-check";
import { hashRequest } from "@/lib/idempotency";
import { db } from "@/lib/db/prisma";
import { inTransaction } from "@/lib/db/transaction";
import { syncCheck } from "@/lib/lifecycle/transition";
import { beat } from "@/lib/jobs/heartbeats";
import { DEFAULT_CONNECTIONS } from "@/lib/providers/defaults";
import { connectionInputSchema } from "@/lib/providers/registry";
import type { ConnectionInput } from "@/lib/providers/schemas";
import { createWorkspace } from "@/lib/workspaces/workspaces";

export type Space = {
  workspaceId: string;
  owner: Caller;
  promptIds: string[];
  /** Provider ids by name: the four simulated assistants and "OpenAI API". */
  providers: Record<string, string>;
  /** The connection of each provider, by provider name: the space's own (granted to it alone). */
  connections: Record<string, string>;
};

/**
 * A fresh workspace with a brand, `prompts` prompts and providers on connections of its own
 * (copies of the default ones, granted to it alone, so that what a test changes on them and the
 * captures it leaves running touch no other test): the four simulated assistants, answering at
 * once and never failing, and "OpenAI API".
 */
export async function newSpace(options: { prompts?: number; budgetMicros?: number | null } = {}): Promise<Space> {
  const user = await db().user.create({ data: { id: randomUUID(), name: "Lifecycle owner", email: `owner.${randomUUID().slice(0, 8)}@example.com` } });
  const workspace = await createWorkspace(user.id, `Lifecycle ${randomUUID().slice(0, 6)}`);
  await db().workspace.update({ where: { id: workspace.id }, data: { monthlyBudgetMicros: options.budgetMicros ?? null } });
  await db().brand.create({ data: { workspaceId: workspace.id, name: "Acme", domains: ["acme.example"] } });
  const prompts = await Promise.all(
    Array.from({ length: options.prompts ?? 3 }, (_, i) => db().prompt.create({ data: { workspaceId: workspace.id, text: `Which CRM is best for team ${i + 1}?` } })),
  );
  await db().providerConfig.deleteMany({ where: { workspaceId: workspace.id } });
  const providers: Record<string, string> = {};
  const connections: Record<string, string> = {};
  for (const d of DEFAULT_CONNECTIONS.filter((c) => c.adapter === "simulator" || c.adapter === "openai")) {
    const connection = await db().providerConnection.create({
      data: {
        name: `${d.name} ${randomUUID().slice(0, 8)}`,
        adapter: d.adapter,
        models: d.models,
        inputPricePerMTokMicros: d.prices.input,
        outputPricePerMTokMicros: d.prices.output,
        cachedPricePerMTokMicros: d.prices.cached,
        reasoningPricePerMTokMicros: d.prices.reasoning,
        searchPriceMicros: d.prices.search,
        settings: d.adapter === "simulator" ? { ...d.settings, latencyMinMs: 0, latencyMaxMs: 0, errorRate: 0 } : {},
        grants: { create: { workspaceId: workspace.id } },
      },
    });
    const provider = await db().providerConfig.create({ data: { workspaceId: workspace.id, name: d.providerName, connectionId: connection.id, model: d.models[0]!, searchMode: d.searchMode } });
    providers[d.providerName] = provider.id;
    connections[d.providerName] = connection.id;
  }
  return {
    workspaceId: workspace.id,
    owner: { workspaceId: workspace.id, userId: user.id, role: "owner" },
    promptIds: prompts.map((p) => p.id),
    providers,
    connections,
  };
}

/**
 * The analytics property tests' space: three prompts tagged "buying", "pricing" and "buying" +
 * "smb" (two tags on one prompt), in the markets DE:de, US:en and none, and three providers with
 * their connections, in that order.
 */
export async function taggedSpace(): Promise<{ space: Space; providerIds: string[]; connectionIds: string[] }> {
  const space = await newSpace({ prompts: 3 });
  const tags = [["buying"], ["pricing"], ["buying", "smb"]];
  const markets = [{ country: "DE", language: "de" }, { country: "US", language: "en" }, { country: null, language: null }];
  for (const [i, id] of space.promptIds.entries()) await db().prompt.update({ where: { id }, data: { tags: tags[i], ...markets[i] } });
  const names = ["ChatGPT", "Perplexity", "Gemini"];
  return { space, providerIds: names.map((n) => space.providers[n]!), connectionIds: names.map((n) => space.connections[n]!) };
}

/** Starts a check of `prompts` prompts x the named providers, as the form would. */
export async function startSpaceCheck(space: Space, options: { prompts?: number; providers?: string[]; samples?: number } = {}) {
  const body = {
    prompts: { mode: "picked" as const, promptIds: space.promptIds.slice(0, options.prompts ?? 1) },
    providers: { names: options.providers ?? ["ChatGPT"] },
    samples: options.samples ?? 1,
  };
  const { checkId } = await createCheck({ workspaceId: space.workspaceId, idempotencyKey: randomUUID(), requestHash: hashRequest(body), startedById: space.owner.userId, ...body });
  const captures = await db().capture.findMany({ where: { checkId }, orderBy: { id: "asc" }, select: { id: true } });
  return { checkId, captureIds: captures.map((c) => c.id) };
}

/** A worker identity with a live heartbeat row (what tasks wait for before they claim). */
export async function liveWorker(leaseSeconds = 600): Promise<string> {
  const workerId = `test-worker-${randomUUID().slice(0, 8)}`;
  await beat({ workerId, slotIds: [], hostname: "test-host", pid: 1, concurrency: 4 }, "running", leaseSeconds);
  return workerId;
}

/** The claim a worker makes, with the capture's own worst case; returns the run token. */
export async function claim(captureId: string, workerId: string, runToken = randomUUID()): Promise<{ runToken: string; result: ClaimResult }> {
  const capture = await db().capture.findUniqueOrThrow({ where: { id: captureId }, include: { connection: true, promptVersion: true } });
  const config = capture.connection;
  const result = await claimCapture({
    captureId,
    connection: { ...config, connectionId: config.id, model: capture.model, version: connectionVersion(config) },
    workerId,
    runToken,
    probeToken: null,
    worstCaseMicros: worstCaseCost(capture.promptVersion.text, capture.searchMode, { maxOutputTokens: config.maxOutputTokens, maxSearchCalls: config.maxSearchCalls }, config),
  });
  return { runToken, result };
}

export async function claimed(captureId: string, workerId: string): Promise<string> {
  const { runToken, result } = await claim(captureId, workerId);
  expect(result.kind, `claim of ${captureId}`).toBe("claimed");
  return runToken;
}

/** A successful answer costing `costMicros` (usage made up to match nothing in particular). */
export function answer(costMicros: number, text = "Acme is a fine CRM."): Success {
  return {
    text,
    usage: { inputTokens: 100, outputTokens: 50, reasoningTokens: 0, cachedTokens: 0, searchCalls: 0 },
    requestId: `req_${randomUUID().slice(0, 8)}`,
    costMicros,
    latencyMs: 10,
    citations: [],
    mentions: [],
    candidates: [],
    searchQueries: [],
    analysisTruncated: false,
    // The brand's first version: newSpace's brand is never edited by these tests.
    analysisVersion: 1,
  };
}

export const succeed = (captureId: string, runToken: string, costMicros = 1_000) => succeedCapture(captureId, runToken, answer(costMicros));

/** This month's budget of the workspace (database clock), summed over its ledger shards. */
export async function budgetNow(workspaceId: string) {
  const [row] = await db().$queryRaw<{ reserved: bigint | null; inFlight: bigint | null; charged: bigint | null }[]>`
    SELECT sum("reservedMicros")::bigint AS reserved, sum("inFlightMicros")::bigint AS "inFlight", sum("chargedMicros")::bigint AS charged FROM budget_periods
    WHERE "workspaceId" = ${workspaceId}::uuid AND "periodStart" = date_trunc('month', now() AT TIME ZONE 'UTC')::date`;
  return { reserved: row?.reserved ?? 0n, inFlight: row?.inFlight ?? 0n, charged: row?.charged ?? 0n };
}

export const captureRow = (id: string) => db().capture.findUniqueOrThrow({ where: { id }, include: { attempts: { orderBy: { number: "asc" } } } });

/** The graphile-worker job of a capture, if any. */
export async function jobOf(captureId: string) {
  const [job] = await db().$queryRaw<{ id: bigint; run_at: Date; locked_at: Date | null; attempts: number; revision: number }[]>`
    SELECT id, run_at, locked_at, attempts, revision FROM graphile_worker.jobs WHERE key = ${`capture:${captureId}`}`;
  return job ?? null;
}

/**
 * The money invariants of a workspace, checked against the rows behind them: every month's holds
 * equal the captures', its in-flight sums every reservation not yet settled (the view
 * beacon_in_flight: open attempts and the setup wizard's unsettled calls), charged what its
 * attempts and its finished setup calls cost.
 */
export async function expectBudgetConsistent(workspaceId: string) {
  const periods = await db().$queryRaw<{ period: Date; reserved: bigint; inFlight: bigint; charged: bigint; holds: bigint; open: bigint; costs: bigint }[]>`
    SELECT b."periodStart" AS period, b."reservedMicros" AS reserved, b."inFlightMicros" AS "inFlight", b."chargedMicros" AS charged,
           (SELECT coalesce(sum("reservedMicros"), 0)::bigint FROM captures c WHERE c."workspaceId" = b."workspaceId" AND c."reservedPeriod" = b."periodStart") AS holds,
           (SELECT coalesce(sum(micros), 0)::bigint FROM beacon_in_flight f WHERE f."workspaceId" = b."workspaceId" AND f."periodStart" = b."periodStart") AS open,
           (SELECT coalesce(sum("costMicros"), 0)::bigint FROM attempts a WHERE a."workspaceId" = b."workspaceId" AND a."budgetPeriod" = b."periodStart" AND a.outcome IS NOT NULL)
           + (SELECT coalesce(sum("costMicros"), 0)::bigint FROM setup_suggestions s
              WHERE s."workspaceId" = b."workspaceId" AND s."budgetPeriod" = b."periodStart" AND s.status IN ('succeeded', 'failed')) AS costs
    FROM (SELECT "workspaceId", "periodStart", sum("reservedMicros")::bigint AS "reservedMicros", sum("inFlightMicros")::bigint AS "inFlightMicros",
                 sum("chargedMicros")::bigint AS "chargedMicros"
          FROM budget_periods WHERE "workspaceId" = ${workspaceId}::uuid GROUP BY 1, 2) b`;
  for (const p of periods) {
    const label = `budget of ${p.period.toISOString().slice(0, 7)}`;
    expect(p.reserved, `${label}: holds`).toBe(p.holds);
    expect(p.inFlight, `${label}: in flight`).toBe(p.open);
    expect(p.charged, `${label}: charged = what its attempts cost`).toBe(p.costs);
  }
  const grants = await db().$queryRaw<{ connectionId: string; period: Date; inFlight: bigint; charged: bigint; open: bigint; costs: bigint }[]>`
    SELECT g."connectionId", g."periodStart" AS period, g."inFlightMicros" AS "inFlight", g."chargedMicros" AS charged,
           (SELECT coalesce(sum(f.micros), 0)::bigint FROM beacon_in_flight f
            WHERE f."workspaceId" = g."workspaceId" AND f."connectionId" = g."connectionId" AND f."periodStart" = g."periodStart") AS open,
           (SELECT coalesce(sum(a."costMicros"), 0)::bigint FROM attempts a JOIN captures c ON c.id = a."captureId"
            WHERE a."workspaceId" = g."workspaceId" AND c."connectionId" = g."connectionId" AND a."budgetPeriod" = g."periodStart" AND a.outcome IS NOT NULL)
           + (SELECT coalesce(sum(s."costMicros"), 0)::bigint FROM setup_suggestions s
              WHERE s."workspaceId" = g."workspaceId" AND s."connectionId" = g."connectionId" AND s."budgetPeriod" = g."periodStart" AND s.status IN ('succeeded', 'failed')) AS costs
    FROM (SELECT "connectionId", "workspaceId", "periodStart", sum("inFlightMicros")::bigint AS "inFlightMicros", sum("chargedMicros")::bigint AS "chargedMicros"
          FROM grant_spend_periods WHERE "workspaceId" = ${workspaceId}::uuid GROUP BY 1, 2, 3) g`;
  for (const g of grants) {
    const label = `spend on connection ${g.connectionId} in ${g.period.toISOString().slice(0, 7)}`;
    expect(g.inFlight, `${label}: in flight`).toBe(g.open);
    expect(g.charged, `${label}: charged`).toBe(g.costs);
  }
  // A check finishes once none of its captures is unfinished (and only then), charged what its
  // attempts cost; a finished check holds nothing.
  const checks = await db().$queryRaw<{ id: string; finished: boolean; charged: bigint; holds: bigint; costs: bigint; unfinished: number }[]>`
    SELECT ch.id, ch."finishedAt" IS NOT NULL AS finished, ch."chargedMicros" AS charged,
           (SELECT coalesce(sum("reservedMicros"), 0)::bigint FROM captures c WHERE c."checkId" = ch.id) AS holds,
           (SELECT coalesce(sum(a."costMicros"), 0)::bigint FROM attempts a JOIN captures c ON c.id = a."captureId" WHERE c."checkId" = ch.id AND a.outcome IS NOT NULL) AS costs,
           (SELECT count(*)::int FROM captures c WHERE c."checkId" = ch.id AND c.status IN ('queued', 'retry_wait', 'postponed', 'running')) AS unfinished
    FROM checks ch WHERE ch."workspaceId" = ${workspaceId}::uuid`;
  for (const c of checks) {
    expect(c.finished, `check ${c.id}: finished exactly when no capture is unfinished`).toBe(c.unfinished === 0);
    if (!c.finished) continue;
    expect(c.holds, `check ${c.id}: holds`).toBe(0n);
    expect(c.charged, `check ${c.id}: charged`).toBe(c.costs);
  }
}

/** Repairs recorded in the workspace (the repair pass and abandoned runs). */
export async function repairsIn(workspaceId: string) {
  const events = await db().event.findMany({ where: { workspaceId, kind: "lifecycle_repaired" } });
  return events.map((e) => (e.data as { kind: string }).kind);
}

/** The brand of a chaos space and the competitor pool its answers name (tests/support/fake-providers/chaos-provider.ts). */
export const CHAOS_BRAND = { name: "Acme", alias: "Acme One", domains: ["acme.example"] };
export const CHAOS_COMPETITORS = [
  { name: "Globex", aliases: ["Globex Corp"] },
  { name: "Initech", aliases: ["Initrode"] },
  { name: "Umbrella", aliases: [] },
  { name: "Hooli", aliases: [] },
  { name: "Vandelay", aliases: [] },
];
/** The models of a chaos space's connections: the providers use the first; the allowlist may lose it. */
export const CHAOS_MODELS = ["chaos-a", "chaos-b"];

export type HttpSpace = Space & {
  brandId: string;
  /** The connection tag of each provider name (its base URL's /c/<tag>), and back. */
  tags: Record<string, string>;
  /** Prompt texts by prompt id (each capture of a check is one prompt x one connection). */
  promptTexts: Record<string, string>;
};

/**
 * A fresh workspace whose four assistants call a local OpenAI-compatible server through
 * connections of its own (granted to it alone, models CHAOS_MODELS, the providers on the first),
 * a brand "Acme" with the alias "Acme One" tracking the first two competitors of the pool (with
 * their aliases), and `prompts` prompts whose texts
 * are unique to it (so a request's prompt and connection name its capture).
 */
export async function newHttpSpace(options: { prompts: number; baseUrl: (tag: string) => string; providers: readonly string[] }): Promise<HttpSpace> {
  const user = await db().user.create({ data: { id: randomUUID(), name: "Chaos owner", email: `owner.${randomUUID().slice(0, 8)}@example.com` } });
  const workspace = await createWorkspace(user.id, `Chaos ${randomUUID().slice(0, 6)}`);
  const brand = await db().brand.create({
    data: {
      workspaceId: workspace.id,
      name: CHAOS_BRAND.name,
      aliases: [CHAOS_BRAND.alias],
      domains: CHAOS_BRAND.domains,
      competitors: { create: CHAOS_COMPETITORS.slice(0, 2).map((c) => ({ workspaceId: workspace.id, name: c.name, aliases: c.aliases })) },
    },
  });
  const prompts = await Promise.all(
    Array.from({ length: options.prompts }, (_, i) => db().prompt.create({ data: { workspaceId: workspace.id, text: `Which CRM is best for team ${i + 1} of ${workspace.id.slice(0, 8)}?` } })),
  );
  await db().providerConfig.deleteMany({ where: { workspaceId: workspace.id } });
  const providers: Record<string, string> = {};
  const connections: Record<string, string> = {};
  const tags: Record<string, string> = {};
  for (const name of options.providers) {
    const tag = randomUUID().slice(0, 12);
    const connection = await db().providerConnection.create({
      data: {
        name: `${name} ${tag}`,
        adapter: "openai_compatible",
        models: CHAOS_MODELS,
        inputPricePerMTokMicros: 1_000_000,
        outputPricePerMTokMicros: 4_000_000,
        cachedPricePerMTokMicros: 100_000,
        reasoningPricePerMTokMicros: 4_000_000,
        searchPriceMicros: 0,
        maxOutputTokens: 512,
        settings: { baseURL: options.baseUrl(tag) },
        grants: { create: { workspaceId: workspace.id } },
      },
    });
    const provider = await db().providerConfig.create({ data: { workspaceId: workspace.id, name, connectionId: connection.id, model: CHAOS_MODELS[0]!, searchMode: "off" } });
    providers[name] = provider.id;
    connections[name] = connection.id;
    tags[name] = tag;
  }
  return {
    workspaceId: workspace.id,
    owner: { workspaceId: workspace.id, userId: user.id, role: "owner" },
    promptIds: prompts.map((p) => p.id),
    promptTexts: Object.fromEntries(prompts.map((p) => [p.id, p.text])),
    providers,
    connections,
    tags,
    brandId: brand.id,
  };
}

/** Starts a check of the given prompts x providers (for the workspace's first brand, or `brandId`), as the form would. */
export async function startCheckOf(space: Space, promptIds: string[], providers: string[], brandId?: string) {
  const body = { brandId, prompts: { mode: "picked" as const, promptIds }, providers: { names: providers }, samples: 1 };
  const { checkId } = await createCheck({ workspaceId: space.workspaceId, idempotencyKey: randomUUID(), requestHash: hashRequest(body), startedById: space.owner.userId, ...body });
  const captures = await db().capture.findMany({ where: { checkId }, orderBy: { id: "asc" }, select: { id: true } });
  return { checkId, captureIds: captures.map((c) => c.id) };
}

/** A connection as the Instance page's edit form sends it back, with `changes` (for updateConnection). */
export async function connectionInputOf(connectionId: string, changes: Partial<ConnectionInput>) {
  const c = await db().providerConnection.findUniqueOrThrow({ where: { id: connectionId } });
  return connectionInputSchema.parse({
    name: c.name,
    adapter: c.adapter,
    models: c.models,
    enabled: c.enabled,
    grantedToAll: c.grantedToAll,
    inputPricePerMTokMicros: Number(c.inputPricePerMTokMicros),
    outputPricePerMTokMicros: Number(c.outputPricePerMTokMicros),
    cachedPricePerMTokMicros: Number(c.cachedPricePerMTokMicros),
    reasoningPricePerMTokMicros: Number(c.reasoningPricePerMTokMicros),
    searchPriceMicros: Number(c.searchPriceMicros),
    maxConcurrency: c.maxConcurrency,
    maxAttempts: c.maxAttempts,
    unknownRetries: c.unknownRetries,
    timeoutMs: c.timeoutMs,
    maxOutputTokens: c.maxOutputTokens,
    maxSearchCalls: c.maxSearchCalls,
    breakerWindowSize: c.breakerWindowSize,
    breakerMinCalls: c.breakerMinCalls,
    breakerFailureRatePct: c.breakerFailureRatePct,
    breakerOpenSeconds: c.breakerOpenSeconds,
    breakerSlowCallMs: c.breakerSlowCallMs,
    breakerSlowCallIsFailure: c.breakerSlowCallIsFailure,
    breakerProbeTimeoutMs: c.breakerProbeTimeoutMs,
    ...(c.adapter === "openai_compatible" ? { openaiCompatible: c.settings } : {}),
    ...changes,
  });
}

/** This month's spend of a workspace on each connection (summed over its shards), with the grant's limit ("revoked": no grant). */
export async function grantSpendNow(workspaceId: string) {
  const rows = await db().$queryRaw<{ connectionId: string; used: bigint; limit: bigint | null; granted: boolean }[]>`
    SELECT c.id AS "connectionId",
           coalesce((SELECT sum(g."chargedMicros" + g."inFlightMicros") FROM grant_spend_periods g
                     WHERE g."connectionId" = c.id AND g."workspaceId" = ${workspaceId}::uuid
                       AND g."periodStart" = date_trunc('month', now() AT TIME ZONE 'UTC')::date), 0)::bigint AS used,
           cg."monthlySpendLimitMicros" AS limit, cg."connectionId" IS NOT NULL AS granted
    FROM provider_connections c
    LEFT JOIN connection_grants cg ON cg."connectionId" = c.id AND cg."workspaceId" = ${workspaceId}::uuid
    WHERE c.id IN (SELECT "connectionId" FROM provider_configs WHERE "workspaceId" = ${workspaceId}::uuid)`;
  return new Map(rows.map((r) => [r.connectionId, r]));
}

export type InProcessRunner = { openai: FakeServer<OpenAIScenario>; workerId: string; run: (captureId: string) => Promise<RunOutcome> };

/**
 * A test file's in-process runner: the fake OpenAI server its spaces' ChatGPT connection calls
 * (OPENAI_BASE_URL) and this process registered as a live worker, for the file's tests; `run`
 * runs one capture as a worker would. Call it at the file's top level (it adds the hooks).
 */
export function inProcessRunner(options: { warn?: (line: string) => void } = {}): InProcessRunner {
  const shutdownSignal = new AbortController().signal;
  const runner = {
    run: (captureId: string) => runCapture(captureId, { workerId: runner.workerId, shutdownSignal, warn: options.warn }),
  } as InProcessRunner;
  beforeAll(async () => {
    runner.openai = await startFakeOpenAI();
    process.env.OPENAI_BASE_URL = runner.openai.url;
    runner.workerId = await liveWorker();
  });
  afterAll(async () => {
    await runner.openai?.close();
  });
  return runner;
}

/**
 * A check's finish (syncCheck) written and not committed, its row locked, until `release()`:
 * `status` is what it derived, `finishing` its transaction's end.
 */
export async function heldFinish(checkId: string) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let written!: (status: string) => void;
  const finishWritten = new Promise<string>((resolve) => (written = resolve));
  const finishing = inTransaction(async (tx) => {
    written(await syncCheck(tx, checkId));
    await released;
  });
  return { status: await finishWritten, release, finishing };
}
