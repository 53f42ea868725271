// `npm run worker` as a user runs it: the launcher (scripts/run.ts, through tsx) migrates this
// file's database and starts a worker process. Killed outright (SIGKILL, as the OOM killer does),
// the launcher runs no code, so the worker must notice by itself that it is gone, drain the way
// SIGTERM does (its heartbeat ends `stopped`) and exit.
//
// The process tree (each arrow a child process; [ ] a process group of its own):
//   [tsx CLI -> launcher (scripts/run.ts)]   [worker (node on the bundled worker/index.ts)]
// Only the launcher itself is killed; its tsx CLI then exits on its own.
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { childrenOf, commandLine, isRunning, killAll, procStat } from "@/tests/support/process-tree";
import { waitFor } from "@/tests/support/wait-for";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const TSX_CLI = path.join(ROOT, "node_modules/tsx/dist/cli.mjs");

/** Process groups (negative) and processes to SIGKILL after the test, whatever its outcome. */
const leftovers = new Set<number>();
let launcherOutput = "";

function killLeftovers() {
  killAll(leftovers);
  leftovers.clear();
}
process.once("exit", killLeftovers);

afterEach((context) => {
  killLeftovers();
  if (context.task.result?.errors?.length) console.log(`--- launcher output ---\n${launcherOutput}`);
  launcherOutput = "";
});

function startLauncher(mode: "worker"): ChildProcess {
  const child = spawn(process.execPath, [TSX_CLI, "--conditions=react-server", "scripts/run.ts", mode], {
    cwd: ROOT,
    // Its own group, like npm's: the test signals exactly the processes it means to.
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, NO_COLOR: "1", BEACON_WORKER_SHUTDOWN_GRACE_SECONDS: "2", BEACON_SWEEP_INTERVAL_SECONDS: "1" },
  });
  leftovers.add(-child.pid!);
  for (const stream of [child.stdout!, child.stderr!]) stream.on("data", (chunk: Buffer) => (launcherOutput += chunk.toString()));
  return child;
}

async function heartbeat(workerId: string): Promise<{ pid: number; status: string }> {
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  try {
    const { rows } = await client.query<{ pid: number; status: string }>(`SELECT "pid", "status" FROM "worker_heartbeats" WHERE "workerId" = $1`, [workerId]);
    if (!rows[0]) throw new Error(`no heartbeat row for worker ${workerId}`);
    return rows[0];
  } finally {
    await client.end();
  }
}

describe("the launcher", () => {
  it.runIf(process.platform === "linux")("takes its worker down when it is killed with SIGKILL", async () => {
    const tsx = startLauncher("worker");
    const exitedEarly = new Promise<never>((_, reject) =>
      tsx.once("exit", (code, signal) => reject(new Error(`the launcher exited (code ${code}, signal ${signal}) before its worker was running`))),
    );
    exitedEarly.catch(() => {}); // also rejects, harmlessly, when the test kills the launcher later
    const [, workerId] = await Promise.race([
      waitFor(() => /\[worker\]\s+worker (\S+) running/.exec(launcherOutput), { what: "the worker to start", timeoutMs: 50_000, details: () => launcherOutput }),
      exitedEarly,
    ]);
    const { pid: workerPid } = await heartbeat(workerId!);
    // The worker's own process group, and the worker itself should it leave it.
    leftovers.add(-procStat(workerPid)!.pgid);
    leftovers.add(workerPid);

    const [launcherPid, ...others] = childrenOf(tsx.pid!);
    expect(others).toEqual([]);
    expect(commandLine(launcherPid!)).toContain("scripts/run.ts worker");
    expect(isRunning(workerPid)).toBe(true);

    process.kill(launcherPid!, "SIGKILL");
    // A deadline for a hang, not a measure of speed: nothing but the watchdog ends this worker
    // (its lease and sweeps need the launcher no more than before), and the heartbeat below
    // shows it drained rather than died.
    await waitFor(() => !isRunning(workerPid), { what: `worker ${workerPid} to exit after its launcher was killed`, timeoutMs: 30_000 });

    // It drained: graphile-worker stopped and the final heartbeat was written.
    expect((await heartbeat(workerId!)).status).toBe("stopped");
  });
});
