// `npm start` as an operator runs it on a fresh machine, with none of the settings the other
// browser tests pass (tests/e2e/support/global-setup.ts asks for the demo and a metrics token):
// no demo account with its public login, /api/metrics off, /api/health without details, sign-up
// by invitation.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { freePort } from "@/lib/db/embedded-postgres";
import { killAll } from "@/tests/support/process-tree";
import { waitFor } from "@/tests/support/wait-for";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const TSX_CLI = path.join(ROOT, "node_modules/tsx/dist/cli.mjs");
const DEMO_EMAIL = "demo@beacon.local";

let launcher: ChildProcess | undefined;
let dataDir: string | undefined;
let output = "";

afterEach((context) => {
  // The launcher stops its children and the database it started on SIGTERM; a test that failed
  // before that leaves the whole process group and the cluster to clean up.
  if (launcher?.exitCode === null && launcher.signalCode === null) killAll(new Set([-launcher.pid!]));
  if (dataDir) {
    try {
      const pid = Number(fs.readFileSync(path.join(dataDir, "postgres", "postmaster.pid"), "utf8").split("\n")[0]);
      if (pid) process.kill(pid, "SIGINT");
    } catch {
      // not running
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  if (context.task.result?.errors?.length) console.log(`--- launcher output ---\n${output}`);
  launcher = undefined;
  dataDir = undefined;
  output = "";
});

describe("npm start with no settings", () => {
  it("creates no demo account, serves no metrics and tells outsiders only whether it is up", async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "beacon-e2e-start-"));
    // As root PostgreSQL runs as `postgres`, which must enter the folder (see global-setup.ts).
    fs.chmodSync(dataDir, 0o755);
    const port = await freePort();
    let pgPort = port;
    while (pgPort === port) pgPort = await freePort();
    const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: "1", PORT: String(port), BEACON_DATA_DIR: dataDir, BEACON_EMBEDDED_PG_PORT: String(pgPort) };
    for (const key of Object.keys(env)) {
      if (key === "NODE_ENV" || key.startsWith("VITEST") || key === "DATABASE_URL" || key === "BEACON_AUTH_SECRET" || key.startsWith("BEACON_SEED") || key === "BEACON_METRICS_TOKEN") {
        delete env[key];
      }
    }
    launcher = spawn(process.execPath, [TSX_CLI, "--conditions=react-server", "scripts/run.ts", "start"], { cwd: ROOT, detached: true, stdio: ["ignore", "pipe", "pipe"], env });
    for (const stream of [launcher.stdout!, launcher.stderr!]) stream.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<void>((resolve) => launcher!.once("exit", () => resolve()));

    const base = `http://localhost:${port}`;
    await waitFor(async () => (await fetch(`${base}/api/health`, { signal: AbortSignal.timeout(5_000) })).status === 200, {
      what: "the production server to answer",
      timeoutMs: 90_000,
      details: () => output,
    });
    expect(output).toMatch(/no demo account/);

    const [, databaseUrl] = /embedded PostgreSQL: (\S+)/.exec(output) ?? [];
    expect(databaseUrl, "the launcher names its database").toBeTruthy();
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      const { rows } = await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM users WHERE email = $1`, [DEMO_EMAIL]);
      expect(rows[0]!.n, "the demo login does not exist").toBe(0);
    } finally {
      await client.end();
    }

    const metrics = await fetch(`${base}/api/metrics`);
    expect(metrics.status).toBe(403);
    expect(((await metrics.json()) as { error: { message: string } }).error.message).toMatch(/BEACON_METRICS_TOKEN/);
    const health = await fetch(`${base}/api/health`);
    expect(Object.keys((await health.json()) as object)).toEqual(["status"]);

    // Sign-up by invitation (the default): a fresh instance's sign-in page offers to create the
    // first account; once one exists it says how to get in instead of linking to a refusal.
    const signUpLink = /href="\/signup"/;
    expect(await (await fetch(`${base}/login`)).text()).toMatch(signUpLink);
    const signUp = await fetch(`${base}/api/auth/sign-up/email`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: base },
      body: JSON.stringify({ name: "First Operator", email: "operator@example.com", password: "correct horse battery staple" }),
    });
    expect(signUp.status, await signUp.clone().text()).toBe(200);
    const login = await (await fetch(`${base}/login`)).text();
    expect(login).not.toMatch(signUpLink);
    expect(login).toMatch(/Accounts here are made from an invitation link/);

    launcher.kill("SIGTERM");
    await exited;
  });
});
