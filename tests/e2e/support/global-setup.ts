// Browser tests run against the real app as a user runs it: `scripts/run.ts start` (embedded
// PostgreSQL, migrations, demo seed, worker, `next start` on the production build) in a fresh
// data folder on free ports. The tests get its URL through `inject("e2eBaseUrl")`. `npm start`
// creates the demo account only when asked (BEACON_SEED_DEMO=true), which the tests do, and
// serves /api/metrics only with a token (E2E_METRICS_TOKEN), which they set. Alert channels may
// call private addresses (ALERTS_ALLOW_PRIVATE_URLS), so webhooks can reach a local receiver.
// Site readiness fetches the demo brand's domains from a local site (BEACON_READINESS_ORIGINS),
// never the real lumencrm.com: what the browser test sees does not depend on the network.
import { spawn, type ChildProcess } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { TestProject } from "vitest/node";
import { freePort } from "@/lib/db/embedded-postgres";
import { startReaper } from "../../support/reaper";

declare module "vitest" {
  export interface ProvidedContext {
    /** Where the app under test listens, e.g. http://localhost:41234 (no trailing slash). */
    e2eBaseUrl: string;
    /** The app's BEACON_METRICS_TOKEN (production serves /api/metrics only with one). */
    e2eMetricsToken: string;
    /** The app's database, for tests that construct data no user flow makes (tests/e2e/honest-deltas.test.ts). */
    e2eDatabaseUrl: string;
  }
}

const ROOT = fileURLToPath(new URL("../../..", import.meta.url));
// The app's log and the screenshots of failed tests (tests/e2e/support/browser.ts) of the last run.
const RESULTS = path.join(ROOT, "test-results", "e2e");
const STARTUP_DEADLINE_MS = 120_000;
// The launcher gives the worker up to 13 s to drain and the web server 10 s, then stops the database.
const STOP_DEADLINE_MS = 45_000;

const log = (line: string) => console.log(`[e2e] ${line}`);

/** Where clusterDirFor (lib/db/embedded-postgres.ts) puts the cluster when, as root, `postgres` cannot enter the data folder. */
const relocatedClusterDir = (pgDataDir: string) =>
  path.join(os.tmpdir(), "beacon-postgres-data", createHash("sha1").update(path.resolve(pgDataDir)).digest("hex").slice(0, 16));

/**
 * The embedded PostgreSQL's pid once it has started (the first line of its postmaster.pid), or
 * null. It leads a process group of its own (lib/db/embedded-postgres.ts), outside the launcher's.
 */
function postmasterPid(pgDataDir: string): number | null {
  for (const dir of [pgDataDir, relocatedClusterDir(pgDataDir)]) {
    try {
      const pid = Number(fs.readFileSync(path.join(dir, "postmaster.pid"), "utf8").split("\n")[0]);
      if (pid > 0) return pid;
    } catch {
      // not started (or already stopped) in this folder
    }
  }
  return null;
}

const isPostgres = (pid: number) => {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("postgres");
  } catch {
    return false;
  }
};

async function distinctFreePorts(count: number): Promise<number[]> {
  const ports = new Set<number>();
  while (ports.size < count) ports.add(await freePort());
  return [...ports];
}

/** The app's environment: the test runner's own settings (NODE_ENV=test, VITEST_*, a DATABASE_URL) stay out. */
function appEnv(overrides: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: "1", NEXT_TELEMETRY_DISABLED: "1", ...overrides };
  for (const key of Object.keys(env)) {
    if (key === "NODE_ENV" || key.startsWith("VITEST") || key === "DATABASE_URL" || key === "BEACON_AUTH_SECRET") delete env[key];
  }
  return env;
}

/**
 * The demo brand's site as tests/e2e/traffic.test.ts expects it: robots.txt answers 503 (RFC 9309:
 * every crawler is then disallowed), /llms.txt is plain text, every other page a 200.
 */
