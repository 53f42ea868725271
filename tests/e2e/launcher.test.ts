// `npm run web` killed outright: no browser here, but the production build it needs exists only
// in this stage. The launcher (scripts/run.ts, through tsx) starts its own embedded PostgreSQL in
// a fresh folder and `next start`; SIGKILL to the launcher alone (as the OOM killer would) runs
// no code in it, so the web server must notice by itself (instrumentation.ts) and exit. The
// worker side of the same mechanism is tests/integration/launcher.test.ts.
//
// PostgreSQL is left running by design when its launcher is killed (a later start reuses it), so
// the test stops it itself.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { freePort } from "@/lib/db/embedded-postgres";
import { childrenOf, commandLine, isRunning, killAll } from "@/tests/support/process-tree";
import { waitFor } from "@/tests/support/wait-for";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const TSX_CLI = path.join(ROOT, "node_modules/tsx/dist/cli.mjs");

const leftovers = new Set<number>();
const folders = new Set<string>();
let output = "";

/** PostgreSQL's postmaster: fast shutdown (it may still be starting, or already gone). */
function stopPostgres(clusterDir: string) {
  try {
    const pid = Number(fs.readFileSync(path.join(clusterDir, "postmaster.pid"), "utf8").split("\n")[0]);
    if (pid) process.kill(pid, "SIGINT");
  } catch {
    // not running
  }
}

function cleanUp() {
  killAll(leftovers);
  leftovers.clear();
  for (const dir of folders) {
    stopPostgres(path.join(dir, "postgres"));
    fs.rmSync(dir, { recursive: true, force: true });
  }
  folders.clear();
}
process.once("exit", cleanUp);

afterEach((context) => {
  cleanUp();
  if (context.task.result?.errors?.length) console.log(`--- launcher output ---\n${output}`);
  output = "";
});

describe("the launcher", () => {
  it.runIf(process.platform === "linux")("takes the web server down when it is killed with SIGKILL", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "beacon-e2e-launcher-"));
    // As root PostgreSQL runs as `postgres`, which must enter the folder (see global-setup.ts).
    fs.chmodSync(dataDir, 0o755);
    folders.add(dataDir);
    const port = await freePort();
    let pgPort = port;
    while (pgPort === port) pgPort = await freePort();
    // The app's own settings, as in global-setup.ts: none of the test runner's.
    const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: "1", PORT: String(port), BEACON_DATA_DIR: dataDir, BEACON_EMBEDDED_PG_PORT: String(pgPort) };
    for (const key of Object.keys(env)) {
      if (key === "NODE_ENV" || key.startsWith("VITEST") || key === "DATABASE_URL" || key === "BEACON_AUTH_SECRET") delete env[key];
    }
    const tsx = spawn(process.execPath, [TSX_CLI, "--conditions=react-server", "scripts/run.ts", "web"], {
      cwd: ROOT,
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
      env,
    });
    leftovers.add(-tsx.pid!);
    for (const stream of [tsx.stdout!, tsx.stderr!]) stream.on("data", (chunk: Buffer) => (output += chunk.toString()));

    const exitedEarly = new Promise<never>((_, reject) =>
      tsx.once("exit", (code, signal) => reject(new Error(`the launcher exited (code ${code}, signal ${signal}) before the web server answered\n${output}`))),
    );
    exitedEarly.catch(() => {}); // also rejects, harmlessly, when the test kills the launcher later
    // register() has run once the server answers: it must finish before the first request.
    await Promise.race([
      waitFor(async () => (await fetch(`http://localhost:${port}/api/health`, { signal: AbortSignal.timeout(5_000) })).status, {
        what: "the web server to answer",
        timeoutMs: 60_000,
        details: () => output,
      }),
      exitedEarly,
    ]);
    const [launcherPid, ...others] = childrenOf(tsx.pid!);
    expect(others).toEqual([]);
    expect(commandLine(launcherPid!)).toContain("scripts/run.ts web");
    const webPids = childrenOf(launcherPid!).filter((pid) => /\bnext\b/.test(commandLine(pid)));
    expect(webPids).toHaveLength(1);
    const webPid = webPids[0]!;
    leftovers.add(webPid);

    process.kill(launcherPid!, "SIGKILL");
    const killedAt = Date.now();
    await waitFor(() => !isRunning(webPid), { what: `web server ${webPid} to exit after its launcher was killed`, timeoutMs: 5_000 });
    expect(Date.now() - killedAt).toBeLessThan(5_000);
  });
});
