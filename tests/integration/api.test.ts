// The REST API v1 as a script uses it: bearer API keys scoped to one workspace, check creation
// with an Idempotency-Key (DESIGN.md "Idempotency"), input refused with a 4xx that names the
// field and stores nothing, the monthly budget, the reads, and cancel and retry (DESIGN.md
// "Cancellation"). The route handlers are called with real Requests; no worker runs, so checks
// stay queued. Where a capture must be terminal in a way only a worker could make it, the test
// sets the row and drops its job the way a worker would.
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import {
  callRoute,
  captureJob,
  createTenant,
  expectApiError,
  graphileJobCount,
  removeCaptureJob,
  storedRows,
  type ApiResult,
  type Tenant,
} from "../support/api-fixtures";
import { budgetPeriod, checkRow, eventsOf, setUpDemo, type Demo } from "../support/check-fixtures";
import { POST as cancelCaptureRoute } from "@/app/api/v1/captures/[id]/cancel/route";
import { POST as retryCaptureRoute } from "@/app/api/v1/captures/[id]/retry/route";
import { GET as getCaptureRoute } from "@/app/api/v1/captures/[id]/route";
import { GET as listBrandsRoute } from "@/app/api/v1/brands/route";
import { POST as cancelCheckRoute } from "@/app/api/v1/checks/[id]/cancel/route";
import { GET as getCheckRoute } from "@/app/api/v1/checks/[id]/route";
import { GET as listChecksRoute, POST as createCheckRoute } from "@/app/api/v1/checks/route";
import { GET as openApiRoute } from "@/app/api/v1/openapi.json/route";
import { GET as listPromptsRoute } from "@/app/api/v1/prompts/route";
import { GET as listProvidersRoute } from "@/app/api/v1/providers/route";
import { GET as visitsRoute } from "@/app/api/v1/traffic/visits/route";
import { createApiKey, revokeApiKey } from "@/lib/api-keys/api-keys";
import { openApiDocument } from "@/lib/api/openapi";
import { formatMicros } from "@/lib/format";
import { estimateCheck } from "@/lib/checks/create-check";
import { db } from "@/lib/db/prisma";
import { DEMO_BRAND, DEMO_LOGIN, DEMO_PROMPTS } from "@/lib/seed/demo-content";
import { runCheckOperation } from "@/lib/checks/operations";

let demo: Demo;
let A: { apiKey: string; apiKeyId: string; brandId: string };
let B: Tenant; // another workspace, with a provider only it has

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const newKey = () => `api-test-${randomUUID()}`;

beforeAll(async () => {
  demo = await setUpDemo();
  // An admin key of the demo owner: these tests cancel and retry (scopes: api-key-scopes.test.ts).
  const key = await createApiKey(demo.workspaceId, { name: "api tests", scope: "admin", createdById: demo.owner.userId! });
  const brand = await db().brand.findFirstOrThrow({ where: { workspaceId: demo.workspaceId, name: DEMO_BRAND.name } });
  A = { apiKey: key.key, apiKeyId: key.id, brandId: brand.id };
  B = await createTenant("Bravo", {
    prompts: [{ text: "Which cola tastes best at a beach party?", tags: ["party"] }, { text: "Is Bravo Cola better than the rest?" }],
    extraProvider: "Bravo Sim",
  });
});

// --- calls -------------------------------------------------------------------------------------

type PostOptions = { apiKey?: string | null; idempotencyKey?: string | null; headers?: Record<string, string>; raw?: BodyInit };

/** POST /api/v1/checks with A's key and a fresh Idempotency-Key unless told otherwise. */
function postCheck(body: unknown, options: PostOptions = {}): Promise<ApiResult> {
  const idempotencyKey = options.idempotencyKey === undefined ? newKey() : options.idempotencyKey;
  return callRoute(createCheckRoute, {
    method: "POST",
    path: "/api/v1/checks",
    apiKey: options.apiKey === undefined ? A.apiKey : options.apiKey,
    headers: { ...(idempotencyKey !== null ? { "idempotency-key": idempotencyKey } : {}), ...options.headers },
    ...(options.raw !== undefined ? { body: options.raw } : { json: body }),
  });
}

/** Starts a check that must be accepted; returns its id. */
async function startCheck(body: unknown, options: PostOptions = {}): Promise<string> {
  const result = await postCheck(body, options);
  expect(result.status, JSON.stringify(result.body)).toBe(202);
  return result.body.check.id as string;
}

const get = (route: Parameters<typeof callRoute>[0], path: string, apiKey: string | null = A.apiKey) => callRoute(route, { path, apiKey });

const onId = (method: "GET" | "POST", route: Parameters<typeof callRoute<{ id: string }>>[0], template: string) =>
  (id: string, apiKey: string | null = A.apiKey) => callRoute(route, { method, path: template.replace(":id", encodeURIComponent(id)), apiKey, params: { id } });

const getCheck = onId("GET", getCheckRoute, "/api/v1/checks/:id");
const cancelCheck = onId("POST", cancelCheckRoute, "/api/v1/checks/:id/cancel");
const getCapture = onId("GET", getCaptureRoute, "/api/v1/captures/:id");
const cancelCapture = onId("POST", cancelCaptureRoute, "/api/v1/captures/:id/cancel");
const retryCapture = onId("POST", retryCaptureRoute, "/api/v1/captures/:id/retry");

/** Runs `act` and proves no check, capture, prompt, event, job or budget reservation was added. */
async function storesNothing(act: () => Promise<ApiResult>): Promise<ApiResult> {
  const before = await storedRows();
  const result = await act();
  expect(await storedRows(), `rows after ${JSON.stringify(result.body).slice(0, 300)}`).toEqual(before);
  return result;
}

const promptIdOf = async (workspaceId: string, text: string) => (await db().prompt.findFirstOrThrow({ where: { workspaceId, text } })).id;
const capturesOf = (checkId: string) => db().capture.findMany({ where: { checkId }, include: { providerConfig: { select: { name: true } } }, orderBy: { id: "asc" } });
const checksWithKey = (workspaceId: string, idempotencyKey: string) => db().check.findMany({ where: { workspaceId, idempotencyKey } });

// --- authentication and tenancy ---------------------------------------------------------------

