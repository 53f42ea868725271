// The worker process (`npm run worker`, or started by `npm run dev|start`): runs graphile-worker
// against DATABASE_URL, heartbeats its lease, and drains on SIGTERM/SIGINT, or when the launcher
// that started it has died without stopping it.
import v8 from "node:v8";
import { disconnectDb } from "@/lib/db/prisma";
import { lastLine } from "@/lib/errors";
import { startWorkerProcess } from "@/lib/worker/runner";
import { watchLauncher } from "@/lib/process/launcher-watchdog";
import { workerStopDeadlineMs } from "@/lib/process/stop-deadlines";
import { taskList } from "@/worker/tasks";

const log = (line: string) => console.log(line);

// Prisma's query compiler is WebAssembly, compiled when the first query runs. TurboFan's tier-up
// of it took about 40 MB of the worker's memory and bought nothing measurable (Prisma caches each
// query's plan); Liftoff's baseline code is enough. Set before the first query (issue 10).
v8.setFlagsFromString("--liftoff-only");

const worker = await startWorkerProcess({ taskList, log });

let exiting = false;
async function exit(code: number): Promise<never> {
  await disconnectDb().catch(() => {});
  process.exit(code);
}

async function drain(reason: string) {
  // Signals may arrive more than once (the terminal, the launcher and tsx may each relay one):
  // the first starts the drain, the rest change nothing.
  if (exiting) return;
  exiting = true;
  log(reason);
  try {
    await worker.stop();
    await exit(0);
  } catch (error) {
    log(`shutdown failed: ${lastLine(error)}`);
    await exit(1);
  }
}

for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"] as const) process.on(signal, (s) => void drain(`${s} received`));
// Nobody is left to SIGKILL a drain that hangs, so the watchdog bounds it.
watchLauncher(() => void drain("launcher gone: stopping"), { deadlineMs: workerStopDeadlineMs() });

worker.done.then(
  () => {
    if (!exiting) {
      log("worker stopped unexpectedly");
      void exit(1);
    }
  },
  (error: unknown) => {
    log(`worker failed: ${lastLine(error)}`);
    exiting = true;
    void exit(1);
  },
);