async function startDemoSite(): Promise<{ origin: string; close: () => Promise<void> }> {
  const server = http.createServer((req, res) => {
    if (req.url === "/robots.txt") return res.writeHead(503, { "content-type": "text/plain" }).end("down for maintenance");
    if (req.url === "/llms.txt") return res.writeHead(200, { "content-type": "text/plain" }).end("# Lumen CRM\n\n> A CRM for small teams.\n");
    res.writeHead(200, { "content-type": "text/html" }).end("<h1>Lumen CRM</h1>");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close };
}

type Health = { status?: string };

async function health(url: string): Promise<Health | null> {
  try {
    const response = await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(5_000) });
    return response.status === 200 ? ((await response.json()) as Health) : null;
  } catch {
    return null;
  }
}

function exitOf(child: ChildProcess): Promise<string> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve(`code ${child.exitCode} signal ${child.signalCode}`);
    else child.once("exit", (code, signal) => resolve(`code ${code} signal ${signal}`));
  });
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  if (!fs.existsSync(path.join(ROOT, ".next", "BUILD_ID"))) {
    throw new Error("No production build in .next: run npm run build first (the browser tests drive `npm start`).");
  }
  const startedAt = Date.now();
  fs.rmSync(RESULTS, { recursive: true, force: true });
  fs.mkdirSync(RESULTS, { recursive: true });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "beacon-e2e-"));
  // mkdtemp makes the folder private; as root PostgreSQL runs as `postgres`, which must enter it
  // (otherwise the cluster is relocated, which teardown also handles).
  fs.chmodSync(dataDir, 0o755);
  const pgDataDir = path.join(dataDir, "postgres");
  const [port, pgPort] = (await distinctFreePorts(2)) as [number, number];
  const baseUrl = `http://localhost:${port}`;
  const metricsToken = randomBytes(24).toString("hex");
  const demoSite = await startDemoSite();

  const logFile = path.join(RESULTS, "server.log");
  const logStream = fs.createWriteStream(logFile);
  let tail = "";
  const record = (chunk: Buffer) => {
    logStream.write(chunk);
    tail = (tail + chunk.toString()).slice(-6_000);
    if (process.env.E2E_VERBOSE) process.stdout.write(chunk);
  };

  const require = createRequire(import.meta.url);
  const tsx = path.join(path.dirname(require.resolve("tsx/package.json")), "dist", "cli.mjs");
  const child = spawn(process.execPath, [tsx, "--conditions=react-server", "scripts/run.ts", "start"], {
    cwd: ROOT,
    env: appEnv({
      PORT: String(port),
      BEACON_URL: baseUrl,
      BEACON_DATA_DIR: dataDir,
      BEACON_EMBEDDED_PG_PORT: String(pgPort),
      SIMULATOR_LATENCY_MS: "200-800",
      BEACON_SEED_DEMO: "true",
      BEACON_METRICS_TOKEN: metricsToken,
      // The tests sign strangers up, each into a workspace of their own (the default mode, invite
      // only after the first account, is covered by tests/integration/auth-signup-invite.test.ts).
      BEACON_SIGNUP: "open",
      // tests/e2e/alerts.test.ts points a webhook channel at a receiver on 127.0.0.1; the web
      // server checks the URL when the channel is saved, the worker again at every send.
      ALERTS_ALLOW_PRIVATE_URLS: "true",
      // The demo brand's domains (lib/seed/demo-content.ts), fetched from the local site above.
      BEACON_READINESS_ORIGINS: `lumencrm.com=${demoSite.origin},lumen.io=${demoSite.origin}`,
      BEACON_READINESS_ALLOW_ADDRESSES: "127.0.0.1",
    }),
    stdio: ["ignore", "pipe", "pipe"],
    // A process group of its own, led by the launcher, with its embedded PostgreSQL in it (the
    // web server and worker have groups of their own and stop when the launcher dies).
    detached: true,
  });
  // If this process is killed outright (no teardown, no 'exit' hook), the reaper kills the
  // launcher's group and PostgreSQL's (watched once it has started, below) and removes the data
  // folders. The launcher stops PostgreSQL itself, but not when it is killed first.
  const reaper = startReaper();
  reaper.watch(child.pid!);
  for (const dir of [relocatedClusterDir(pgDataDir), dataDir]) reaper.removeDir(dir);
  let postgresPid: number | null = null;
  const watchPostgres = () => {
    if (postgresPid !== null) return;
    postgresPid = postmasterPid(pgDataDir);
    if (postgresPid !== null) reaper.watch(postgresPid);
  };
  child.stdout?.on("data", record);
  child.stderr?.on("data", record);
  const exited = exitOf(child);
  let exitedAs: string | undefined;
  void exited.then((how) => (exitedAs = how));

  // When vitest exits without running teardown: the launcher stops its children and the database
  // on SIGTERM (the reaper then removes the temporary folder).
  const killOnExit = () => child.kill("SIGTERM");
  process.once("exit", killOnExit);

  let stopped: Promise<void> | undefined;
  const teardown = () =>
    (stopped ??= (async () => {
      process.off("exit", killOnExit);
      if (exitedAs === undefined) {
        child.kill("SIGTERM");
        const timer = setTimeout(() => {
          log(`the app did not stop within ${STOP_DEADLINE_MS / 1000} s: killing it`);
          child.kill("SIGKILL");
        }, STOP_DEADLINE_MS);
        await exited;
        clearTimeout(timer);
      }
      // A launcher stopped before its database was (killed at the deadline, or mid-start) leaves
      // it running: its postmaster.pid is still there (a clean shutdown removes it).
      const left = postmasterPid(pgDataDir);
      if (left !== null && isPostgres(left)) process.kill(-left, "SIGKILL");
      reaper.dispose();
      await demoSite.close();
      await new Promise<void>((resolve) => logStream.end(resolve));
      for (const dir of [relocatedClusterDir(pgDataDir), dataDir]) fs.rmSync(dir, { recursive: true, force: true });
    })());

  try {
    const deadline = Date.now() + STARTUP_DEADLINE_MS;
    for (;;) {
      if (exitedAs !== undefined) throw new Error(`the app exited during startup (${exitedAs})`);
      if (Date.now() > deadline) throw new Error(`GET ${baseUrl}/api/health did not report status ok within ${STARTUP_DEADLINE_MS / 1000} s`);
      watchPostgres();
      // "degraded" means the web server is up but no worker heartbeat has landed yet.
      if ((await health(baseUrl))?.status === "ok") break;
      await Promise.race([new Promise((r) => setTimeout(r, 250)), exited]);
    }
  } catch (error) {
    await teardown();
    throw new Error(`${(error as Error).message}\n--- last app output (full log: ${path.relative(ROOT, logFile)}) ---\n${tail}`);
  }

  // The first request that reaches lib/auth after the start goes to better-auth's route handler,
  // as a monitoring probe's or a curl's would: then auth() is created by the route handlers' copy
  // of lib/auth while the forms run the server actions' copy (issue 17, defect 7; the invitation
  // sign-up in tests/e2e/auth.test.ts checks that this still works). /api/health does not touch lib/auth.
  const session = await fetch(`${baseUrl}/api/auth/get-session`);
  if (session.status !== 200) {
    await teardown();
    throw new Error(`GET ${baseUrl}/api/auth/get-session answered ${session.status}\n--- last app output ---\n${tail}`);
  }

  log(`app ready at ${baseUrl} in ${((Date.now() - startedAt) / 1000).toFixed(1)} s (log: ${path.relative(ROOT, logFile)})`);
  project.provide("e2eBaseUrl", baseUrl);
  project.provide("e2eMetricsToken", metricsToken);
  // The launcher starts the embedded server on the free port chosen above (lib/db/database-url.ts).
  project.provide("e2eDatabaseUrl", `postgresql://postgres@127.0.0.1:${pgPort}/beacon`);
  return teardown;
}