describe("authentication", () => {
  it.each<[string, string | undefined]>([
    ["no Authorization header", undefined],
    ["an empty bearer", "Bearer "],
    ["another scheme", "Basic dXNlcjpwYXNzd29yZA=="],
    ["a garbage key", "Bearer garbage"],
    ["a well-formed key nobody issued", `Bearer bk_00000000_${"x".repeat(40)}`],
  ])("refuses %s with a 401 JSON error, and stores nothing", async (_, authorization) => {
    const headers: Record<string, string> = authorization === undefined ? {} : { authorization };
    expectApiError(await callRoute(listChecksRoute, { path: "/api/v1/checks", apiKey: null, headers }), 401, { code: "unauthorized" });
    expectApiError(await callRoute(listBrandsRoute, { path: "/api/v1/brands", apiKey: null, headers }), 401, { code: "unauthorized" });
    const created = await storesNothing(() => postCheck({ providers: ["ChatGPT"] }, { apiKey: null, headers }));
    expectApiError(created, 401, { code: "unauthorized" });
  });

  it("refuses a key once it is revoked", async () => {
    const key = await createApiKey(demo.workspaceId, { name: "soon revoked", scope: "read", createdById: demo.owner.userId! });
    expect((await get(listBrandsRoute, "/api/v1/brands", key.key)).status).toBe(200);

    await revokeApiKey(demo.workspaceId, key.id);

    expectApiError(await get(listBrandsRoute, "/api/v1/brands", key.key), 401, { code: "unauthorized" });
    expectApiError(await storesNothing(() => postCheck({ providers: ["ChatGPT"] }, { apiKey: key.key })), 401, { code: "unauthorized" });
  });
});

describe("tenancy: a key of workspace B", () => {
  let checkA: string;
  let captureA: string;
  let checkB: string;

  beforeAll(async () => {
    checkA = await startCheck({ prompts: [demo.promptIds[0]], providers: ["ChatGPT", "Claude"] });
    captureA = (await capturesOf(checkA))[0]!.id;
    checkB = await startCheck({ providers: ["Bravo Sim"] }, { apiKey: B.apiKey });
  });

  it("cannot read A's check or capture (404)", async () => {
    expectApiError(await getCheck(checkA, B.apiKey), 404, { code: "not_found" });
    expectApiError(await getCapture(captureA, B.apiKey), 404, { code: "not_found" });
    // The same calls with A's key do find them, so the 404 is about the workspace.
    expect((await getCheck(checkA)).status).toBe(200);
    expect((await getCapture(captureA)).status).toBe(200);
  });

  it("cannot cancel A's check or capture, nor retry A's capture (404), and A's rows stay as they were", async () => {
    const otherCapture = (await capturesOf(checkA))[1]!.id;
    expect((await cancelCapture(otherCapture)).status).toBe(202); // A cancels one, so there is something to retry
    await removeCaptureJob(otherCapture);
    const before = { check: await checkRow(checkA), captures: await capturesOf(checkA), events: await eventsOf(checkA), jobs: await graphileJobCount() };

    expectApiError(await cancelCheck(checkA, B.apiKey), 404, { code: "not_found" });
    expectApiError(await cancelCapture(captureA, B.apiKey), 404, { code: "not_found" });
    expectApiError(await retryCapture(otherCapture, B.apiKey), 404, { code: "not_found" });

    expect({ check: await checkRow(checkA), captures: await capturesOf(checkA), events: await eventsOf(checkA), jobs: await graphileJobCount() }).toEqual(before);
    expect(await captureJob(otherCapture)).toBeNull();
  });

  it("lists only B's checks, brands, prompts and providers", async () => {
    const checks = await get(listChecksRoute, "/api/v1/checks?pageSize=100", B.apiKey);
    expect(checks.status).toBe(200);
    const bChecks = await db().check.findMany({ where: { workspaceId: B.workspaceId }, select: { id: true } });
    expect(checks.body.items.map((c: { id: string }) => c.id).sort()).toEqual(bChecks.map((c) => c.id).sort());
    expect(checks.body.items.map((c: { id: string }) => c.id)).toContain(checkB);
    expect(checks.body.items.map((c: { id: string }) => c.id)).not.toContain(checkA);
    expect(checks.body.total).toBe(bChecks.length);

    const brands = await get(listBrandsRoute, "/api/v1/brands", B.apiKey);
    expect(brands.body.brands.map((b: { id: string }) => b.id)).toEqual([B.brandId]);

    const prompts = await get(listPromptsRoute, "/api/v1/prompts?pageSize=100", B.apiKey);
    expect(prompts.body.items.map((p: { id: string }) => p.id).sort()).toEqual([...B.promptIds].sort());
    expect(prompts.body.total).toBe(B.promptIds.length);
    expect(prompts.body.tags).toEqual([{ tag: "party", count: 1 }]);

    const providersOfB = await get(listProvidersRoute, "/api/v1/providers", B.apiKey);
    const providersOfA = await get(listProvidersRoute, "/api/v1/providers");
    expect(providersOfB.body.providers.map((p: { name: string }) => p.name)).toContain("Bravo Sim");
    expect(providersOfA.body.providers.map((p: { name: string }) => p.name)).not.toContain("Bravo Sim");
  });

  it("gets its own check for an Idempotency-Key that workspace A already used", async () => {
    const key = newKey();
    const inA = await startCheck({ providers: ["ChatGPT"], prompts: [demo.promptIds[0]] }, { idempotencyKey: key });
    const inB = await postCheck({ providers: ["ChatGPT"], prompts: [demo.promptIds[0]] }, { idempotencyKey: key, apiKey: B.apiKey });
    // B naming A's prompt is refused; B's own request with the same key creates B's check.
    expectApiError(inB, 404, { field: "prompts" });
    const ownB = await postCheck({ providers: ["ChatGPT"] }, { idempotencyKey: key, apiKey: B.apiKey });
    expect(ownB.status).toBe(202);
    expect(ownB.headers.get("idempotent-replayed")).toBeNull();
    expect(ownB.body.check.id).not.toBe(inA);
    expect((await checkRow(ownB.body.check.id)).workspaceId).toBe(B.workspaceId);
    expect((await checkRow(inA)).workspaceId).toBe(demo.workspaceId);
  });
});

// --- POST /api/v1/checks ------------------------------------------------------------------------

