// Many processes on one database (issue 20 item 5): two production web servers and four worker
// processes, all with their default pool sizes, share one PostgreSQL server that allows only 40
// connections, while a 1,000-capture check runs to the end and both web servers answer API
// requests all along. No process may meet a refused connection ("too many clients", "remaining
// connection slots are reserved", ECONNREFUSED), every capture must end, and the money and slot
// ledgers must equal the rows behind them. The connection arithmetic this checks is in
// docs/operating.md ("Database connections").
//
// The server, the web servers and the workers are this test's own (not the e2e app's); each is
// SIGKILLed with its process group by a reaper (tests/support/reaper.ts) if this process dies
// without stopping them.
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { afterAll, describe, expect, onTestFailed, test } from "vitest";
import { createApiKey } from "@/lib/api-keys/api-keys";
import { setDatabaseUrl } from "@/lib/config/env";
import { ensureDatabase, freePort, startEmbeddedPostgres, type EmbeddedPostgres } from "@/lib/db/embedded-postgres";
import { disconnectDb } from "@/lib/db/prisma";
import { migrate } from "@/lib/instance/migrate";
import { expectBudgetConsistent, newSpace } from "../support/lifecycle-fixtures";
import { startReaper } from "../support/reaper";
import { startWorker, type WorkerProcess } from "../support/worker-process";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const MAX_CONNECTIONS = 40;
const WEB_SERVERS = 2;
const WORKERS = 4;
const PROMPTS = 50;
const PROVIDERS = ["ChatGPT", "Perplexity", "Gemini", "Claude"];
const SAMPLES = 5; // 50 prompts x 4 providers x 5 samples = 1,000 captures
const CHECK_DEADLINE_MS = 100_000;
const REFUSED = /too many clients|remaining connection slots|ECONNREFUSED/i;

/** A process's output as it came, for the scan for refused connections and for failures. */
class Output {
  text = "";
  constructor(readonly name: string) {}
  add = (chunk: Buffer | string) => {
    this.text += chunk.toString();
  };
  refusals(): string[] {
    return this.text.split("\n").filter((line) => REFUSED.test(line)).map((line) => `[${this.name}] ${line.trim()}`);
  }
}

type WebServer = { url: string; child: ChildProcess; output: Output; exited: Promise<void> };

/** `next start` on the build, as bench/lib/web-server.ts starts it: production, the peer-address preload. */
async function startWebServer(name: string, databaseUrl: string, authSecret: string, dataDir: string): Promise<WebServer> {
  const port = await freePort();
  const url = `http://localhost:${port}`;
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const key of Object.keys(env)) if (key.startsWith("VITEST") || key.startsWith("DATABASE_")) delete env[key];
  const preload = `--require ${JSON.stringify(path.join(ROOT, "scripts", "peer-address.cjs"))}`;
  const child = spawn(process.execPath, [path.join(ROOT, "node_modules", "next", "dist", "bin", "next"), "start", "-p", String(port)], {
    cwd: ROOT,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      ...env,
      DATABASE_URL: databaseUrl,
      BEACON_AUTH_SECRET: authSecret,
      BEACON_DATA_DIR: dataDir,
      BEACON_URL: url,
      NODE_ENV: "production",
      NEXT_TELEMETRY_DISABLED: "1",
      NODE_OPTIONS: [process.env.NODE_OPTIONS, preload].filter(Boolean).join(" "),
    },
  });
  const output = new Output(name);
  child.stdout!.on("data", output.add);
  child.stderr!.on("data", output.add);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  return { url, child, output, exited };
}

async function waitUntilReady(server: WebServer, deadlineMs: number): Promise<void> {
  const deadline = Date.now() + deadlineMs;
  for (;;) {
    if (server.child.exitCode !== null || server.child.signalCode !== null) throw new Error(`${server.output.name} exited:\n${server.output.text}`);
    const answered = await fetch(`${server.url}/api/health`, { signal: AbortSignal.timeout(5_000) }).then((r) => r.status, () => 0);
    if (answered === 200) return;
    if (Date.now() > deadline) throw new Error(`${server.output.name} did not answer /api/health within ${deadlineMs / 1000} s:\n${server.output.text}`);
    await Promise.race([new Promise((r) => setTimeout(r, 250)), server.exited]);
  }
}

