// The worker process (`npm run worker`, or started by `npm run dev|start`): runs graphile-worker
// against DATABASE_URL, heartbeats its lease, and drains on SIGTERM/SIGINT, or when the launcher
// that started it has died without stopping it.
import { disconnectDb } from "@/lib/db/prisma";
import { lastLine } from "@/lib/errors";
import { startWorkerProcess } from "@/lib/jobs/runner";
import { watchLauncher } from "@/lib/process/launcher-watchdog";
import { workerStopDeadlineMs } from "@/lib/process/stop-deadlines";
import { taskList } from "@/worker/tasks";

const log = (line: string) => console.log(line);

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
