// Real worker processes (worker/index.ts) for integration tests: started the way the launcher
// starts them (node on the bundled worker, scripts/lib/worker-bundle.ts, cwd = repo root), pointed
// at the test file's database, with their output captured line by line.
//
// Each worker gets its own process group (detached) and signals go to the whole group, the way a
// crashed machine or an OOM kill (SIGKILL) or a supervisor (SIGTERM) would reach it. (Not the
// tsx CLI: it relays a signal to its child and SIGKILLs the child when it does not acknowledge
// the signal within ~60 ms, which a loaded machine turns into a killed drain.)
//
// Every worker a test starts is stopped after that test (SIGTERM, then SIGKILL after a
// deadline), whatever the outcome, and killed outright if the test process exits early; the
// file's shared worker (sharedWorker) lives on until the file ends, a test fails or a test starts
// its own. The output of the workers of a failed test is printed.
import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach } from "vitest";
import { workerNodeArgs } from "@/scripts/lib/worker-bundle";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

/**
 * The settings a test may give a worker process (see lib/config/env.ts). A SIMULATOR_* value of
 * null leaves the variable unset, so the provider configuration's settings decide.
 */
export type WorkerEnv = {
  BEACON_WORKER_CONCURRENCY?: number;
  BEACON_WORKER_LEASE_SECONDS?: number;
  BEACON_SWEEP_INTERVAL_SECONDS?: number;
  BEACON_REPAIR_INTERVAL_SECONDS?: number;
  BEACON_STRANDED_JOB_SECONDS?: number;
  BEACON_RETRY_BASE_MS?: number;
  BEACON_WORKER_POLL_INTERVAL_MS?: number;
  BEACON_WORKER_SHUTDOWN_GRACE_SECONDS?: number;
  /** "250" or "200-600" (milliseconds). */
  SIMULATOR_LATENCY_MS?: string | null;
  SIMULATOR_ERROR_RATE?: number | null;
  SIMULATOR_PERMANENT_ERROR_RATE?: number | null;
  SIMULATOR_TIMEOUT_RATE?: number | null;
  SIMULATOR_SEED?: string;
  /** Pause points the worker waits at while a test holds them (tests/support/pause.ts holdInWorkers). */
  BEACON_TEST_PAUSE_POINTS?: string;
  /** Site readiness's origins and exempted addresses (tests/integration/site-readiness.test.ts). */
  BEACON_READINESS_ORIGINS?: string;
  BEACON_READINESS_ALLOW_ADDRESSES?: string;
  /** Another way to this test file's database (a proxy in front of it, tests/support/cut-proxy.ts). */
  DATABASE_URL?: string;
};

/**
 * What a worker gets unless the test says otherwise: a simulator that answers quickly and never
 * fails, so that a test only sees the failures it asks for (the demo providers' own settings
 * have error rates and multi-second latencies).
 */
const DEFAULT_ENV: WorkerEnv = {
  BEACON_WORKER_CONCURRENCY: 4,
  BEACON_WORKER_LEASE_SECONDS: 30,
  BEACON_SWEEP_INTERVAL_SECONDS: 1,
  BEACON_RETRY_BASE_MS: 50,
  // Retries and postponed captures are found by polling: a test waits up to this long for each.
  BEACON_WORKER_POLL_INTERVAL_MS: 200,
  BEACON_WORKER_SHUTDOWN_GRACE_SECONDS: 2,
  SIMULATOR_LATENCY_MS: "50-150",
  SIMULATOR_ERROR_RATE: 0,
  SIMULATOR_PERMANENT_ERROR_RATE: 0,
  SIMULATOR_TIMEOUT_RATE: 0,
  SIMULATOR_SEED: "integration",
};

export type OutputLine = { at: number; stream: "stdout" | "stderr"; text: string };
export type Exit = { code: number | null; signal: NodeJS.Signals | null };

const live = new Set<WorkerProcess>();
/** Workers started by the current test, whose output is printed if it fails. */
let startedThisTest: WorkerProcess[] = [];