describe("POST /api/v1/checks", () => {
  it("refuses a request without an Idempotency-Key (400 idempotency_key_required) and stores nothing", async () => {
    const result = await storesNothing(() => postCheck({ providers: ["ChatGPT"] }, { idempotencyKey: null }));
    const error = expectApiError(result, 400, { code: "idempotency_key_required" });
    expect(error.message).toMatch(/Idempotency-Key/);
  });

  const body = () => ({ brandId: A.brandId, prompts: [demo.promptIds[0], demo.promptIds[1]], providers: ["ChatGPT", "Claude", "Gemini"], samples: 2 });
  const idempotencyKey = newKey();
  let checkId: string;

  it("starts a check: 202, queued, prompts x providers x samples captures with their jobs, a Location header, the budget reserved", async () => {
    const before = await storedRows();
    const budgetBefore = await budgetPeriod(demo.workspaceId);

    const result = await postCheck(body(), { idempotencyKey });

    expect(result.status, JSON.stringify(result.body)).toBe(202);
    const check = result.body.check;
    checkId = check.id;
    expect(check.id).toMatch(UUID);
    expect(check).toMatchObject({
      status: "queued",
      brand: DEMO_BRAND.name,
      startedBy: `${DEMO_LOGIN.name} (API key)`,
      samples: 2,
      counts: { total: 12, queued: 12, running: 0, succeeded: 0, failed: 0, cancelled: 0 },
      cancelRequested: false,
    });
    expect(result.headers.get("location")).toBe(`/api/v1/checks/${check.id}`);
    expect(result.headers.get("idempotent-replayed")).toBeNull();

    const row = await checkRow(check.id);
    expect(row).toMatchObject({ workspaceId: demo.workspaceId, brandId: A.brandId, apiKeyId: A.apiKeyId, idempotencyKey, totalCaptures: 12 });
    expect(row.reservedMicros).toBeGreaterThan(0n);
    expect(check.reservedMicros).toBe(Number(row.reservedMicros));

    const captures = await capturesOf(check.id);
    const combos = new Set(captures.map((c) => `${c.promptId}/${c.providerConfig.name}/${c.sample}`));
    expect(combos.size).toBe(12);
    expect(new Set(captures.map((c) => c.promptId))).toEqual(new Set([demo.promptIds[0], demo.promptIds[1]]));
    expect(new Set(captures.map((c) => c.providerConfig.name))).toEqual(new Set(["ChatGPT", "Claude", "Gemini"]));
    expect(new Set(captures.map((c) => c.sample))).toEqual(new Set([1, 2]));
    expect(captures.every((c) => c.status === "queued")).toBe(true);
    for (const capture of captures) expect(await captureJob(capture.id), `job of capture ${capture.id}`).toMatchObject({ task_identifier: "capture" });

    const events = await eventsOf(check.id);
    // A key acts for its member: the events name both.
    expect(events.map((e) => [e.kind, e.actorApiKeyId, e.actorUserId])).toEqual([["check_created", A.apiKeyId, demo.owner.userId]]);

    expect(await storedRows()).toMatchObject({ checks: before.checks + 1, captures: before.captures + 12, prompts: before.prompts, jobs: before.jobs + 12 });
    expect((await budgetPeriod(demo.workspaceId)).reservedMicros - budgetBefore.reservedMicros).toBe(row.reservedMicros);
  });

  it("replays the same key and body (keys in another order): 202, the same check, idempotent-replayed, nothing new", async () => {
    const { samples, providers, prompts, brandId } = body();
    const result = await storesNothing(() => postCheck({ samples, providers, prompts, brandId }, { idempotencyKey }));
    expect(result.status, JSON.stringify(result.body)).toBe(202);
    expect(result.body.check.id).toBe(checkId);
    expect(result.headers.get("idempotent-replayed")).toBe("true");
    expect(result.headers.get("location")).toBe(`/api/v1/checks/${checkId}`);
    expect(await checksWithKey(demo.workspaceId, idempotencyKey)).toHaveLength(1);
  });

  it("refuses the same key with a different body (422 idempotency_key_reused) and stores nothing", async () => {
    const result = await storesNothing(() => postCheck({ ...body(), samples: 1 }, { idempotencyKey }));
    const error = expectApiError(result, 422, { code: "idempotency_key_reused" });
    expect(error.message).toMatch(/Idempotency-Key/i);
    expect((await checkRow(checkId)).samples).toBe(2);
  });

  it("creates exactly one check for 20 concurrent requests with one key and one body", async () => {
    const key = newKey();
    const same = { prompts: [demo.promptIds[2]], providers: ["Perplexity", "ChatGPT"] };
    const before = await storedRows();
    const budgetBefore = await budgetPeriod(demo.workspaceId);

    const results = await Promise.all(Array.from({ length: 20 }, () => postCheck(same, { idempotencyKey: key })));

    expect(results.map((r) => r.status)).toEqual(Array(20).fill(202));
    const ids = new Set(results.map((r) => r.body.check.id));
    expect(ids.size, `check ids ${[...ids].join(", ")}`).toBe(1);
    expect(results.filter((r) => r.headers.get("idempotent-replayed") === "true")).toHaveLength(19);
    const rows = await checksWithKey(demo.workspaceId, key);
    expect(rows.map((r) => r.id)).toEqual([...ids]);
    expect(await storedRows()).toMatchObject({ checks: before.checks + 1, captures: before.captures + 2, jobs: before.jobs + 2, events: before.events + 1 });
    expect((await budgetPeriod(demo.workspaceId)).reservedMicros - budgetBefore.reservedMicros).toBe((await checkRow(rows[0]!.id)).reservedMicros);
  });

  it("treats a key older than 24 hours as new: a second check, no replay", async () => {
    const key = newKey();
    const same = { prompts: [demo.promptIds[3]], providers: ["Gemini"] };
    const first = await startCheck(same, { idempotencyKey: key });
    await db().check.update({ where: { id: first }, data: { idempotencyExpiresAt: new Date(Date.now() - 1000) } });

    const again = await postCheck(same, { idempotencyKey: key });

    expect(again.status).toBe(202);
    expect(again.body.check.id).not.toBe(first);
    expect(again.headers.get("idempotent-replayed")).toBeNull();
    expect((await checksWithKey(demo.workspaceId, key)).map((c) => c.id)).toEqual([again.body.check.id]);
  });

  it("takes prompts as ids and as { text }: a text becomes a prompt once and is reused, whatever its case", async () => {
    const text = "Which CRM do API-first teams like most?";
    const before = await storedRows();

    const first = await startCheck({ prompts: [demo.promptIds[0], { text }, { text: text.toUpperCase() }], providers: ["ChatGPT"] });

    expect(await storedRows()).toMatchObject({ prompts: before.prompts + 1 });
    const created = await db().prompt.findMany({ where: { workspaceId: demo.workspaceId, text: { equals: text, mode: "insensitive" } } });
    expect(created.map((p) => [p.text, p.tags])).toEqual([[text, []]]);
    expect(new Set((await capturesOf(first)).map((c) => c.promptId))).toEqual(new Set([demo.promptIds[0], created[0]!.id]));
    expect((await checkRow(first)).totalCaptures).toBe(2);

    const second = await startCheck({ prompts: [{ text: `  ${text.toLowerCase()}  ` }], providers: ["ChatGPT"] });
    expect((await capturesOf(second)).map((c) => c.promptId)).toEqual([created[0]!.id]);

    const demoText = DEMO_PROMPTS[4]!.text;
    const third = await startCheck({ prompts: [{ text: demoText }], providers: ["ChatGPT"] });
    expect((await capturesOf(third)).map((c) => c.promptId)).toEqual([await promptIdOf(demo.workspaceId, demoText)]);

    expect(await storedRows()).toMatchObject({ prompts: before.prompts + 1 });
  });

  it("takes a { text } with % or _ literally: it is its own prompt, not a pattern that matches another one", async () => {
    const existing = await db().prompt.create({ data: { workspaceId: demo.workspaceId, text: "What share of SaaS startups use a CRM?" } });
    const text = "What % of SaaS startups use a CRM?";

    const checkId = await startCheck({ prompts: [{ text }], providers: ["ChatGPT"] });

    const [capture] = await capturesOf(checkId);
    expect(capture!.promptId).not.toBe(existing.id);
    expect((await db().prompt.findUniqueOrThrow({ where: { id: capture!.promptId } })).text).toBe(text);
  });

  it("selects prompts by tag (case-insensitive)", async () => {
    const tagged = await db().prompt.findMany({ where: { workspaceId: demo.workspaceId, tags: { has: "smb" }, deletedAt: null }, select: { id: true } });
    expect(tagged).toHaveLength(DEMO_PROMPTS.filter((p) => p.tags.includes("smb")).length);

    const result = await postCheck({ tag: "SMB", providers: ["Perplexity", "Claude"] });

    expect(result.status, JSON.stringify(result.body)).toBe(202);
    expect(result.body.check.counts.total).toBe(tagged.length * 2);
    expect(new Set((await capturesOf(result.body.check.id)).map((c) => c.promptId))).toEqual(new Set(tagged.map((p) => p.id)));
  });

  it("refuses a tag no prompt has (400 on prompts) and stores nothing", async () => {
    expectApiError(await storesNothing(() => postCheck({ tag: "no-such-tag", providers: ["ChatGPT"] })), 400, { field: "prompts" });
  });

  it("defaults to every live prompt, the workspace's first brand and one sample", async () => {
    await db().brand.create({ data: { workspaceId: demo.workspaceId, name: "Lumen Labs", aliases: [], domains: [] } });
    const live = await db().prompt.findMany({ where: { workspaceId: demo.workspaceId, deletedAt: null }, select: { id: true } });

    const result = await postCheck({ providers: ["Gemini"] });

    expect(result.status, JSON.stringify(result.body)).toBe(202);
    expect(result.body.check).toMatchObject({ brand: DEMO_BRAND.name, samples: 1, counts: { total: live.length } });
    expect((await checkRow(result.body.check.id)).brandId).toBe(A.brandId);
    const captures = await capturesOf(result.body.check.id);
    expect(new Set(captures.map((c) => c.promptId))).toEqual(new Set(live.map((p) => p.id)));
    expect(captures.every((c) => c.sample === 1 && c.providerConfig.name === "Gemini")).toBe(true);
  });
});

