// Crawler hits from access logs (issue 21, docs/traffic.md): POST /api/v1/traffic/logs over a real
// HTTP socket (plain and gzip bodies, per-line errors, own domains only, scopes, the size limit),
// and the daily rollup equal to the raw rows' aggregation for any batch of hits, also after the
// retention deleted raw rows (the rollup stays).
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";
import { gzipSync } from "node:zlib";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callRoute, createTenant, twoPartBody, type Tenant } from "../support/api-fixtures";
import { POST as importLogsRoute } from "@/app/api/v1/traffic/logs/route";
import { createApiKey, revokeApiKey } from "@/lib/api-keys/api-keys";
import { db } from "@/lib/db/prisma";
import { runRetention } from "@/lib/jobs/retention";
import { storeHits, type StoredHit } from "@/lib/traffic/store";
import { VERIFICATIONS } from "@/lib/traffic/verify";

const GPTBOT = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.1; +https://openai.com/gptbot)";
const CLAUDE_USER = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Claude-User/1.0; +Claude-User@anthropic.com)";
const CHROME = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";

let A: Tenant;
let B: Tenant;
let server: http.Server;
let base: string;

beforeAll(async () => {
  A = await createTenant("Traffic");
  B = await createTenant("Other");
  await db().brand.update({ where: { id: A.brandId }, data: { domains: ["acme-traffic.com"] } });
  await db().brand.update({ where: { id: B.brandId }, data: { domains: ["other-traffic.com", "other-traffic.io"] } });
  // The route handler behind a real socket, as Next.js serves it: the body arrives in chunks.
  server = http.createServer((req, res) => {
    const request = new Request(`http://127.0.0.1${req.url}`, {
      method: req.method,
      headers: Object.entries(req.headers).flatMap(([k, v]) => (typeof v === "string" ? [[k, v] as [string, string]] : [])),
      body: Readable.toWeb(req) as ReadableStream,
      duplex: "half",
    } as RequestInit);
    void importLogsRoute(request, { params: Promise.resolve({}) }).then(async (response) => {
      res.writeHead(response.status, Object.fromEntries(response.headers));
      res.end(Buffer.from(await response.arrayBuffer()));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

async function post(body: Buffer | string, options: { key?: string; query?: string; headers?: Record<string, string> } = {}) {
  const response = await fetch(`${base}/api/v1/traffic/logs${options.query ?? ""}`, {
    method: "POST",
    headers: { authorization: `Bearer ${options.key ?? A.apiKey}`, ...options.headers },
    body: typeof body === "string" ? body : new Uint8Array(body),
  });
  return { status: response.status, body: (await response.json()) as { import: Record<string, unknown> & { errors: { line: number }[] }; error?: { code: string; message: string } } };
}

const combined = (ip: string, path: string, ua: string, status = 200, time = "08/Dec/2026:10:00:00 +0000") => `${ip} - - [${time}] "GET ${path} HTTP/1.1" ${status} 512 "-" "${ua}"`;

const rollup = (workspaceId: string) =>
  db().trafficDaily.findMany({ where: { workspaceId }, orderBy: [{ day: "asc" }, { path: "asc" }, { crawler: "asc" }, { verification: "asc" }], select: { day: true, domain: true, path: true, crawler: true, verification: true, hits: true, errors: true } });

describe("POST /api/v1/traffic/logs", () => {
  it("imports a gzip combined log (by magic bytes): crawler hits kept and verified, browsers skipped, a malformed line reported by number", async () => {
    const log = [
      combined("20.171.206.17", "/pricing?utm_source=x", GPTBOT),
      combined("203.0.113.50", "/pricing", GPTBOT),
      combined("2001:db8::5", "/docs", CLAUDE_USER, 404),
      combined("198.51.100.1", "/", CHROME),
      `20.171.206.17 - - [08/Dec/2026:10:00:00 +0000] "GET /cut`,
      combined("20.171.206.17", "/pricing", GPTBOT, 200, "09/Dec/2026:00:30:00 +0100"),
    ].join("\n");
    const { status, body } = await post(gzipSync(log));
    expect(status, JSON.stringify(body)).toBe(200);
    expect(body.import).toMatchObject({ format: "combined", lines: 6, requests: 5, stored: 4, skipped: { otherHost: 0, notCrawler: 1 }, errorCount: 1 });
    expect(body.import.errors).toEqual([{ line: 5, message: expect.stringMatching(/not a combined log line/) }]);
    expect(body.import.byCrawler).toEqual({ GPTBot: { verified: 2, unverified: 1, unchecked: 0 }, "Claude-User": { verified: 0, unverified: 0, unchecked: 1 } });
    const day = (d: string) => new Date(`${d}T00:00:00Z`);
    expect(await rollup(A.workspaceId)).toEqual([
      { day: day("2026-12-08"), domain: "acme-traffic.com", path: "/docs", crawler: "Claude-User", verification: "unchecked", hits: 1, errors: 1 },
      { day: day("2026-12-08"), domain: "acme-traffic.com", path: "/pricing", crawler: "GPTBot", verification: "unverified", hits: 1, errors: 0 },
      { day: day("2026-12-08"), domain: "acme-traffic.com", path: "/pricing", crawler: "GPTBot", verification: "verified", hits: 2, errors: 0 },
    ]);
    // Nothing about the client is stored beyond the verdict.
    const columns = await db().$queryRaw<{ column_name: string }[]>`SELECT column_name FROM information_schema.columns WHERE table_name = 'traffic_hits'`;
    expect(columns.map((c) => c.column_name).sort()).toEqual(["at", "crawler", "day", "domain", "id", "path", "status", "verification", "workspaceId"]);
  });

  it("imports Cloudflare NDJSON sent with Content-Encoding: gzip, counting other hosts as skipped, in the key's workspace only", async () => {
    const record = (host: string, uri: string) => JSON.stringify({ ClientIP: "51.8.102.9", ClientRequestHost: host, ClientRequestURI: uri, ClientRequestUserAgent: "Mozilla/5.0 (compatible; OAI-SearchBot/1.0; +https://openai.com/searchbot)", EdgeStartTimestamp: "2026-12-07T08:00:00Z", EdgeResponseStatus: 200 });
    const log = [record("www.other-traffic.com", "/a"), record("blog.other-traffic.io", "/b"), record("acme-traffic.com", "/c"), "{not json"].join("\n");
    const { status, body } = await post(gzipSync(log), { key: B.apiKey, headers: { "content-encoding": "gzip" } });
    expect(status, JSON.stringify(body)).toBe(200);
    expect(body.import).toMatchObject({ format: "cloudflare", stored: 2, skipped: { otherHost: 1, notCrawler: 0 }, errorCount: 1, errors: [{ line: 4, message: "not valid JSON" }] });
    expect((await rollup(B.workspaceId)).map((r) => [r.domain, r.path, r.verification])).toEqual([
      ["other-traffic.com", "/a", "verified"],
      ["blog.other-traffic.io", "/b", "verified"],
    ]);
  });

  it("reports a line whose time is past year 9999 (a nanosecond timestamp gone wrong) by its number, and keeps the rest of its batch", async () => {
    const record = (uri: string, at: unknown) => JSON.stringify({ ClientIP: "51.8.102.9", ClientRequestHost: "other-traffic.com", ClientRequestURI: uri, ClientRequestUserAgent: "Mozilla/5.0 (compatible; OAI-SearchBot/1.0; +https://openai.com/searchbot)", EdgeStartTimestamp: at, EdgeResponseStatus: 200 });
    const log = [record("/in-range", 1_796_630_400_000_000_000), record("/year-65000", 2e21), record("/in-range", "2026-12-07T09:00:00Z")].join("\n");
    const { status, body } = await post(Buffer.from(log), { key: B.apiKey });
    expect(status, JSON.stringify(body)).toBe(200);
    expect(body.import).toMatchObject({ stored: 2, errorCount: 1, errors: [{ line: 2, message: expect.stringMatching(/EdgeStartTimestamp/) }] });
    expect((await rollup(B.workspaceId)).filter((r) => r.path === "/in-range" || r.path === "/year-65000").map((r) => [r.path, r.hits])).toEqual([["/in-range", 2]]);
  });

  it("reports a host with a control character (a NUL stored nothing and failed the import) by its line, and keeps the rest", async () => {
    const line = (host: string, path: string) => JSON.stringify({ ClientRequestHost: host, ClientRequestURI: path, ClientRequestUserAgent: GPTBOT, ClientIP: "20.171.206.17", EdgeStartTimestamp: "2026-12-08T10:00:00Z", EdgeResponseStatus: 200 });
    const path = `/nul-host-${Date.now()}`;
    const { status, body } = await post([line("acme-traffic.com\u0000", path), line("acme-traffic.com\u0001", path), line("acme-traffic.com", path)].join("\n"));
    expect(status, JSON.stringify(body)).toBe(200);
    expect(body.import).toMatchObject({ stored: 1, errorCount: 2 });
    expect(body.import.errors).toEqual([{ line: 1, message: "the host contains a control character" }, { line: 2, message: "the host contains a control character" }]);
    expect(await db().trafficHit.findMany({ where: { workspaceId: A.workspaceId, path }, select: { domain: true } })).toEqual([{ domain: "acme-traffic.com" }]);
  });

  it("needs a host for a log without one when the workspace has several domains", async () => {
    const { body } = await post(combined("1.2.3.4", "/x", GPTBOT), { key: B.apiKey });
    expect(body.import).toMatchObject({ stored: 0, errorCount: 1 });
    const withHost = await post(combined("1.2.3.4", "/x", GPTBOT), { key: B.apiKey, query: "?host=other-traffic.io&format=combined" });
    expect(withHost.body.import).toMatchObject({ stored: 1, errorCount: 0 });
  });

  it("stores a log without a host under the workspace's only domain as the brand lists it, a subdomain too (not its site)", async () => {
    const S = await createTenant("Traffic subdomain");
    await db().brand.update({ where: { id: S.brandId }, data: { domains: ["shop.acme-sub.com"] } });
    const { body } = await post(combined("1.2.3.4", "/cart", GPTBOT), { key: S.apiKey, query: "?format=combined" });
    expect(body.import).toMatchObject({ stored: 1, errorCount: 0 });
    expect((await rollup(S.workspaceId)).map((r) => `${r.domain}${r.path}`)).toEqual(["shop.acme-sub.com/cart"]);
  });

  it("refuses a read key, an unknown format, corrupt gzip and a body over the limit", async () => {
    const read = await createApiKey(A.workspaceId, { name: "read", scope: "read", createdById: A.userId });
    expect((await post(combined("1.2.3.4", "/x", GPTBOT), { key: read.key })).status).toBe(403);
    const unknown = await post("hello\nworld");
    expect(unknown.status).toBe(400);
    expect(unknown.body.error?.message).toMatch(/Line 1: not a log format/);
    // Cut short: the lines before the break are read, the break is reported where it is.
    const lines = Array.from({ length: 3000 }, (_, i) => combined("20.171.206.17", `/cut/${i}`, GPTBOT)).join("\n");
    const zipped = gzipSync(lines);
    const corrupt = await post(zipped.subarray(0, Math.floor(zipped.length / 2)));
    expect(corrupt.status).toBe(200);
    const linesRead = corrupt.body.import.lines as number;
    expect(linesRead).toBeGreaterThan(0);
    expect(linesRead).toBeLessThan(3000);
    expect(corrupt.body.import.errors).toEqual([{ line: linesRead + 1, message: expect.stringMatching(/gzip data is corrupt or cut short/) }]);
    // A gzip bomb: a small body that inflates past BEACON_TRAFFIC_UPLOAD_MAX_MB (100 MB by default).
    const bomb = await post(gzipSync(Buffer.alloc(101_000_000, 0x20)));
    expect(bomb.status).toBe(413);
    expect(bomb.body.error?.code).toBe("payload_too_large");
  });

  it("a log that passes the limit once inflated: the lines before it are stored, and the 413 says which, so the rest can follow", async () => {
    const before = await db().trafficHit.count({ where: { workspaceId: A.workspaceId } });
    const lines = Array.from({ length: 2000 }, (_, i) => combined("20.171.206.17", `/over/${i}`, GPTBOT)).join("\n");
    const over = await post(gzipSync(Buffer.concat([Buffer.from(`${lines}\n`), Buffer.alloc(101_000_000, 0x20)])));
    expect(over.status).toBe(413);
    expect(over.body.error?.code).toBe("payload_too_large");
    expect(over.body.error?.message).toMatch(/first 2,000 lines were imported \(2,000 hits stored\): import the rest from line 2,001 on/);
    expect(await db().trafficHit.count({ where: { workspaceId: A.workspaceId } })).toBe(before + 2000);
  });
});

describe("the daily rollup", () => {
  const hit = fc.record({
    at: fc.date({ min: new Date("2026-09-01T00:00:00Z"), max: new Date("2026-12-31T23:59:59Z"), noInvalidDate: true }),
    domain: fc.constantFrom("acme.com", "docs.acme.com"),
    path: fc.constantFrom("/", "/a", "/b", "/c/d"),
    crawler: fc.constantFrom("GPTBot", "ClaudeBot", "PerplexityBot"),
    verification: fc.constantFrom(...VERIFICATIONS),
    status: fc.constantFrom(200, 301, 404, 503),
  });

  it("stores nothing more once its key is revoked during the upload: the chunk that would commit after is rolled back, 403", async () => {
    const { key, id } = await createApiKey(A.workspaceId, { name: "slow upload", scope: "write", createdById: A.userId });
    const path = `/revoked-${Date.now()}`;
    const line = combined("20.15.240.64", path, GPTBOT);
    // The route authenticates, starts reading the body, and waits for the rest.
    const { body, started, sendRest } = twoPartBody(`${line}\n`.repeat(5), `${line}\n`.repeat(5));
    const importing = callRoute(importLogsRoute, { method: "POST", path: "/api/v1/traffic/logs", apiKey: key, body });
    await started;
    await revokeApiKey(A.workspaceId, id);
    sendRest();

    const result = await importing;
    expect(result.status, JSON.stringify(result.body)).toBe(403);
    expect(await db().trafficDaily.count({ where: { workspaceId: A.workspaceId, path } }), "no hit of the upload stored").toBe(0);
  });

  it("equals the raw rows' aggregation after any batches, and keeps the counts when retention deletes the raw rows", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.array(hit, { maxLength: 40 }), { minLength: 1, maxLength: 4 }), fc.integer({ min: 1, max: 9 }), async (batches: StoredHit[][], batchSize: number) => {
        const tenant = await createTenant("Rollup");
        await Promise.all(batches.map((b) => storeHits(tenant.workspaceId, b)));
        const raw = await db().$queryRaw<{ day: Date; domain: string; path: string; crawler: string; verification: string; hits: number; errors: number }[]>`
          SELECT day, domain, path, crawler, verification, count(*)::int AS hits, (count(*) FILTER (WHERE status >= 400))::int AS errors
          FROM traffic_hits WHERE "workspaceId" = ${tenant.workspaceId}::uuid
          GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 3, 4, 5, 2`;
        const before = await db().trafficDaily.findMany({ where: { workspaceId: tenant.workspaceId }, orderBy: [{ day: "asc" }, { path: "asc" }, { crawler: "asc" }, { verification: "asc" }, { domain: "asc" }], omit: { workspaceId: true } });
        expect(before).toEqual(raw);
        expect(raw.reduce((n, r) => n + r.hits, 0)).toBe(batches.flat().length);
        // Retention one day after the newest hit with 30 days: the older raw rows go, the rollup stays.
        // Deleted in batches of `batchSize` rows: exactly the older ones go, however the batches fall.
        const cutoff = new Date("2026-12-02T00:00:00Z");
        const kept = batches.flat().filter((h) => h.at >= cutoff).length;
        await runRetention({ attemptRetentionDays: 3650, trafficHitRetentionDays: 30, now: new Date("2027-01-01T00:00:00Z"), trafficHitBatchSize: batchSize });
        expect(await db().trafficHit.count({ where: { workspaceId: tenant.workspaceId, day: { lt: cutoff } } })).toBe(0);
        expect(await db().trafficHit.count({ where: { workspaceId: tenant.workspaceId } })).toBe(kept);
        expect(await db().trafficDaily.findMany({ where: { workspaceId: tenant.workspaceId }, orderBy: [{ day: "asc" }, { path: "asc" }, { crawler: "asc" }, { verification: "asc" }, { domain: "asc" }], omit: { workspaceId: true } })).toEqual(before);
      }),
      { numRuns: 15 },
    );
  });

  it("goes with its workspace: deleting one deletes its hits and rollups, and a batch for a deleted one stores nothing", async () => {
    const tables = ["traffic_hits", "traffic_daily", "traffic_crawls_daily", "traffic_pages_daily", "traffic_pages_weekly", "traffic_pages_monthly"];
    const rowsOf = async (workspaceId: string) =>
      Object.fromEntries(await Promise.all(tables.map(async (t) => [t, Number((await db().$queryRawUnsafe<{ n: number }[]>(`SELECT count(*)::int AS n FROM ${t} WHERE "workspaceId" = $1::uuid`, workspaceId))[0]!.n)])));
    const gone = await createTenant("Deleted");
    const kept = await createTenant("Kept");
    const batch: StoredHit[] = [{ at: new Date("2026-12-01T10:00:00Z"), domain: "acme.com", path: "/a", crawler: "GPTBot", verification: "verified", status: 200 }];
    await storeHits(gone.workspaceId, batch);
    await storeHits(kept.workspaceId, batch);
    expect(await rowsOf(gone.workspaceId)).toEqual(Object.fromEntries(tables.map((t) => [t, 1])));
    await db().workspace.delete({ where: { id: gone.workspaceId } });
    expect(await rowsOf(gone.workspaceId)).toEqual(Object.fromEntries(tables.map((t) => [t, 0])));
    expect(await rowsOf(kept.workspaceId)).toEqual(Object.fromEntries(tables.map((t) => [t, 1])));
    await expect(storeHits(gone.workspaceId, batch)).rejects.toThrow();
    expect(await rowsOf(gone.workspaceId)).toEqual(Object.fromEntries(tables.map((t) => [t, 0])));
  });

  it("has rollups per day without the path, per day and page, per week and page and per month and page that equal the raw rows' sums, also after retention", async () => {
    const sums = (workspaceId: string, from: "traffic_hits" | "rollups") =>
      from === "traffic_hits"
        ? db().$queryRaw<{ crawls: unknown; pagesDaily: unknown; pagesWeekly: unknown; pagesMonthly: unknown }[]>`
            WITH h AS (SELECT * FROM traffic_hits WHERE "workspaceId" = ${workspaceId}::uuid)
            SELECT (SELECT coalesce(jsonb_agg(x ORDER BY x::text), '[]') FROM (SELECT day, domain, crawler, verification, count(*) AS hits, count(*) FILTER (WHERE status >= 400) AS errors FROM h GROUP BY 1, 2, 3, 4) x) AS crawls,
                   (SELECT coalesce(jsonb_agg(x ORDER BY x::text), '[]') FROM (SELECT day, domain, path, count(*) AS hits, count(*) FILTER (WHERE status >= 400) AS errors FROM h GROUP BY 1, 2, 3) x) AS "pagesDaily",
                   (SELECT coalesce(jsonb_agg(x ORDER BY x::text), '[]') FROM (SELECT date_trunc('week', day)::date AS week, domain, path, count(*) AS hits, count(*) FILTER (WHERE status >= 400) AS errors FROM h GROUP BY 1, 2, 3) x) AS "pagesWeekly",
                   (SELECT coalesce(jsonb_agg(x ORDER BY x::text), '[]') FROM (SELECT date_trunc('month', day)::date AS month, domain, path, count(*) AS hits, count(*) FILTER (WHERE status >= 400) AS errors FROM h GROUP BY 1, 2, 3) x) AS "pagesMonthly"`
        : db().$queryRaw<{ crawls: unknown; pagesDaily: unknown; pagesWeekly: unknown; pagesMonthly: unknown }[]>`
            SELECT (SELECT coalesce(jsonb_agg(x ORDER BY x::text), '[]') FROM (SELECT day, domain, crawler, verification, hits, errors FROM traffic_crawls_daily WHERE "workspaceId" = ${workspaceId}::uuid) x) AS crawls,
                   (SELECT coalesce(jsonb_agg(x ORDER BY x::text), '[]') FROM (SELECT day, domain, path, hits, errors FROM traffic_pages_daily WHERE "workspaceId" = ${workspaceId}::uuid) x) AS "pagesDaily",
                   (SELECT coalesce(jsonb_agg(x ORDER BY x::text), '[]') FROM (SELECT week, domain, path, hits, errors FROM traffic_pages_weekly WHERE "workspaceId" = ${workspaceId}::uuid) x) AS "pagesWeekly",
                   (SELECT coalesce(jsonb_agg(x ORDER BY x::text), '[]') FROM (SELECT month, domain, path, hits, errors FROM traffic_pages_monthly WHERE "workspaceId" = ${workspaceId}::uuid) x) AS "pagesMonthly"`;
    await fc.assert(
      fc.asyncProperty(fc.array(fc.array(hit, { maxLength: 40 }), { minLength: 1, maxLength: 4 }), async (batches: StoredHit[][]) => {
        const tenant = await createTenant("Rollups");
        await Promise.all(batches.map((b) => storeHits(tenant.workspaceId, b)));
        const [raw] = await sums(tenant.workspaceId, "traffic_hits");
        const [rollups] = await sums(tenant.workspaceId, "rollups");
        expect(rollups).toEqual(raw);
        await runRetention({ attemptRetentionDays: 3650, trafficHitRetentionDays: 30, now: new Date("2027-01-01T00:00:00Z") });
        expect((await sums(tenant.workspaceId, "rollups"))[0]).toEqual(raw);
      }),
      { numRuns: 15 },
    );
  });
});