export class WorkerProcess {
  readonly lines: OutputLine[] = [];
  /** graphile-worker pool id, from the "worker <id> running" line; what attempts record. */
  workerId = "";
  readonly exited: Promise<Exit>;
  exit: Exit | null = null;
  private readonly listeners = new Set<(line: OutputLine) => void>();

  constructor(
    readonly name: string,
    readonly env: WorkerEnv,
    private readonly child: ChildProcess,
  ) {
    this.exited = new Promise<Exit>((resolve) => {
      child.once("exit", (code, signal) => {
        this.exit = { code, signal };
        live.delete(this);
        resolve(this.exit);
      });
    });
    for (const stream of ["stdout", "stderr"] as const) {
      let buffer = "";
      child[stream]!.setEncoding("utf8");
      child[stream]!.on("data", (chunk: string) => {
        buffer += chunk;
        const parts = buffer.split("\n");
        buffer = parts.pop() ?? "";
        for (const text of parts) this.push({ at: Date.now(), stream, text });
      });
      child[stream]!.on("end", () => {
        if (buffer) this.push({ at: Date.now(), stream, text: buffer });
        buffer = "";
      });
    }
  }

  /** Pid of the worker's node process, the leader of its process group. */
  get pid(): number {
    return this.child.pid!;
  }

  get running(): boolean {
    return this.exit === null;
  }

  private push(line: OutputLine) {
    this.lines.push(line);
    for (const listener of this.listeners) listener(line);
  }

  output(): string {
    return this.lines.map((l) => `[${this.name}${l.stream === "stderr" ? " !" : ""}] ${l.text}`).join("\n");
  }

  /** The first output line (already printed or still to come) matching `pattern`. */
  waitForLine(pattern: RegExp, timeoutMs: number): Promise<RegExpMatchArray> {
    const seen = this.lines.map((l) => l.text.match(pattern)).find(Boolean);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const done = () => {
        clearTimeout(timer);
        this.listeners.delete(onLine);
      };
      const onLine = (line: OutputLine) => {
        const match = line.text.match(pattern);
        if (match) {
          done();
          resolve(match);
        }
      };
      const timer = setTimeout(() => {
        done();
        reject(new Error(`worker ${this.name}: no line matching ${pattern} within ${timeoutMs} ms\n${this.output()}`));
      }, timeoutMs);
      this.listeners.add(onLine);
      void this.exited.then((exit) => {
        if (!this.listeners.has(onLine)) return;
        done();
        reject(new Error(`worker ${this.name} exited (${JSON.stringify(exit)}) before printing a line matching ${pattern}\n${this.output()}`));
      });
    });
  }

  /** Sends `signal` to the worker's whole process group. */
  signal(signal: NodeJS.Signals): void {
    if (!this.running) return;
    try {
      process.kill(-this.pid, signal);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ESRCH") throw error;
    }
  }

  /** Waits for the process to exit; fails the test at the deadline. */
  async waitForExit(timeoutMs: number): Promise<Exit> {
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`worker ${this.name} did not exit within ${timeoutMs} ms\n${this.output()}`)), timeoutMs);
    });
    try {
      return await Promise.race([this.exited, deadline]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Freezes the process (SIGSTOP), like a long GC pause or a stalled VM: it holds what it holds. */
  pause(): void {
    this.signal("SIGSTOP");
  }

  resume(): void {
    this.signal("SIGCONT");
  }

  /** Crash: SIGKILL, nothing runs on the way out (no drain, no final heartbeat). */
  async kill(): Promise<Exit> {
    this.signal("SIGKILL");
    return this.waitForExit(10_000);
  }

  /** Graceful stop: SIGTERM and wait for the drain to finish. */
  async terminate(timeoutMs = 20_000): Promise<Exit> {
    this.signal("SIGTERM");
    this.resume(); // a paused process would not see it
    return this.waitForExit(timeoutMs);
  }

  /** Stops it whatever state it is in: SIGTERM, then SIGKILL if it has not exited in time. */
  async stop(timeoutMs = 20_000): Promise<Exit> {
    if (!this.running) return this.exit!;
    try {
      return await this.terminate(timeoutMs);
    } catch {
      return this.kill();
    }
  }
}

/**
 * Starts one worker process against this test file's database and resolves once it prints
 * "worker <id> running", which it does after its heartbeat row exists. The file's shared worker
 * (sharedWorker), if one runs, is stopped first: only the settings this test asks for take jobs.
 */
export async function startWorker(name: string, env: WorkerEnv = {}, options: { readyTimeoutMs?: number; onSpawn?: (pid: number) => void } = {}): Promise<WorkerProcess> {
  if (shared) {
    const stopping = shared;
    shared = undefined;
    await stopping.stop();
  }
  const worker = await spawnWorker(name, env, options);
  startedThisTest.push(worker);
  return worker;
}

async function spawnWorker(name: string, env: WorkerEnv, options: { readyTimeoutMs?: number; onSpawn?: (pid: number) => void }): Promise<WorkerProcess> {
  const settings = { ...DEFAULT_ENV, ...env };
  const childEnv: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: "test" };
  for (const [key, value] of Object.entries(settings)) {
    if (value === null || value === undefined) delete childEnv[key];
    else childEnv[key] = String(value);
  }
  const child = spawn(process.execPath, await workerNodeArgs(), {
    cwd: ROOT,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: childEnv,
  });
  const worker = new WorkerProcess(name, settings, child);
  options.onSpawn?.(worker.pid);
  live.add(worker);
  try {
    const match = await worker.waitForLine(/^worker (\S+) running\b/, options.readyTimeoutMs ?? 60_000);
    worker.workerId = match[1]!;
  } catch (error) {
    await worker.stop();
    throw error;
  }
  return worker;
}

