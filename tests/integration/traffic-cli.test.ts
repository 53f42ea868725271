// `npm run beacon -- traffic import` as an operator runs it (docs/traffic.md): a real process
// reading a gzip file or stdin, the report JSON on stdout, exit code 1 when a line could not be
// read while the good lines are kept.
import { spawn } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { beforeAll, describe, expect, it } from "vitest";
import { createTenant, type Tenant } from "../support/api-fixtures";
import { db } from "@/lib/db/prisma";
import { cliNodeArgs } from "@/scripts/lib/worker-bundle";

/** The CLI as a process; `stdin` is written to its standard input (and closed). */
async function beacon(args: string[], stdin?: Buffer | string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const nodeArgs = await cliNodeArgs();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...nodeArgs, ...args], { env: { ...process.env, NODE_ENV: "production", BEACON_TEST_CHEAP_PASSWORD_HASH: "" }, timeout: 60_000 });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(stdin ?? "");
  });
}

const GPTBOT = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)";
const CLAUDEBOT = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)";
const CHROME = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const combined = (ip: string, target: string, ua: string, status = 200) => `${ip} - - [08/Dec/2026:10:00:00 +0000] "GET ${target} HTTP/1.1" ${status} 512 "-" "${ua}"`;

let tenant: Tenant;
let slug: string;

beforeAll(async () => {
  tenant = await createTenant("Traffic CLI");
  await db().brand.update({ where: { id: tenant.brandId }, data: { domains: ["cli-traffic.com"] } });
  slug = (await db().workspace.findUniqueOrThrow({ where: { id: tenant.workspaceId } })).slug;
});

const hits = () =>
  db().trafficHit.findMany({ where: { workspaceId: tenant.workspaceId }, orderBy: [{ crawler: "asc" }, { path: "asc" }], select: { domain: true, path: true, crawler: true, verification: true, status: true } });

describe("beacon traffic import", () => {
  it("reads a gzip file, keeps the good lines, reports the malformed one by number and exits 1", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "beacon-traffic-cli-"));
    const file = path.join(dir, "access.log.gz");
    const log = [
      combined("20.171.206.14", "/pricing?ref=x", GPTBOT), // in GPTBot's published ranges
      combined("203.0.113.9", "/blog/post", GPTBOT, 404), // a GPTBot claim from elsewhere
      "this is not a log line",
      combined("198.51.100.4", "/", CHROME),
    ].join("\n");
    writeFileSync(file, gzipSync(log));

    const result = await beacon(["traffic", "import", file, "--workspace", slug]);
    expect(result.code, result.stderr).toBe(1);
    expect(JSON.parse(result.stdout)).toEqual({
      format: "combined",
      lines: 4,
      requests: 3,
      stored: 2,
      skipped: { otherHost: 0, notCrawler: 1 },
      byCrawler: { GPTBot: { verified: 1, unverified: 1, unchecked: 0 } },
      errorCount: 1,
      errors: [{ line: 3, message: expect.stringMatching(/not a combined log line/) }],
    });
    expect(await hits()).toEqual([
      { domain: "cli-traffic.com", path: "/blog/post", crawler: "GPTBot", verification: "unverified", status: 404 },
      { domain: "cli-traffic.com", path: "/pricing", crawler: "GPTBot", verification: "verified", status: 200 },
    ]);
  });

  it("reads stdin with -, and exits 0 when every line was read", async () => {
    const ndjson = [
      { ClientRequestHost: "www.cli-traffic.com", ClientRequestURI: "/docs/start", ClientRequestUserAgent: CLAUDEBOT, ClientIP: "2001:db8::7", EdgeStartTimestamp: "2026-12-08T11:00:00Z", EdgeResponseStatus: 200 },
      { ClientRequestHost: "elsewhere.org", ClientRequestURI: "/", ClientRequestUserAgent: CLAUDEBOT, ClientIP: "2001:db8::7", EdgeStartTimestamp: "2026-12-08T11:00:01Z", EdgeResponseStatus: 200 },
    ]
      .map((r) => JSON.stringify(r))
      .join("\n");

    const result = await beacon(["traffic", "import", "-", "--workspace", slug], ndjson);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ format: "cloudflare", lines: 2, requests: 2, stored: 1, skipped: { otherHost: 1, notCrawler: 0 }, byCrawler: { ClaudeBot: { verified: 0, unverified: 0, unchecked: 1 } }, errorCount: 0, errors: [] });
    expect((await hits()).filter((h) => h.crawler === "ClaudeBot")).toEqual([{ domain: "cli-traffic.com", path: "/docs/start", crawler: "ClaudeBot", verification: "unchecked", status: 200 }]);
  });

  it("with --key, run again after it ended prints the same report and stores nothing more", async () => {
    const log = [combined("20.171.206.15", "/keyed/a", GPTBOT), combined("20.171.206.15", "/keyed/b", GPTBOT)].join("\n");
    const args = ["traffic", "import", "-", "--workspace", slug, "--key", "nightly-2026-12-08"];
    const first = await beacon(args, log);
    expect(first.code, first.stderr).toBe(0);
    const again = await beacon(args, log);
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toEqual(JSON.parse(first.stdout));
    expect(JSON.parse(again.stdout)).toMatchObject({ stored: 2 });
    expect((await hits()).filter((h) => h.path.startsWith("/keyed/"))).toHaveLength(2);
    const badKey = await beacon([...args.slice(0, -1), "short"], log);
    expect(badKey.code).toBe(2);
    expect(badKey.stderr).toMatch(/--key: The idempotency key must have at least 8 characters/);
  });

  it("a file that cannot be read: exit code 2 saying so, and its key can be used again at once", async () => {
    const args = ["traffic", "import", "/no/such/access.log", "--workspace", slug, "--key", "unreadable-2026-12-08"];
    const result = await beacon(args);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toMatch(/Could not read \/no\/such\/access\.log: ENOENT/);
    expect(await db().trafficImport.findFirst({ where: { workspaceId: tenant.workspaceId, key: "unreadable-2026-12-08" } })).toMatchObject({ state: "interrupted", leaseUntil: null });
  });

  it("refuses an unknown workspace with exit code 2", async () => {
    const result = await beacon(["traffic", "import", "-", "--workspace", "no-such-workspace"], combined("1.2.3.4", "/", GPTBOT));
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/No workspace with slug "no-such-workspace"/);
  });
});
