// The MCP server as an assistant uses it, through the SDK's own client: over streamable HTTP
// against the /api/mcp route handler served on a real HTTP port, and over stdio against the CLI
// process (`npm run beacon -- mcp`). Keys are scoped like REST v1: reading with a read key,
// starting a check only with write, nothing of another workspace. The numbers are the
// dashboards' (the chart queries called directly for the same filter).
import { randomUUID } from "node:crypto";
import { execFile } from "node:child_process";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";
import { promisify } from "node:util";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callRoute, createTenant, type Tenant } from "../support/api-fixtures";
import { setUpDemo, type Demo } from "../support/check-fixtures";
import { DELETE, GET, POST } from "@/app/api/mcp/route";
import { GET as listProvidersRoute } from "@/app/api/v1/providers/route";
import { CHARTS, type Chart, type ChartName } from "@/lib/analytics/charts";
import { resolveFilter } from "@/lib/analytics/filter";
import { analyticsFilterInput, filterFromSearchParams } from "@/lib/analytics/schemas";
import { createApiKey, revokeApiKey } from "@/lib/api-keys/api-keys";
import { db } from "@/lib/db/prisma";
import { DEMO_BRAND } from "@/lib/seed/demo-content";
import { seedDemoHistory } from "@/lib/seed/demo-history";
import { cliNodeArgs } from "@/scripts/lib/worker-bundle";

let demo: Demo;
let brandId: string;
let readKey: string;
let writeKey: string;
let B: Tenant;
let server: http.Server;
let url: URL;
const clients: Client[] = [];

const TOOLS = ["get_check", "get_numbers", "list_answers", "list_brands", "list_prompts", "list_providers", "list_top_sources", "start_check"];

/** The route handlers behind a plain Node HTTP server, as Next.js would call them. */
function serveRoute(): Promise<http.Server> {
  const handlers: Record<string, (request: Request) => Promise<Response>> = { GET, POST, DELETE };
  const httpServer = http.createServer(async (req, res) => {
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(", ") : value);
    const hasBody = req.method === "POST";
    const request = new Request(`http://127.0.0.1${req.url}`, {
      method: req.method,
      headers,
      body: hasBody ? (Readable.toWeb(req) as ReadableStream) : undefined,
      ...(hasBody ? { duplex: "half" } : {}),
    } as RequestInit);
    const handler = handlers[req.method ?? ""];
    const response = handler ? await handler(request) : new Response(null, { status: 405 });
    res.writeHead(response.status, Object.fromEntries(response.headers));
    res.end(Buffer.from(await response.arrayBuffer()));
  });
  return new Promise((resolve) => httpServer.listen(0, "127.0.0.1", () => resolve(httpServer)));
}

async function connect(transport: Transport): Promise<Client> {
  const client = new Client({ name: "beacon-tests", version: "1" });
  await client.connect(transport);
  clients.push(client);
  return client;
}

const overHttp = (apiKey: string) => connect(new StreamableHTTPClientTransport(url, { requestInit: { headers: { authorization: `Bearer ${apiKey}` } } }));

const cli = async () => [...(await cliNodeArgs()), "mcp"];
const cliEnv = (apiKey: string) => ({ ...(process.env as Record<string, string>), NODE_ENV: "production" as const, BEACON_TEST_CHEAP_PASSWORD_HASH: "", BEACON_API_KEY: apiKey });
const overStdio = async (apiKey: string) =>
  connect(new StdioClientTransport({ command: process.execPath, args: await cli(), env: cliEnv(apiKey), stderr: "pipe" }));

type ToolResult = { isError?: boolean; content: { type: string; text?: string }[] };

/** Calls a tool that must succeed; its JSON answer. */
async function call(client: Client, name: string, args: Record<string, unknown> = {}) {
  const result = (await client.callTool({ name, arguments: args })) as ToolResult;
  expect(result.isError, `${name}: ${result.content[0]?.text}`).toBeFalsy();
  return JSON.parse(result.content[0]!.text!);
}