async function stopWebServer(server: WebServer): Promise<void> {
  if (server.child.exitCode !== null || server.child.signalCode !== null) return;
  process.kill(-server.child.pid!, "SIGTERM");
  const timer = setTimeout(() => process.kill(-server.child.pid!, "SIGKILL"), 15_000);
  await server.exited;
  clearTimeout(timer);
}

/** Connections per process (application_name; graphile-worker's pool names no application) and in all, excluding this probe. */
async function connectionsNow(probe: pg.Client): Promise<{ total: number; byName: Record<string, number> }> {
  const { rows } = await probe.query<{ name: string; n: number }>(
    `SELECT coalesce(nullif(application_name, ''), '(unnamed)') AS name, count(*)::int AS n FROM pg_stat_activity
      WHERE backend_type = 'client backend' AND pid <> pg_backend_pid() GROUP BY 1`,
  );
  const byName = Object.fromEntries(rows.map((r) => [r.name, r.n]));
  return { total: rows.reduce((sum, r) => sum + r.n, 0), byName };
}

const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

describe("two web servers and four workers on one PostgreSQL with max_connections = 40", () => {
  test("a 1,000-capture check finishes with no refused connection and consistent ledgers", { timeout: 240_000 }, async () => {
    const reaper = startReaper();
    cleanups.push(() => reaper.dispose());
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "beacon-many-"));
    // As root the server runs as `postgres`, which must enter the folder (mkdtemp makes it private).
    fs.chmodSync(dataDir, 0o755);
    reaper.removeDir(dataDir);
    const serverOutput = new Output("postgres");
    let postmaster = 0;
    const server: EmbeddedPostgres = await startEmbeddedPostgres({
      dataDir: path.join(dataDir, "pg"),
      ephemeral: true,
      maxConnections: MAX_CONNECTIONS,
      onOutput: serverOutput.add,
      onSpawn: (pid) => reaper.watch((postmaster = pid)),
    });
    // As root the cluster may live elsewhere (lib/db/embedded-postgres.ts clusterDirFor).
    reaper.removeDir(server.clusterDir);
    cleanups.push(async () => {
      await server.stop();
      reaper.forget(postmaster);
      for (const dir of new Set([dataDir, server.clusterDir])) fs.rmSync(dir, { recursive: true, force: true });
    });

    const url = await ensureDatabase(server.adminUrl, "beacon");
    await migrate(url);
    // Workers (tests/support/worker-process.ts) inherit DATABASE_URL; this process's Prisma uses it too.
    setDatabaseUrl(url);
    const space = await newSpace({ prompts: 1 });
    const { key } = await createApiKey(space.workspaceId, { name: "many processes", scope: "write", createdById: space.owner.userId! });
    await disconnectDb();

    const authSecret = randomBytes(32).toString("hex");
    const webs = await Promise.all(Array.from({ length: WEB_SERVERS }, (_, i) => startWebServer(`web-${i + 1}`, url, authSecret, dataDir)));
    onTestFailed(() => {
      for (const output of [...webs.map((w) => w.output), serverOutput]) console.log(`--- output of ${output.name} ---\n${output.text.slice(-20_000)}`);
    });
    for (const web of webs) {
      reaper.watch(web.child.pid!);
      cleanups.push(async () => {
        await stopWebServer(web);
        reaper.forget(web.child.pid!);
      });
    }
    // The product's defaults for everything but the simulator (fast, never failing; the helper's).
    const workers: WorkerProcess[] = await Promise.all(
      Array.from({ length: WORKERS }, async (_, i) => {
        const env = { BEACON_WORKER_CONCURRENCY: undefined, BEACON_WORKER_LEASE_SECONDS: undefined, BEACON_SWEEP_INTERVAL_SECONDS: undefined };
        return startWorker(`worker-${i + 1}`, env, { onSpawn: reaper.watch });
      }),
    );
    for (const worker of workers) void worker.exited.then(() => reaper.forget(worker.pid));
    await Promise.all(webs.map((web) => waitUntilReady(web, 60_000)));

    const probe = new pg.Client({ connectionString: url, application_name: "many-processes-probe" });
    await probe.connect();
    cleanups.push(() => probe.end().catch(() => {}));

    const headers = { authorization: `Bearer ${key}` };
    const started = await fetch(`${webs[0]!.url}/api/v1/checks`, {
      method: "POST",
      headers: { ...headers, "content-type": "application/json", "idempotency-key": `many-${Date.now()}` },
      body: JSON.stringify({
        prompts: Array.from({ length: PROMPTS }, (_, i) => ({ text: `Which CRM suits a team of ${i + 3}?` })),
        providers: PROVIDERS,
        samples: SAMPLES,
      }),
    });
    expect(started.status, await started.clone().text()).toBe(202);
    const checkId = ((await started.json()) as { check: { id: string } }).check.id;

    // Both web servers answer what the pages and integrations ask while the check runs: several
    // requests at once each round, so that each server's pool is used beyond one connection.
    const paths = [`/api/v1/checks/${checkId}?pageSize=200`, `/api/v1/checks/${checkId}?page=3&pageSize=200`, "/api/v1/checks", "/api/v1/analytics/kpis?range=7", "/api/v1/analytics/top-domains?range=7"];
    const failedRequests: string[] = [];
    let peak = { total: 0, byName: {} as Record<string, number> };
    let status = "";
    const began = Date.now();
    while (!["completed", "completed_with_errors", "failed", "cancelled"].includes(status)) {
      expect(Date.now() - began, `the check did not finish within ${CHECK_DEADLINE_MS / 1000} s (last status ${status})`).toBeLessThan(CHECK_DEADLINE_MS);
      const answers = await Promise.all(
        webs.flatMap((web) =>
          paths.map(async (p) => {
            const response = await fetch(`${web.url}${p}`, { headers }).catch((error: unknown) => ({ status: 0, text: async () => String(error), json: async () => null }));
            if (response.status !== 200) failedRequests.push(`${web.output.name} GET ${p}: ${response.status} ${(await response.text()).slice(0, 200)}`);
            return p.startsWith(`/api/v1/checks/${checkId}?pageSize`) && response.status === 200 ? ((await response.json()) as { check: { status: string } }) : null;
          }),
        ),
      );
      status = answers.find((a) => a)?.check.status ?? status;
      const now = await connectionsNow(probe);
      if (now.total > peak.total) peak = now;
      expect(workers.filter((w) => !w.running).map((w) => w.output()), "workers that exited").toEqual([]);
    }
    console.log(`[many-processes] check ${status} in ${((Date.now() - began) / 1000).toFixed(1)} s; peak ${peak.total} connections: ${JSON.stringify(peak.byName)}`);

    const { rows: captures } = await probe.query<{ status: string; n: number }>(`SELECT status::text, count(*)::int AS n FROM captures WHERE "checkId" = $1 GROUP BY 1`, [checkId]);
    const byStatus = Object.fromEntries(captures.map((c) => [c.status, c.n]));
    expect(byStatus, "every capture ended").toEqual({ succeeded: PROMPTS * PROVIDERS.length * SAMPLES });
    const { rows: slots } = await probe.query<{ n: number }>(`SELECT count(*)::int AS n FROM connection_slots WHERE "captureId" IS NOT NULL`);
    expect(slots[0]!.n, "concurrency slots still held").toBe(0);
    await expectBudgetConsistent(space.workspaceId);
    await disconnectDb();

    expect(failedRequests, "API requests that failed").toEqual([]);
    const refusals = [...webs.map((w) => w.output), serverOutput].flatMap((o) => o.refusals());
    for (const worker of workers) refusals.push(...worker.lines.filter((l) => REFUSED.test(l.text)).map((l) => `[${worker.name}] ${l.text}`));
    expect(refusals, "refused connections").toEqual([]);
  });
});