describe("POST /api/v1/checks refuses bad input with a 4xx naming the field, and stores nothing", () => {
  const valid = () => ({ prompts: [demo.promptIds[0]], providers: ["ChatGPT"] });

  it.each<[string, () => unknown, number, { code?: string; field?: string }]>([
    ["an unknown provider name", () => ({ ...valid(), providers: ["ChatGPT", "Grok"] }), 404, { code: "not_found", field: "providers" }],
    ["a provider only another workspace has", () => ({ ...valid(), providers: ["Bravo Sim"] }), 404, { code: "not_found", field: "providers" }],
    ["no providers", () => ({ ...valid(), providers: [] }), 400, { code: "validation_error", field: "providers" }],
    ["a missing providers field", () => ({ prompts: valid().prompts }), 400, { code: "validation_error", field: "providers" }],
    ["0 samples", () => ({ ...valid(), samples: 0 }), 400, { code: "validation_error", field: "samples" }],
    ["6 samples", () => ({ ...valid(), samples: 6 }), 400, { code: "validation_error", field: "samples" }],
    ["10,000 prompts", () => ({ ...valid(), prompts: Array.from({ length: 10_000 }, () => randomUUID()) }), 400, { code: "validation_error", field: "prompts" }],
    ["a 200 KB prompt text", () => ({ ...valid(), prompts: [{ text: `Which CRM ${"is really great ".repeat(14_000)}?` }] }), 400, { code: "validation_error", field: "prompts" }],
    ["a brandId that is not a UUID", () => ({ ...valid(), brandId: "lumen" }), 400, { code: "validation_error", field: "brandId" }],
    // PostgreSQL cannot store NUL (it used to answer 500, error 22021); other control characters are never meant.
    ["a NUL in a prompt text", () => ({ ...valid(), prompts: [{ text: "Which CRM\u0000 is best?" }] }), 400, { code: "validation_error", field: "prompts.0" }],
    ["an escape character in a prompt text", () => ({ ...valid(), prompts: [{ text: "Which CRM \u001b[31mis best?" }] }), 400, { code: "validation_error", field: "prompts.0" }],
    ["a NUL in a provider name", () => ({ ...valid(), providers: ["Chat\u0000GPT"] }), 400, { code: "validation_error", field: "providers.0" }],
    ["a NUL in the tag", () => ({ tag: "smb\u0000", providers: ["ChatGPT"] }), 400, { code: "validation_error", field: "tag" }],
    ["another workspace's brandId", () => ({ ...valid(), brandId: B.brandId }), 404, { code: "not_found", field: "brandId" }],
    ["another workspace's prompt id", () => ({ ...valid(), prompts: [demo.promptIds[0], B.promptIds[0]] }), 404, { code: "not_found", field: "prompts" }],
  ])("%s", async (_, body, status, expected) => {
    expectApiError(await storesNothing(() => postCheck(body())), status, expected);
  });

  it("a disabled provider (400 on providers)", async () => {
    await db().providerConfig.update({ where: { id: demo.providers.Claude.id }, data: { enabled: false } });
    try {
      const error = expectApiError(await storesNothing(() => postCheck({ ...valid(), providers: ["ChatGPT", "Claude"] })), 400, { field: "providers" });
      expect(error.message).toContain("Claude");
    } finally {
      await db().providerConfig.update({ where: { id: demo.providers.Claude.id }, data: { enabled: true } });
    }
  });

  it("both prompts and tag", async () => {
    const error = expectApiError(await storesNothing(() => postCheck({ ...valid(), tag: "smb" })), 400, { code: "validation_error" });
    expect(["prompts", "tag"]).toContain(error.field);
    expect(error.message).toMatch(/prompts or tag/);
  });

  it("invalid JSON (400 invalid_json)", async () => {
    expectApiError(await storesNothing(() => postCheck(undefined, { raw: '{"providers": ["ChatGPT"' })), 400, { code: "invalid_json" });
  });

  it("an unknown extra field (strict), named in the message", async () => {
    const error = expectApiError(await storesNothing(() => postCheck({ ...valid(), colour: "blue" })), 400, { code: "validation_error" });
    expect(error.message).toContain("colour");
  });

  /** A syntactically valid body of about `bytes` UTF-8 bytes made of `char`. */
  const bigBody = (bytes: number, char: string) => JSON.stringify({ ...valid(), prompts: [{ text: char.repeat(Math.ceil(bytes / Buffer.byteLength(char))) }] });
  const streamOf = (text: string) => {
    const bytes = new TextEncoder().encode(text);
    return new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < bytes.length; i += 64 * 1024) controller.enqueue(bytes.subarray(i, i + 64 * 1024));
        controller.close();
      },
    });
  };

  it("a body over 1 MB with its Content-Length (413)", async () => {
    const raw = bigBody(1_100_000, "a");
    const result = await storesNothing(() => postCheck(undefined, { raw, headers: { "content-length": String(Buffer.byteLength(raw)) } }));
    expectApiError(result, 413, { code: "payload_too_large" });
  });

  it("a body over 1 MB streamed without Content-Length (413)", async () => {
    const result = await storesNothing(() => postCheck(undefined, { raw: streamOf(bigBody(1_100_000, "a")) }));
    expectApiError(result, 413, { code: "payload_too_large" });
  });

  it("a body over 1 MB in bytes but not in characters, streamed without Content-Length (413)", async () => {
    // 1.2 MB of UTF-8 but only ~600,000 UTF-16 code units: the limit is in bytes.
    const raw = bigBody(1_200_000, "é");
    expect(Buffer.byteLength(raw)).toBeGreaterThan(1_000_000);
    expect(raw.length).toBeLessThan(1_000_000);
    const result = await storesNothing(() => postCheck(undefined, { raw: streamOf(raw) }));
    expectApiError(result, 413, { code: "payload_too_large" });
  });
});

