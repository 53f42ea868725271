// Child processes started by the benchmark: real Beacon workers (worker/index.ts, bundled the way
// the launcher runs it: scripts/lib/worker-bundle.ts) and bare graphile-worker runners
// (bench/lib/noop-worker.ts, in node with tsx's loader). Each runs in its own process group. Output is kept (last lines) and shown only when something goes wrong.
// Every child still alive when the benchmark exits is killed: by killAllChildren on a normal exit
// or a handled signal, and by the reaper when the benchmark itself is SIGKILLed.
import { spawn, type ChildProcess } from "node:child_process";
import type { Socket } from "node:net";
import { workerNodeArgs } from "@/scripts/lib/worker-bundle";

const ROOT = process.cwd();
const live = new Set<BenchChild>();

// The reaper: a small process of its own group that reads "+<pgid>" / "-<pgid>" lines and, when
// its stdin closes (the benchmark exited, however: the kernel closes the pipe even after SIGKILL,
// and node opens it close-on-exec, so no other child holds it), SIGKILLs the groups still listed.
const REAPER = `
const groups = new Set(); let buffer = "";
process.stdin.on("data", (chunk) => {
  const lines = (buffer + chunk).split("\\n"); buffer = lines.pop();
  for (const line of lines) (line[0] === "+" ? groups.add(line.slice(1)) : groups.delete(line.slice(1)));
});
process.stdin.on("end", () => { for (const g of groups) try { process.kill(-Number(g), "SIGKILL"); } catch {} process.exit(0); });`;
let reaper: ChildProcess | undefined;

function tellReaper(line: string) {
  if (!reaper) {
    reaper = spawn(process.execPath, ["-e", REAPER], { detached: true, stdio: ["pipe", "ignore", "ignore"] });
    reaper.unref();
    (reaper.stdin as Socket).unref(); // the pipe must not keep the benchmark alive
  }
  reaper.stdin!.write(`${line}\n`);
}

export class BenchChild {
  readonly lines: string[] = [];
  /** graphile-worker "Failed task" lines: jobs that threw and will be retried by graphile-worker. */
  readonly failedJobs: string[] = [];
  readonly exited: Promise<void>;
  running = true;
  private readonly waiters = new Set<(line: string) => void>();
  /** Lines still to read into the message of the last failed job (it spans several lines). */
  private failureLinesLeft = 0;

  constructor(
    readonly name: string,
    private readonly child: ChildProcess,
  ) {
    live.add(this);
    // Every child runs in a process group of its own (spawned detached), led by itself.
    tellReaper(`+${child.pid}`);
    this.exited = new Promise((resolve) =>
      child.once("exit", (code, signal) => {
        this.running = false;
        live.delete(this);
        tellReaper(`-${child.pid}`);
        this.push(`(exited: ${signal ?? code})`);
        resolve();
      }),
    );
    for (const stream of [child.stdout!, child.stderr!]) {
      let buffer = "";
      stream.setEncoding("utf8");
      stream.on("data", (chunk: string) => {
        const parts = (buffer + chunk).split("\n");
        buffer = parts.pop() ?? "";
        parts.forEach((line) => this.push(line));
      });
    }
  }