/** Calls a tool that must be refused; its message. */
async function refusedCall(client: Client, name: string, args: Record<string, unknown> = {}): Promise<string> {
  const result = (await client.callTool({ name, arguments: args })) as ToolResult;
  expect(result.isError, `${name} should be refused: ${result.content[0]?.text}`).toBe(true);
  return result.content[0]!.text!;
}

/** The chart's own query for a query string, as JSON. */
async function direct(name: ChartName, query: string): Promise<unknown> {
  const params = new URLSearchParams(query);
  const chart: Chart = CHARTS[name];
  const resolved = await resolveFilter(demo.workspaceId, analyticsFilterInput.parse(filterFromSearchParams(params)));
  const value = await chart.query(resolved!, chart.params.parse(Object.fromEntries([...params].filter(([k]) => k in chart.params.shape))));
  return JSON.parse(JSON.stringify(value, (_k, v) => (typeof v === "bigint" ? Number(v) : v)));
}

beforeAll(async () => {
  demo = await setUpDemo();
  await seedDemoHistory(demo.workspaceId, { days: 5 });
  brandId = (await db().brand.findFirstOrThrow({ where: { workspaceId: demo.workspaceId, name: DEMO_BRAND.name } })).id;
  readKey = (await createApiKey(demo.workspaceId, { name: "mcp reader", scope: "read", createdById: demo.owner.userId! })).key;
  writeKey = (await createApiKey(demo.workspaceId, { name: "mcp writer", scope: "write", createdById: demo.owner.userId! })).key;
  B = await createTenant("Bravo");
  server = await serveRoute();
  url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/api/mcp`);
});

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await new Promise((resolve) => server?.close(resolve));
});

describe("MCP over streamable HTTP (/api/mcp)", () => {
  it("refuses a request without a valid key with 401, and the client cannot connect", async () => {
    const response = await fetch(url, { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream" }, body: "{}" });
    expect(response.status).toBe(401);
    expect((await response.json()).error.code).toBe("unauthorized");
    await expect(overHttp(`bk_00000000_${"x".repeat(40)}`)).rejects.toThrow();
  });

  it("lists the tools, and the brands, providers and prompts of the key's workspace", async () => {
    const client = await overHttp(readKey);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(TOOLS);
    const brands = await call(client, "list_brands");
    expect(brands.map((b: { id: string }) => b.id)).toEqual([brandId]);
    expect(brands[0].competitors.length).toBeGreaterThan(0);
    const providers = await call(client, "list_providers");
    expect(providers.map((p: { name: string }) => p.name)).toEqual(expect.arrayContaining(["ChatGPT", "Claude", "Gemini", "Perplexity"]));
    // What REST's GET /providers answers, in one shape (the ids are what get_numbers' providers takes).
    const rest = await callRoute(listProvidersRoute, { path: "/api/v1/providers", apiKey: readKey });
    expect(providers).toEqual(rest.body.providers);
    const prompts = await call(client, "list_prompts", { tag: "smb", pageSize: 100 });
    expect(prompts.total).toBe(await db().prompt.count({ where: { workspaceId: demo.workspaceId, tags: { has: "smb" }, deletedAt: null } }));
    expect(prompts.total).toBeGreaterThan(0);
  });

  it("reads the dashboards' numbers, each with its n and 95 % interval, for a filter", async () => {
    const client = await overHttp(readKey);
    const kpis = await call(client, "get_numbers", { chart: "kpis", brand: brandId, range: 7 });
    expect(kpis).toEqual(await direct("kpis", `brand=${brandId}&range=7`));
    expect(kpis.visibility.current.n).toBeGreaterThan(0);
    expect(kpis.visibility.current).toEqual({ value: expect.any(Number), n: kpis.captures, low: expect.any(Number), high: expect.any(Number) });

    const chatgpt = demo.providers["ChatGPT"].id;
    const filtered = await call(client, "get_numbers", { chart: "visibility", providers: [chatgpt], tags: ["smb"], range: 7 });
    expect(filtered).toEqual(await direct("visibility", `providers=${chatgpt}&tags=smb&range=7`));
    expect(await call(client, "get_numbers", { chart: "cited-pages", range: 30, page: 2, pageSize: 3 })).toEqual(await direct("cited-pages", "range=30&page=2&pageSize=3"));
    const domain = ((await direct("cited-pages", "range=30&pageSize=1")) as { items: { domain: string }[] }).items[0]!.domain;
    const byDomain = (await call(client, "get_numbers", { chart: "cited-pages", range: 30, domain })) as { items: { domain: string }[] };
    expect(byDomain).toEqual(await direct("cited-pages", `range=30&domain=${domain}`));
    expect(byDomain.items.length).toBeGreaterThan(0);
    for (const page of byDomain.items) expect(page.domain).toBe(domain);
  });

  it("lists the top sources: domains, pages and the own-domain rate, as the Sources page has them", async () => {
    const client = await overHttp(readKey);
    const sources = await call(client, "list_top_sources", { range: 30, limit: 5 });
    expect(sources.domains).toEqual(((await direct("top-domains", "range=30")) as { domains: unknown }).domains);
    expect(sources.ownDomain).toEqual(await direct("own-domain", "range=30"));
    const pages = (await direct("cited-pages", "range=30&pageSize=5")) as { items: unknown[]; total: number };
    expect(sources.pages).toEqual(pages.items);
    expect(sources.pagesTotal).toBe(pages.total);
    expect(sources.domains.length).toBeGreaterThan(0);
  });

  it("lists the answers behind a number, paged, adding up to its n and its mentions", async () => {
    const client = await overHttp(readKey);
    const kpis = await call(client, "get_numbers", { chart: "kpis", range: 7 });
    const answers: { captureId: string; brandMentioned: boolean | null }[] = [];
    let after: string | undefined;
    for (let pages = 0; pages < 50; pages++) {
      const page = await call(client, "list_answers", { range: 7, limit: 100, ...(after ? { after } : {}) });
      answers.push(...page.answers);
      if (!page.next) break;
      after = page.next;
    }
    expect(new Set(answers.map((a) => a.captureId)).size).toBe(answers.length);
    expect(answers.length).toBe(kpis.visibility.current.n);
    expect(answers.filter((a) => a.brandMentioned).length).toBe(Math.round(kpis.visibility.current.value * kpis.visibility.current.n));
    expect(await refusedCall(client, "list_answers", { after: "not-a-cursor" })).toMatch(/after/);
  });

  it("refuses bad filters with a message naming the field, and another workspace's brand as not found", async () => {
    const client = await overHttp(readKey);
    expect(await refusedCall(client, "get_numbers", { chart: "kpis", from: "2025-03-10", to: "2025-03-01" })).toMatch(/^from: /);
    expect(await refusedCall(client, "get_numbers", { chart: "kpis", markets: ["Germany"] })).toMatch(/markets/);
    expect(await refusedCall(client, "get_numbers", { chart: "kpis", range: 8 })).toMatch(/range/);
    expect(await refusedCall(client, "get_numbers", { chart: "kpis", brand: B.brandId })).toMatch(/brand does not exist/);
    expect(await refusedCall(client, "list_answers", { brand: B.brandId })).toMatch(/brand does not exist/);
  });

  it("starts a check only with a write key: a read key gets a clear error and nothing is stored", async () => {
    const reader = await overHttp(readKey);
    const checksBefore = await db().check.count({ where: { workspaceId: demo.workspaceId } });
    const message = await refusedCall(reader, "start_check", { idempotencyKey: randomUUID(), prompts: [demo.promptIds[0]], providers: ["ChatGPT"] });
    expect(message).toMatch(/cannot start checks.*its scope is read.*needs a key with scope write/);
    expect(await db().check.count({ where: { workspaceId: demo.workspaceId } })).toBe(checksBefore);
  });

  it("refuses an argument it does not know, naming it, and stores nothing: a mistyped samples starts no check of one sample", async () => {
    const writer = await overHttp(writeKey);
    const checksBefore = await db().check.count({ where: { workspaceId: demo.workspaceId } });
    const message = await refusedCall(writer, "start_check", { idempotencyKey: randomUUID(), prompts: [demo.promptIds[0]], providers: ["ChatGPT"], sampels: 3 });
    expect(message).toMatch(/sampels/);
    expect(await db().check.count({ where: { workspaceId: demo.workspaceId } })).toBe(checksBefore);
    expect(await refusedCall(writer, "get_numbers", { chart: "kpis", range: 7, brands: brandId })).toMatch(/brands/);
    expect(await refusedCall(writer, "list_answers", { range: 7, limt: 5 })).toMatch(/limt/);
  });

  it("starts a check idempotently with a write key and follows it; another workspace's key cannot see it", async () => {
    const writer = await overHttp(writeKey);
    const idempotencyKey = randomUUID();
    const args = { idempotencyKey, prompts: [demo.promptIds[0], demo.promptIds[1]], providers: ["ChatGPT", "Claude"], samples: 1 };
    const first = await call(writer, "start_check", args);
    expect(first.replayed).toBe(false);
    expect(first.check).toMatchObject({ status: "queued", counts: { total: 4 } });
    const again = await call(writer, "start_check", args);
    expect(again).toMatchObject({ replayed: true, check: { id: first.check.id } });
    expect(await db().check.count({ where: { workspaceId: demo.workspaceId, idempotencyKey } })).toBe(1);
    expect(await refusedCall(writer, "start_check", { ...args, samples: 2 })).toMatch(/already used for a different request/);

    const followed = await call(writer, "get_check", { checkId: first.check.id });
    expect(followed).toMatchObject({ id: first.check.id, status: "queued", counts: { total: 4, queued: 4 } });

    const other = await overHttp(B.apiKey);
    expect(await refusedCall(other, "get_check", { checkId: first.check.id })).toMatch(/does not exist/);
  });
});

describe("MCP over stdio (npm run beacon -- mcp)", () => {
  it("serves the same tools for the key in BEACON_API_KEY, with its scope", async () => {
    const client = await overStdio(readKey);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(TOOLS);
    expect(await call(client, "get_numbers", { chart: "kpis", range: 7 })).toEqual(await direct("kpis", "range=7"));
    expect(await refusedCall(client, "start_check", { idempotencyKey: randomUUID(), providers: ["ChatGPT"] })).toMatch(/its scope is read/);
  });

  it("checks the key on every call: once revoked, the running session reads nothing more", async () => {
    const key = await createApiKey(demo.workspaceId, { name: "mcp soon revoked", scope: "read", createdById: demo.owner.userId! });
    const client = await overStdio(key.key);
    expect((await call(client, "list_brands")).length).toBe(1);
    await revokeApiKey(demo.workspaceId, key.id);
    expect(await refusedCall(client, "list_brands")).toMatch(/not valid, was revoked/);
  });

  it("exits with 2 and says why when the key is missing or not valid", async () => {
    const run = promisify(execFile);
    for (const apiKey of ["", `bk_00000000_${"x".repeat(40)}`]) {
      const outcome = await run(process.execPath, await cli(), { env: cliEnv(apiKey), timeout: 60_000 }).then(
        () => ({ code: 0, stderr: "" }),
        (error: { code: number; stderr: string }) => error,
      );
      expect(outcome.code).toBe(2);
      expect(outcome.stderr).toMatch(/BEACON_API_KEY/);
    }
  });
});