/** The file's shared worker and the first of its output lines the current test saw. */
let shared: WorkerProcess | undefined;
let sharedFromLine: number | undefined;

/**
 * A worker with the default settings (and this process's environment when it started) that the
 * tests of a file share: a worker's start is most of a second of CPU, which tests whose worker
 * needs nothing of its own then pay once. It outlives the test (stopped after the file, when a
 * test fails, or when a test starts a worker of its own with startWorker), so a test using it
 * must not depend on anything a worker holds in memory between tests, only on its own rows.
 */
export async function sharedWorker(): Promise<WorkerProcess> {
  if (!shared?.running) shared = await spawnWorker("shared", {}, {});
  sharedFromLine ??= shared.lines.length;
  return shared;
}

/** Starts several workers at once (they compile and connect in parallel). */
export function startWorkers(names: string[], env: WorkerEnv = {}): Promise<WorkerProcess[]> {
  return Promise.all(names.map((name) => startWorker(name, env)));
}

/** Every worker a test started that is still alive (and the shared one, if it runs). */
export function liveWorkers(): WorkerProcess[] {
  return [...live];
}

/** Stops every live worker, the shared one too, gracefully where possible. */
export async function stopAllWorkers(): Promise<void> {
  shared = undefined;
  await Promise.all([...live].map((worker) => worker.stop()));
}

afterEach(async (context) => {
  const started = startedThisTest;
  const sharedUsed = sharedFromLine === undefined ? undefined : { worker: shared, from: sharedFromLine };
  startedThisTest = [];
  sharedFromLine = undefined;
  const failed = Boolean(context.task.result?.errors?.length);
  // A failed test may have left the shared worker in any state: the next test gets a new one.
  if (failed) await stopAllWorkers();
  else await Promise.all([...live].filter((worker) => worker !== shared).map((worker) => worker.stop()));
  if (failed) {
    for (const worker of started) console.log(`--- output of worker ${worker.name} (${worker.workerId || "not started"}) ---\n${worker.output()}`);
    if (sharedUsed?.worker) {
      const lines = sharedUsed.worker.output().split("\n").slice(sharedUsed.from);
      console.log(`--- output of the shared worker (${sharedUsed.worker.workerId}) during this test ---\n${lines.join("\n")}`);
    }
  }
});

afterAll(stopAllWorkers);

// If the test process goes away without running its hooks, take the workers with it.
process.once("exit", () => {
  for (const worker of live) {
    try {
      process.kill(-worker.pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
});