  private push(line: string) {
    const failure = line.match(/^Failed task .*? with error '(.*)/);
    if (failure) {
      this.failedJobs.push(failure[1]!.trim());
      this.failureLinesLeft = 60;
    } else if (this.failureLinesLeft > 0) {
      this.failureLinesLeft--;
      const text = line.trim().replace(/':?$/, "");
      // Prisma's messages start with "Invalid ... invocation:"; the last non-empty line says what happened.
      if (text && !text.startsWith("at ")) this.failedJobs[this.failedJobs.length - 1] = text.slice(0, 300);
      if (text.startsWith("at ")) this.failureLinesLeft = 0;
    }
    this.lines.push(line);
    if (this.lines.length > 200) this.lines.shift();
    this.waiters.forEach((waiter) => waiter(line));
  }

  /** The node process itself (started without the tsx CLI in between). */
  get pid(): number {
    return this.child.pid!;
  }

  output(): string {
    return this.lines.map((line) => `  [${this.name}] ${line}`).join("\n");
  }

  /** Resolves with the first line matching `pattern`; rejects on exit or after `timeoutMs`. */
  waitForLine(pattern: RegExp, timeoutMs: number): Promise<RegExpMatchArray> {
    return new Promise((resolve, reject) => {
      const fail = (why: string) => {
        this.waiters.delete(check);
        clearTimeout(timer);
        reject(new Error(`${this.name}: ${why} before printing ${pattern}\n${this.output()}`));
      };
      const check = (line: string) => {
        const match = line.match(pattern);
        if (!match) return;
        this.waiters.delete(check);
        clearTimeout(timer);
        resolve(match);
      };
      const timer = setTimeout(() => fail(`no output within ${timeoutMs} ms`), timeoutMs);
      this.waiters.add(check);
      void this.exited.then(() => this.waiters.has(check) && fail("exited"));
    });
  }

  signal(signal: NodeJS.Signals) {
    if (!this.running) return;
    try {
      process.kill(-this.child.pid!, signal);
    } catch {
      // already gone
    }
  }

  /** SIGTERM (the worker drains), SIGKILL if it has not exited after `graceMs`. */
  async stop(graceMs = 15_000): Promise<void> {
    if (!this.running) return;
    this.signal("SIGTERM");
    const timer = setTimeout(() => this.signal("SIGKILL"), graceMs);
    await this.exited;
    clearTimeout(timer);
  }
}

/** `args`: node's arguments after the profiling ones. */
function startNode(name: string, args: string[], env: Record<string, string>): BenchChild {
  // BENCH_CPU_PROFILE_DIR=<dir>: each child writes a V8 CPU profile there when it exits.
  const profile = process.env.BENCH_CPU_PROFILE_DIR ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_CPU_PROFILE_DIR}`] : [];
  const child = spawn(process.execPath, [...profile, ...args], {
    cwd: ROOT,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, ...env },
  });
  return new BenchChild(name, child);
}

export type WorkerSettings = { concurrency: number; latencyMs: number };

/**
 * Starts `count` real Beacon worker processes and waits for each one's "worker <id> running"
 * line (printed once its heartbeat row exists). The simulator never fails in a benchmark.
 */
export async function startBeaconWorkers(databaseUrl: string, authSecret: string, count: number, settings: WorkerSettings): Promise<BenchChild[]> {
  const env = {
    DATABASE_URL: databaseUrl,
    BEACON_AUTH_SECRET: authSecret,
    NODE_ENV: "production",
    BEACON_WORKER_CONCURRENCY: String(settings.concurrency),
    SIMULATOR_LATENCY_MS: String(settings.latencyMs),
    SIMULATOR_ERROR_RATE: "0",
    SIMULATOR_PERMANENT_ERROR_RATE: "0",
    SIMULATOR_TIMEOUT_RATE: "0",
    SIMULATOR_SEED: "bench",
  };
  const args = await workerNodeArgs();
  const workers = Array.from({ length: count }, (_, i) => startNode(`worker-${i + 1}`, args, env));
  try {
    await Promise.all(workers.map((worker) => worker.waitForLine(/^worker \S+ running\b/, 60_000)));
  } catch (error) {
    await stopAll(workers);
    throw error;
  }
  return workers;
}

/** Bare graphile-worker runners (no-op task `bench_noop`), one per process. */
export async function startNoopWorkers(databaseUrl: string, count: number, concurrency: number): Promise<BenchChild[]> {
  const env = { DATABASE_URL: databaseUrl, NOOP_CONCURRENCY: String(concurrency) };
  const args = ["--conditions=react-server", "--import", "tsx", "bench/lib/noop-worker.ts"];
  const workers = Array.from({ length: count }, (_, i) => startNode(`noop-${i + 1}`, args, env));
  try {
    await Promise.all(workers.map((worker) => worker.waitForLine(/^noop worker running/, 60_000)));
  } catch (error) {
    await stopAll(workers);
    throw error;
  }
  return workers;
}

export async function stopAll(children: BenchChild[]): Promise<void> {
  await Promise.all(children.map((child) => child.stop()));
}

/** Throws (with their output) if any of `children` has exited. */
export function assertAlive(children: BenchChild[]): void {
  const dead = children.filter((child) => !child.running);
  if (dead.length) throw new Error(`worker process exited during the benchmark:\n${dead.map((c) => c.output()).join("\n")}`);
}

/** Failed graphile-worker jobs of `children` since `since` (indexes into failedJobs). */
export function failuresSince(children: BenchChild[], since: number[]): { count: number; examples: string[] } {
  const messages = children.flatMap((child, i) => child.failedJobs.slice(since[i] ?? 0));
  const distinct = [...new Set(messages.map((m) => m.replace(/\d+(\.\d+)? ?ms/g, "N ms")))];
  return { count: messages.length, examples: distinct.slice(0, 3) };
}

export const failureMarks = (children: BenchChild[]) => children.map((child) => child.failedJobs.length);

/** Last resort (process exit): kill whatever is still running. */
export function killAllChildren(): void {
  for (const child of live) child.signal("SIGKILL");
}
