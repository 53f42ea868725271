// An access log import sent with an Idempotency-Key (docs/traffic.md, lib/traffic/import-record.ts):
// sent again after it ended, it returns its report and stores nothing; sent again after an upload
// broke off, it stores only the lines not yet stored; two at once, one waits; one whose process
// stopped renewing its lease is taken over, and its held chunk rolls back. The invariant each test
// checks: every crawl of the log is stored once, raw rows and rollups alike.
import { randomUUID } from "node:crypto";
import { gzipSync } from "node:zlib";
import { beforeAll, describe, expect, it } from "vitest";
import { callRoute, createTenant, twoPartBody, type Tenant } from "../support/api-fixtures";
import { waitFor } from "../support/wait-for";
import { gateAt } from "../support/pause";
import { POST as importLogsRoute } from "@/app/api/v1/traffic/logs/route";
import { reloadEnv } from "@/lib/config/env";
import { db } from "@/lib/db/prisma";
import { runRetention } from "@/lib/jobs/retention";

const GPTBOT = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.1; +https://openai.com/gptbot)";
const CHROME = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";

let A: Tenant;

beforeAll(async () => {
  A = await createTenant("Idempotent import");
  await db().brand.update({ where: { id: A.brandId }, data: { domains: ["acme-idem.com"] } });
});

// Yesterday, 10:00 UTC, in the log's format: a fixed day falls out of the raw hits' retention
// (BEACON_TRAFFIC_HIT_RETENTION_DAYS), which one test runs, once enough time has passed.
const yesterday = new Date(Date.now() - 86_400_000);
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const WHEN = `${String(yesterday.getUTCDate()).padStart(2, "0")}/${MONTHS[yesterday.getUTCMonth()]}/${yesterday.getUTCFullYear()}:10:00:00 +0000`;
const line = (path: string, ua = GPTBOT) => `20.171.206.17 - - [${WHEN}] "GET ${path} HTTP/1.1" 200 512 "-" "${ua}"`;
/** A log of `n` crawler lines (every fourth a browser's, stored by no one) under its own paths. */
const logOf = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => line(`/${prefix}/${i % 50}`, i % 4 === 3 ? CHROME : GPTBOT)).join("\n") + "\n";
const crawlsIn = (n: number) => n - Math.floor(n / 4);

type Report = { stored: number; lines: number; requests: number; errorCount: number; skipped: { notCrawler: number } };
type Answer = { status: number; body: { import: Report; error?: { code: string; message: string } } };

function send(body: BodyInit, key: string | null, query = ""): Promise<Answer> {
  return callRoute(importLogsRoute, {
    method: "POST",
    path: `/api/v1/traffic/logs${query}`,
    apiKey: A.apiKey,
    headers: key ? { "idempotency-key": key } : {},
    body,
  }) as Promise<Answer>;
}

/** Raw hits and the daily rollup's sum for the paths under `prefix`. */
async function stored(prefix: string) {
  const raw = await db().trafficHit.count({ where: { workspaceId: A.workspaceId, path: { startsWith: `/${prefix}/` } } });
  const rollup = await db().trafficDaily.aggregate({ where: { workspaceId: A.workspaceId, path: { startsWith: `/${prefix}/` } }, _sum: { hits: true } });
  return { raw, rollup: rollup._sum.hits ?? 0 };
}

/** A body that sends `first` and then breaks off, as a dropped connection does. */
function brokenBody(first: string) {
  let sent = false;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent) return controller.error(new Error("socket hang up"));
      sent = true;
      controller.enqueue(new TextEncoder().encode(first));
    },
  });
}