describe("monthly budget", () => {
  it("refuses a check that would exceed it (402 budget_exceeded) with the shortfall in the message, and stores nothing", async () => {
    const selection = { prompts: demo.promptIds.slice(0, 2), providers: ["ChatGPT", "Perplexity"], samples: 3 };
    const { estimateMicros } = await estimateCheck({
      workspaceId: demo.workspaceId,
      prompts: { mode: "picked", promptIds: selection.prompts },
      providers: { names: selection.providers },
      samples: selection.samples,
    });
    expect(estimateMicros).toBeGreaterThan(1);
    const used = await budgetPeriod(demo.workspaceId);
    // Exactly one micro-dollar left this month: the check is short by its estimate minus one.
    const limit = used.reservedMicros + used.chargedMicros + 1n;
    await db().workspace.update({ where: { id: demo.workspaceId }, data: { monthlyBudgetMicros: limit } });
    try {
      const result = await storesNothing(() => postCheck(selection));
      const error = expectApiError(result, 402, { code: "budget_exceeded" });
      expect(error.message).toContain(`${formatMicros(estimateMicros - 1)} over this month's budget`);
    } finally {
      await db().workspace.update({ where: { id: demo.workspaceId }, data: { monthlyBudgetMicros: null } });
    }
    expect((await postCheck(selection)).status).toBe(202);
  });
});

// --- reads ------------------------------------------------------------------------------------