describe("POST /api/v1/traffic/logs with an Idempotency-Key", () => {
  it("sent again after it ended: the same report, nothing stored again; without a key it would count twice", async () => {
    const prefix = `again-${randomUUID().slice(0, 8)}`;
    const log = logOf(prefix, 40);
    const key = randomUUID();
    const first = await send(log, key);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.import).toMatchObject({ lines: 40, requests: 40, stored: crawlsIn(40), skipped: { notCrawler: 10 } });

    const again = await send(gzipSync(log), key); // the same lines, gzipped this time
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body.import).toEqual(first.body.import);
    expect(await stored(prefix)).toEqual({ raw: crawlsIn(40), rollup: crawlsIn(40) });
  });

  it("refuses the key with another log or another host (422) and stores nothing", async () => {
    const prefix = `other-${randomUUID().slice(0, 8)}`;
    const key = randomUUID();
    expect((await send(logOf(prefix, 8), key)).status).toBe(200);

    const otherLog = await send(logOf(prefix, 9), key);
    expect(otherLog.status).toBe(422);
    expect(otherLog.body.error).toMatchObject({ code: "idempotency_key_reused", message: expect.stringMatching(/another log/) });
    const otherHost = await send(logOf(prefix, 8), key, "?host=acme-idem.com");
    expect(otherHost.status).toBe(422);
    expect(otherHost.body.error?.message).toMatch(/another format or host/);
    expect(await stored(prefix)).toEqual({ raw: crawlsIn(8), rollup: crawlsIn(8) });

    const badKey = await send(logOf(prefix, 8), "short");
    expect(badKey.status).toBe(400);
    expect(await stored(prefix)).toEqual({ raw: crawlsIn(8), rollup: crawlsIn(8) });
  });

  it("a request refused before it stored anything (a format not recognised) leaves the key free for the same log with its format", async () => {
    const prefix = `format-${randomUUID().slice(0, 8)}`;
    const key = randomUUID();
    const unknown = await send("this is not a log line\nnor this one\n", key);
    expect(unknown.status, JSON.stringify(unknown.body)).toBe(400);
    const withFormat = await send(logOf(prefix, 8), key, "?format=combined");
    expect(withFormat.status, JSON.stringify(withFormat.body)).toBe(200);
    expect(await stored(prefix)).toEqual({ raw: crawlsIn(8), rollup: crawlsIn(8) });
    // Once it has stored lines, the key is the log's, with its format.
    expect((await send(logOf(prefix, 8), key)).status).toBe(422);
  });

  it("an upload that broke off after a chunk committed: sent again, only the lines not stored yet are stored", async () => {
    const prefix = `broken-${randomUUID().slice(0, 8)}`;
    const key = randomUUID();
    const total = 9_000;
    const log = logOf(prefix, total);
    // The first 8,000 lines arrive, then the connection drops: the batches read so far commit.
    const cut = log.split("\n").slice(0, 8_000).join("\n") + "\n";
    const broken = await send(brokenBody(cut), key);
    expect(broken.status).toBeGreaterThanOrEqual(400);
    const record = await db().trafficImport.findUniqueOrThrow({ where: { workspaceId_key: { workspaceId: A.workspaceId, key } } });
    expect(record.state).toBe("interrupted");
    expect(record.committedLines, "a chunk committed before the break").toBeGreaterThan(0);
    expect(await stored(prefix)).toEqual({ raw: record.committedHits, rollup: record.committedHits });

    const resent = await send(log, key);
    expect(resent.status, JSON.stringify(resent.body)).toBe(200);
    expect(resent.body.import).toMatchObject({ lines: total, requests: total, stored: crawlsIn(total) });
    expect(await stored(prefix)).toEqual({ raw: crawlsIn(total), rollup: crawlsIn(total) });
    // And once more: the report, nothing stored.
    expect((await send(log, key)).body.import).toEqual(resent.body.import);
    expect(await stored(prefix)).toEqual({ raw: crawlsIn(total), rollup: crawlsIn(total) });
  });

  it("resumed after the brand's domains changed, its lines without a host still go to the site the import began with", async () => {
    const prefix = `moved-${randomUUID().slice(0, 8)}`;
    const key = randomUUID();
    const total = 9_000;
    const log = logOf(prefix, total); // combined lines: no host, so the workspace's only domain
    expect((await send(brokenBody(log.split("\n").slice(0, 8_000).join("\n") + "\n"), key)).status).toBeGreaterThanOrEqual(400);
    const { committedHits } = await db().trafficImport.findUniqueOrThrow({ where: { workspaceId_key: { workspaceId: A.workspaceId, key } } });
    expect(committedHits).toBeGreaterThan(0);
    // A second domain is added meanwhile: a new log without a host would need `host` now.
    await db().brand.update({ where: { id: A.brandId }, data: { domains: ["acme-idem.com", "acme-idem-shop.com"] } });
    try {
      const resent = await send(log, key);
      expect(resent.status, JSON.stringify(resent.body)).toBe(200);
      expect(resent.body.import).toMatchObject({ lines: total, stored: crawlsIn(total), errorCount: 0 });
      const byDomain = await db().trafficHit.groupBy({ by: ["domain"], where: { workspaceId: A.workspaceId, path: { startsWith: `/${prefix}/` } }, _count: true });
      expect(byDomain).toEqual([{ domain: "acme-idem.com", _count: crawlsIn(total) }]);
    } finally {
      await db().brand.update({ where: { id: A.brandId }, data: { domains: ["acme-idem.com"] } });
    }
  });

  it("a gzip cut short is a log that broke off: the whole file sent again with the key stores the rest, nothing twice", async () => {
    const prefix = `gzcut-${randomUUID().slice(0, 8)}`;
    const log = logOf(prefix, 600);
    const gz = gzipSync(log);
    const key = randomUUID();
    const cut = await send(gz.subarray(0, Math.floor(gz.length * 0.6)), key);
    expect(cut.status, JSON.stringify(cut.body)).toBe(200);
    const first = await stored(prefix);
    expect(first.raw).toBeLessThan(crawlsIn(600));
    const whole = await send(gz, key);
    expect(whole.status, JSON.stringify(whole.body)).toBe(200);
    expect(whole.body.import).toMatchObject({ lines: 600, stored: crawlsIn(600) });
    expect(await stored(prefix)).toEqual({ raw: crawlsIn(600), rollup: crawlsIn(600) });
  });

  it("refuses to resume with a log whose stored lines differ, storing nothing", async () => {
    const prefix = `differ-${randomUUID().slice(0, 8)}`;
    const key = randomUUID();
    const log = logOf(prefix, 8_000);
    await send(brokenBody(log), key);
    const before = await stored(prefix);
    expect(before.raw).toBeGreaterThan(0);
    const other = await send(logOf(`${prefix}x`, 8_000), key);
    expect(other.status).toBe(422);
    expect(other.body.error?.message).toMatch(/already stored, differ/);
    const shorter = await send(log.split("\n").slice(0, 100).join("\n"), key); // its first lines only
    expect(shorter.status).toBe(422);
    expect(await stored(prefix)).toEqual(before);
    expect(await stored(`${prefix}x`)).toEqual({ raw: 0, rollup: 0 });
  });

  it("two requests at once with one key: the second is refused (409) while the first runs, and gets the report after", async () => {
    const prefix = `twice-${randomUUID().slice(0, 8)}`;
    const key = randomUUID();
    const log = logOf(prefix, 100);
    const held = gateAt("traffic:import-before-rollups");
    const first = send(log, key);
    await held.reached;
    const second = await send(log, key);
    expect(second.status).toBe(409);
    expect(second.body.error).toMatchObject({ code: "import_in_progress", message: expect.stringMatching(/still running/) });
    held.open();
    expect((await first).status).toBe(200);
    const third = await send(log, key);
    expect(third.status).toBe(200);
    expect(third.body.import.stored).toBe(crawlsIn(100));
    expect(await stored(prefix)).toEqual({ raw: crawlsIn(100), rollup: crawlsIn(100) });
  });

  it("an import whose lease passed (its process stopped) is taken over; the first one's held chunk then rolls back", async () => {
    const prefix = `takeover-${randomUUID().slice(0, 8)}`;
    const key = randomUUID();
    const log = logOf(prefix, 100);
    const held = gateAt("traffic:import-before-rollups");
    const first = send(log, key);
    await held.reached;
    // The first request's process froze: its lease runs out.
    await db().trafficImport.update({ where: { workspaceId_key: { workspaceId: A.workspaceId, key } }, data: { leaseUntil: new Date(Date.now() - 3_600_000) } });
    const second = await send(log, key);
    expect(second.status, JSON.stringify(second.body)).toBe(200);
    expect(second.body.import.stored).toBe(crawlsIn(100));
    held.open();
    const late = await first;
    expect(late.status).toBe(409);
    expect(late.body.error?.message).toMatch(/took this import over/);
    expect(await stored(prefix)).toEqual({ raw: crawlsIn(100), rollup: crawlsIn(100) });
  });

  it("a key whose 24 hours passed while its import still runs is not started afresh (409), and a stored chunk renews them", async () => {
    const prefix = `expiring-${randomUUID().slice(0, 8)}`;
    const key = randomUUID();
    const where = { workspaceId_key: { workspaceId: A.workspaceId, key } };
    const log = logOf(prefix, 8_000);
    // A first request stores a chunk and breaks off; a second one resumes and is held in its chunk.
    await send(brokenBody(log), key);
    const committed = await db().trafficImport.findUniqueOrThrow({ where });
    expect(committed.committedLines).toBeGreaterThan(0);
    expect(committed.expiresAt.getTime(), "the stored chunk renewed the key's 24 hours").toBeGreaterThan(committed.createdAt.getTime());
    const held = gateAt("traffic:import-before-rollups");
    const resumed = send(log, key);
    await held.reached;
    await db().trafficImport.update({ where, data: { expiresAt: new Date(Date.now() - 60_000) } });
    const meanwhile = await send(log, key);
    expect(meanwhile.status, "a running import is never restarted").toBe(409);
    held.open();
    expect((await resumed).status).toBe(200);
    expect(await stored(prefix)).toEqual({ raw: crawlsIn(8_000), rollup: crawlsIn(8_000) });
  });

  it("a body that stalls renews nothing: its lease lapses and the same request sent again takes the import over", async () => {
    const prefix = `stalled-${randomUUID().slice(0, 8)}`;
    const key = randomUUID();
    const where = { workspaceId_key: { workspaceId: A.workspaceId, key } };
    const lines = logOf(prefix, 200).split("\n");
    const first = lines.slice(0, 100).join("\n") + "\n";
    const rest = lines.slice(100).join("\n");
    process.env.BEACON_TRAFFIC_IMPORT_LEASE_SECONDS = "5";
    reloadEnv();
    try {
      // The connection goes quiet after half the log (no FIN, no RST): the request waits on.
      const { body, started, sendRest } = twoPartBody(first, rest);
      const stalled = send(body, key);
      await started;
      const claimed = await waitFor(() => db().trafficImport.findUnique({ where }), { what: "the import's record", timeoutMs: 10_000 });
      await waitFor(async () => (await db().$queryRaw<{ lapsed: boolean }[]>`SELECT "leaseUntil" < now() AS lapsed FROM traffic_imports WHERE id = ${claimed.id}::uuid`)[0]!.lapsed || null, {
        what: "the stalled import's lease to lapse",
        timeoutMs: 20_000,
        intervalMs: 250,
      });
      const again = await send(`${first}${rest}`, key);
      expect(again.status, JSON.stringify(again.body)).toBe(200);
      expect(again.body.import.stored).toBe(crawlsIn(200));
      sendRest();
      expect((await stalled).status, "the stalled request stores nothing once taken over").toBe(409);
      expect(await stored(prefix)).toEqual({ raw: crawlsIn(200), rollup: crawlsIn(200) });
    } finally {
      delete process.env.BEACON_TRAFFIC_IMPORT_LEASE_SECONDS;
      reloadEnv();
    }
  });

  it("a line longer than the longest kept reads the same however its bytes come, so the log sent again matches", async () => {
    const prefix = `long-${randomUUID().slice(0, 8)}`;
    const key = randomUUID();
    const log = `${logOf(prefix, 4)}${"x".repeat(150_000)}\n${logOf(prefix, 4)}`;
    const whole = await send(log, key);
    expect(whole.status, JSON.stringify(whole.body)).toBe(200);
    // The same bytes in 16 KB pieces (a slow network, gunzip's output).
    const bytes = new TextEncoder().encode(log);
    let at = 0;
    const pieces = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (at >= bytes.length) return controller.close();
        controller.enqueue(bytes.slice(at, at + 16_384));
        at += 16_384;
      },
    });
    const again = await send(pieces, key);
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body.import).toEqual(whole.body.import);
  });

  it("a key answers for 24 hours: then the retention pass removes its record, and the key starts a new import", async () => {
    const prefix = `expired-${randomUUID().slice(0, 8)}`;
    const key = randomUUID();
    const log = logOf(prefix, 8);
    expect((await send(log, key)).status).toBe(200);
    const where = { workspaceId_key: { workspaceId: A.workspaceId, key } };
    await db().trafficImport.update({ where, data: { expiresAt: new Date(Date.now() - 60_000) } });
    const result = await runRetention({ attemptRetentionDays: 3650 });
    expect(result.trafficImportsExpired).toBeGreaterThanOrEqual(1);
    expect(await db().trafficImport.findUnique({ where })).toBeNull();
    expect((await send(log, key)).status).toBe(200);
    expect(await stored(prefix)).toEqual({ raw: 2 * crawlsIn(8), rollup: 2 * crawlsIn(8) });
  });

  it("sending an ended import again renews its 24 hours (a client that retries keeps its key answering)", async () => {
    const prefix = `renewed-${randomUUID().slice(0, 8)}`;
    const key = randomUUID();
    const log = logOf(prefix, 8);
    expect((await send(log, key)).status).toBe(200);
    const where = { workspaceId_key: { workspaceId: A.workspaceId, key } };
    const soon = new Date(Date.now() + 60_000);
    await db().trafficImport.update({ where, data: { expiresAt: soon } });
    // Another log with the key is refused (422) and renews nothing.
    expect((await send(logOf(`${prefix}-other`, 8), key)).status).toBe(422);
    expect((await db().trafficImport.findUniqueOrThrow({ where })).expiresAt).toEqual(soon);
    expect((await send(log, key)).status).toBe(200);
    expect((await db().trafficImport.findUniqueOrThrow({ where })).expiresAt.getTime()).toBeGreaterThan(soon.getTime() + 23 * 3600_000);
  });

  it("an import begun before the host it began with was recorded resumes with the host it is sent with", async () => {
    const prefix = `legacy-${randomUUID().slice(0, 8)}`;
    const key = randomUUID();
    const total = 9_000;
    const log = logOf(prefix, total);
    expect((await send(brokenBody(log.split("\n").slice(0, 8_000).join("\n") + "\n"), key, "?host=acme-idem.com")).status).toBeGreaterThanOrEqual(400);
    // As a server before migration 20261220120000 left it: no host recorded.
    await db().$executeRaw`UPDATE traffic_imports SET "fallbackHost" = NULL WHERE "workspaceId" = ${A.workspaceId}::uuid AND key = ${key}`;
    const resent = await send(log, key, "?host=acme-idem.com");
    expect(resent.status, JSON.stringify(resent.body)).toBe(200);
    expect(resent.body.import).toMatchObject({ lines: total, stored: crawlsIn(total), errorCount: 0 });
    expect(await stored(prefix)).toEqual({ raw: crawlsIn(total), rollup: crawlsIn(total) });
  });
});