describe("reads", () => {
  it("refuse a query parameter they do not take, or one given twice, naming it: a filter that was not applied is not answered as if it were", async () => {
    const cases: [Parameters<typeof callRoute>[0], string, string][] = [
      [listChecksRoute, "/api/v1/checks?brandId=" + A.brandId, "brandId"],
      [listChecksRoute, "/api/v1/checks?status=queued&status=failed", "status"],
      [listPromptsRoute, "/api/v1/prompts?tags=smb", "tags"],
      [visitsRoute, "/api/v1/traffic/visits?by=day&range=7", "range"],
    ];
    for (const [route, path, field] of cases) {
      const error = expectApiError(await get(route, path), 400, { code: "validation_error", field });
      expect(error.message, path).toMatch(new RegExp(`^${field}: `));
    }
    const check = await startCheck({ prompts: [demo.promptIds[0]], providers: ["ChatGPT"] });
    expectApiError(await callRoute(getCheckRoute, { path: `/api/v1/checks/${check}?pagesize=10`, apiKey: A.apiKey, params: { id: check } }), 400, { field: "pagesize" });
  });

  it("GET /traffic/visits takes at most 400 days, both ends counted, as the analytics filter does", async () => {
    expect((await get(visitsRoute, "/api/v1/traffic/visits?by=day&from=2025-01-01&to=2026-02-04")).status, "400 days").toBe(200);
    const error = expectApiError(await get(visitsRoute, "/api/v1/traffic/visits?by=day&from=2025-01-01&to=2026-02-05"), 400, { code: "validation_error", field: "from" });
    expect(error.message).toMatch(/at most 400 days/);
    expectApiError(await get(visitsRoute, "/api/v1/traffic/visits?by=day&from=2025-01-02&to=2025-01-01"), 400, { code: "validation_error", field: "from" });
    expect((await get(visitsRoute, "/api/v1/traffic/visits?by=day&from=2025-01-01&to=2025-01-01")).status, "one day").toBe(200);
  });

  it("GET /checks pages newest first with a total, and filters by status", async () => {
    const C = await createTenant("Charlie");
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push(await startCheck({ providers: ["ChatGPT"], samples: i + 1 }, { apiKey: C.apiKey }));
    const [oldest, middle, newest] = ids as [string, string, string];
    const list = (query: string) => get(listChecksRoute, `/api/v1/checks${query}`, C.apiKey);
    const idsOf = (result: ApiResult) => result.body.items.map((c: { id: string }) => c.id);

    const page1 = await list("?page=1&pageSize=2");
    expect(page1.status).toBe(200);
    expect(page1.body).toMatchObject({ total: 3, page: 1, pageSize: 2 });
    expect(idsOf(page1)).toEqual([newest, middle]);
    expect(page1.body.items[0]).toMatchObject({ status: "queued", brand: "Charlie Brand", samples: 3, counts: { total: 3, queued: 3 } });
    expect(idsOf(await list("?page=2&pageSize=2"))).toEqual([oldest]);
    expect((await list("?page=3&pageSize=2")).body).toMatchObject({ items: [], total: 3 });
    expect((await list("")).body).toMatchObject({ total: 3, page: 1, pageSize: 20 });

    const cancel = await cancelCheck(oldest, C.apiKey);
    expect(cancel.status).toBe(202);
    await runCheckOperation(cancel.body.operationId); // what a worker does next
    const cancelled = await list("?status=cancelled");
    expect(idsOf(cancelled)).toEqual([oldest]);
    expect(cancelled.body.total).toBe(1);
    expect((await list("?status=queued")).body.total).toBe(2);

    expectApiError(await list("?status=lost"), 400, { field: "status" });
    expectApiError(await list("?pageSize=101"), 400, { field: "pageSize" });
    expectApiError(await list("?page=0"), 400, { field: "page" });
  });

  it("GET /checks/:id gives the counts per status and every capture with its prompt and provider", async () => {
    const prompts = [demo.promptIds[5]!, demo.promptIds[6]!];
    const checkId = await startCheck({ prompts, providers: ["Claude", "Perplexity"] });
    const toCancel = (await capturesOf(checkId))[0]!;
    expect((await cancelCapture(toCancel.id)).status).toBe(202);

    const result = await getCheck(checkId);

    expect(result.status).toBe(200);
    expect(result.body.check).toMatchObject({ id: checkId, status: expect.any(String), counts: { total: 4, queued: 3, running: 0, succeeded: 0, failed: 0, cancelled: 1 } });
    const texts = new Map((await db().prompt.findMany({ where: { id: { in: prompts } } })).map((p) => [p.id, p.text]));
    const captures = result.body.captures as { id: string; prompt: { id: string; text: string }; provider: string; sample: number; status: string; attempts: number }[];
    expect(captures).toHaveLength(4);
    expect(new Set(captures.map((c) => `${c.prompt.id}/${c.provider}`))).toEqual(new Set(prompts.flatMap((p) => [`${p}/Claude`, `${p}/Perplexity`])));
    for (const capture of captures) {
      expect(capture.prompt.text).toBe(texts.get(capture.prompt.id));
      expect(capture).toMatchObject({ sample: 1, attempts: 0, status: capture.id === toCancel.id ? "cancelled" : "queued" });
    }
  });

  it("GET /checks/:id pages the captures: ?page=&pageSize= in the order of prompt, provider and sample, each capture once", async () => {
    const prompts = [demo.promptIds[8]!, demo.promptIds[9]!, demo.promptIds[10]!];
    const checkId = await startCheck({ prompts, providers: ["Claude", "Perplexity"] });
    const path = `/api/v1/checks/${checkId}`;
    const page = (query: string) => callRoute(getCheckRoute, { path: `${path}${query}`, apiKey: A.apiKey, params: { id: checkId } });

    const whole = await page("");
    expect(whole.body.capturesPage).toEqual({ page: 1, pageSize: 1000, total: 6 });
    const parts = [await page("?pageSize=4"), await page("?page=2&pageSize=4"), await page("?page=3&pageSize=4")];
    expect(parts.map((p) => p.body.captures.length)).toEqual([4, 2, 0]);
    expect(parts[1]!.body.capturesPage).toEqual({ page: 2, pageSize: 4, total: 6 });
    const ids = (result: ApiResult) => (result.body.captures as { id: string }[]).map((c) => c.id);
    expect(parts.flatMap(ids)).toEqual(ids(whole));
    const ordered = await db().capture.findMany({ where: { checkId }, orderBy: [{ promptId: "asc" }, { providerConfigId: "asc" }, { sample: "asc" }], select: { id: true } });
    expect(ids(whole)).toEqual(ordered.map((c) => c.id));

    expectApiError(await page("?pageSize=1001"), 400, { field: "pageSize" });
    expectApiError(await page("?page=0"), 400, { field: "page" });
  });

  it("GET /captures/:id of a queued capture: no answer, no attempts", async () => {
    const checkId = await startCheck({ prompts: [demo.promptIds[7]], providers: ["Gemini"] });
    const capture = (await capturesOf(checkId))[0]!;

    const result = await getCapture(capture.id);

    expect(result.status).toBe(200);
    expect(result.body.capture).toMatchObject({
      id: capture.id,
      checkId,
      status: "queued",
      sample: 1,
      answerText: null,
      attempts: [],
      attemptCount: 0,
      citations: [],
      mentions: [],
      provider: { name: "Gemini", adapter: "simulator" },
      prompt: { text: (await db().prompt.findUniqueOrThrow({ where: { id: demo.promptIds[7] } })).text },
    });
  });

  it("GET /brands lists the workspace's brands with their competitors", async () => {
    const result = await get(listBrandsRoute, "/api/v1/brands");
    expect(result.status).toBe(200);
    const names = (await db().brand.findMany({ where: { workspaceId: demo.workspaceId }, orderBy: { createdAt: "asc" } })).map((b) => b.name);
    expect(result.body.brands.map((b: { name: string }) => b.name)).toEqual(names);
    expect(result.body.brands[0]).toMatchObject({
      id: A.brandId,
      name: DEMO_BRAND.name,
      aliases: DEMO_BRAND.aliases,
      domains: DEMO_BRAND.domains,
      competitors: DEMO_BRAND.competitors.map((c) => expect.objectContaining({ name: c.name, aliases: c.aliases, domains: c.domains })),
    });
  });

  it("GET /prompts filters by tag", async () => {
    const smb = DEMO_PROMPTS.filter((p) => p.tags.includes("smb")).map((p) => p.text);
    const result = await get(listPromptsRoute, "/api/v1/prompts?tag=smb");
    expect(result.status).toBe(200);
    expect(result.body.total).toBe(smb.length);
    expect(result.body.items.map((p: { text: string }) => p.text).sort()).toEqual([...smb].sort());
    expect(result.body.items.every((p: { tags: string[] }) => p.tags.includes("smb"))).toBe(true);

    const all = await get(listPromptsRoute, "/api/v1/prompts?pageSize=100");
    expect(all.body.total).toBe(await db().prompt.count({ where: { workspaceId: demo.workspaceId, deletedAt: null } }));
    expect(all.body.total).toBeGreaterThan(smb.length);
  });

  it("GET /prompts accepts the page sizes the OpenAPI document declares, and defaults to its declared page size", async () => {
    const declared = (openApiDocument.paths["/api/v1/prompts"].get.parameters as { name: string; schema: { minimum?: number; maximum?: number; default?: number } }[]).find((p) => p.name === "pageSize")!.schema;
    for (const pageSize of [declared.minimum!, declared.maximum!]) {
      const result = await get(listPromptsRoute, `/api/v1/prompts?pageSize=${pageSize}`);
      expect(result.status, `pageSize=${pageSize}: ${JSON.stringify(result.body)}`).toBe(200);
      expect(result.body.items.length).toBeLessThanOrEqual(pageSize);
    }
    expect((await get(listPromptsRoute, "/api/v1/prompts")).body.pageSize).toBe(declared.default);
  });

  it("GET /providers lists id (what analytics' ?providers= takes), name, connection, adapter, model, granted and configured (true for the simulator), as MCP's list_providers does", async () => {
    const result = await get(listProvidersRoute, "/api/v1/providers");
    expect(result.status).toBe(200);
    const configs = await db().providerConfig.findMany({ where: { workspaceId: demo.workspaceId }, orderBy: { name: "asc" }, include: { connection: true } });
    expect(result.body.providers).toEqual(
      configs.map((c) =>
        expect.objectContaining({
          id: c.id,
          name: c.name,
          connection: c.connection.name,
          adapter: c.connection.adapter,
          model: c.model,
          searchMode: c.searchMode,
          enabled: c.enabled,
          granted: c.connection.grantedToAll ? true : expect.any(Boolean),
          configured: c.connection.adapter === "simulator" ? true : expect.any(Boolean),
        }),
      ),
    );
    const simulated = result.body.providers.filter((p: { adapter: string }) => p.adapter === "simulator").map((p: { name: string }) => p.name);
    expect(simulated).toEqual(["Alice AI", "ChatGPT", "Claude", "Gemini", "GigaChat", "Google AI Overviews", "Perplexity"]);
  });

  it("GET /openapi.json is valid JSON (OpenAPI 3.1) describing every endpoint", async () => {
    const response = openApiRoute();
    expect(response.status).toBe(200);
    const document = JSON.parse(await response.text());
    expect(document.openapi).toMatch(/^3\.1/);
    const operations = Object.entries(document.paths as Record<string, Record<string, unknown>>).flatMap(([path, item]) => Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`));
    expect(operations.sort()).toEqual(
      [
        "POST /api/v1/checks",
        "GET /api/v1/checks",
        "GET /api/v1/checks/{id}",
        "POST /api/v1/checks/{id}/cancel",
        "GET /api/v1/captures/{id}",
        "POST /api/v1/captures/{id}/cancel",
        "POST /api/v1/captures/{id}/retry",
        "GET /api/v1/brands",
        "GET /api/v1/prompts",
        "GET /api/v1/providers",
        "GET /api/v1/analytics/{chart}",
        "POST /api/v1/traffic/logs",
        "GET /api/v1/traffic/visits",
        "GET /api/v1/traffic/readiness",
      ].sort(),
    );
    expect(document.paths["/api/v1/checks"].post.requestBody.content["application/json"].schema.properties).toHaveProperty("providers");
  });
});

// --- cancel and retry ----------------------------------------------------------------------------

describe("cancel and retry", () => {
  it("cancels a check: 202 with the cancel's operation, which its job runs: every queued capture cancelled, the check cancelled, events with the API key, the reservation released", async () => {
    const checkId = await startCheck({ prompts: [demo.promptIds[8], demo.promptIds[9]], providers: ["ChatGPT", "Claude"] });
    const reserved = (await checkRow(checkId)).reservedMicros;
    const budgetBefore = await budgetPeriod(demo.workspaceId);

    const result = await cancelCheck(checkId);

    expect(result.status, JSON.stringify(result.body)).toBe(202);
    expect(result.body).toEqual({ operationId: expect.stringMatching(UUID) });
    const { operationId } = result.body;
    expect((await checkRow(checkId)).cancelRequestedAt, "the check carries the cancel at once").not.toBeNull();
    expect((await getCheck(checkId)).body.check).toMatchObject({ cancelRequested: true, operation: { id: operationId, kind: "cancel", status: "queued" } });
    expect((await cancelCheck(checkId)).body, "asked again before it runs: the same operation").toEqual({ operationId });

    await runCheckOperation(operationId); // what a worker does next

    expect((await getCheck(checkId)).body.check.operation).toEqual({ id: operationId, kind: "cancel", status: "completed", result: { cancelledNow: 4, aborting: 0 }, error: null });
    const captures = await capturesOf(checkId);
    expect(captures.map((c) => c.status)).toEqual(Array(4).fill("cancelled"));
    const row = await checkRow(checkId);
    expect(row).toMatchObject({ status: "cancelled", cancelled: 4, queued: 0, reservedMicros: 0n });
    expect(row.cancelRequestedAt).not.toBeNull();
    expect(reserved).toBeGreaterThan(0n);
    expect(budgetBefore.reservedMicros - (await budgetPeriod(demo.workspaceId)).reservedMicros).toBe(reserved);

    const events = (await eventsOf(checkId)).filter((e) => e.kind !== "check_created");
    expect(events.filter((e) => e.kind === "check_cancelled").map((e) => [e.actorApiKeyId, e.actorUserId])).toEqual([[A.apiKeyId, demo.owner.userId]]);
    const captureEvents = events.filter((e) => e.kind === "capture_cancelled");
    expect(captureEvents.map((e) => e.captureId).sort()).toEqual(captures.map((c) => c.id).sort());
    expect(captureEvents.every((e) => e.actorApiKeyId === A.apiKeyId && e.actorUserId === demo.owner.userId)).toBe(true);
    expect(events).toHaveLength(5);

    const shown = await getCheck(checkId);
    expect(shown.body.check).toMatchObject({ status: "cancelled", cancelRequested: true, counts: { total: 4, cancelled: 4, queued: 0 } });

    const again = await storesNothing(() => cancelCheck(checkId));
    expectApiError(again, 400);
    expect(await eventsOf(checkId)).toHaveLength(6);
  });

  it("cancels one queued capture, then retries it: 202, queued again with a new graphile job; retrying a queued capture is refused", async () => {
    const checkId = await startCheck({ prompts: [demo.promptIds[10]], providers: ["Gemini", "Perplexity"] });
    const [capture, other] = await capturesOf(checkId);

    const cancelled = await cancelCapture(capture!.id);

    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(202);
    expect(cancelled.body).toEqual({ cancelledNow: 1, aborting: 0 });
    expect((await db().capture.findUniqueOrThrow({ where: { id: capture!.id } })).status).toBe("cancelled");
    expect((await db().capture.findUniqueOrThrow({ where: { id: other!.id } })).status).toBe("queued");
    expect((await checkRow(checkId)).cancelled).toBe(1);
    const cancelEvents = (await eventsOf(checkId)).filter((e) => e.kind === "capture_cancelled");
    expect(cancelEvents.map((e) => [e.captureId, e.actorApiKeyId])).toEqual([[capture!.id, A.apiKeyId]]);
    expectApiError(await storesNothing(() => cancelCapture(capture!.id)), 400);

    // A worker that picks up the job of a cancelled capture does nothing and the job goes away.
    await removeCaptureJob(capture!.id);
    expect(await captureJob(capture!.id)).toBeNull();

    const retried = await retryCapture(capture!.id);

    expect(retried.status, JSON.stringify(retried.body)).toBe(202);
    expect(retried.body).toEqual({ retried: 1 });
    const row = await db().capture.findUniqueOrThrow({ where: { id: capture!.id } });
    expect(row).toMatchObject({ status: "queued", cancelRequestedAt: null, lastError: null, finishedAt: null });
    const job = await captureJob(capture!.id);
    expect(job, "graphile job capture:<id>").toMatchObject({ task_identifier: "capture", key: `capture:${capture!.id}`, locked_at: null });
    expect(job!.run_at.getTime()).toBeLessThanOrEqual(Date.now() + 1000);
    expect((await checkRow(checkId)).queued).toBe(2);
    const retryEvents = (await eventsOf(checkId)).filter((e) => e.kind === "capture_retried");
    expect(retryEvents.map((e) => [e.captureId, e.actorApiKeyId])).toEqual([[capture!.id, A.apiKeyId]]);

    const queued = await storesNothing(() => retryCapture(other!.id));
    expect(expectApiError(queued, 400).message).toMatch(/queued/);
  });

  it("retries a failed capture with a fresh allowance of attempts and a new job", async () => {
    const checkId = await startCheck({ prompts: [demo.promptIds[11]], providers: ["Claude"] });
    const [capture] = await capturesOf(checkId);
    // What a worker leaves behind after three transient errors.
    await db().capture.update({ where: { id: capture!.id }, data: { status: "failed", attemptCount: 3, spentAttempts: 3, lastError: "HTTP 503 three times", lastErrorClass: "transient", finishedAt: new Date() } });
    await removeCaptureJob(capture!.id);

    const result = await retryCapture(capture!.id);

    expect(result.status, JSON.stringify(result.body)).toBe(202);
    const maxAttempts = (await db().providerConnection.findUniqueOrThrow({ where: { id: capture!.connectionId } })).maxAttempts;
    expect(await db().capture.findUniqueOrThrow({ where: { id: capture!.id } })).toMatchObject({ status: "queued", maxAttempts: 3 + maxAttempts, lastError: null });
    expect(await captureJob(capture!.id)).toMatchObject({ task_identifier: "capture" });
  });
});

describe("query strings with control characters", () => {
  it.each([
    ["/api/v1/prompts?q=best%00crm", listPromptsRoute, "q"],
    ["/api/v1/prompts?tag=smb%07", listPromptsRoute, "tag"],
    ["/api/v1/prompts?page=1%00", listPromptsRoute, "page"],
    ["/api/v1/checks?status=queued%00", listChecksRoute, "status"],
  ] as const)("GET %s: 400 naming the parameter (it used to be a 500 from PostgreSQL)", async (path, route, field) => {
    const error = expectApiError(await get(route, path), 400, { code: "validation_error", field });
    expect(error.message).toMatch(/control character/);
  });
});

describe("ids in the path", () => {
  it.each([
    ["GET /checks/:id", getCheck],
    ["POST /checks/:id/cancel", cancelCheck],
    ["GET /captures/:id", getCapture],
    ["POST /captures/:id/cancel", cancelCapture],
    ["POST /captures/:id/retry", retryCapture],
  ])("%s: a non-UUID id is 400 on field id, an unknown UUID is 404", async (_, call) => {
    const bad = await storesNothing(() => call("not-a-uuid"));
    const error = expectApiError(bad, 400, { code: "validation_error", field: "id" });
    expect(error.message).toMatch(/UUID/);
    expectApiError(await storesNothing(() => call(randomUUID())), 404, { code: "not_found" });
  });
});
