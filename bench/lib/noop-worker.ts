// A bare graphile-worker runner with one no-op task, the baseline for Beacon's workers: same
// library, same database, same runner preset as lib/worker/runner.ts, no application work.
import { Logger, run } from "graphile-worker";

const quiet = new Logger(() => (level, message) => {
  if (level === "error" || level === "warning") console.error(message);
});

const runner = await run({
  connectionString: process.env.DATABASE_URL,
  concurrency: Number(process.env.NOOP_CONCURRENCY ?? 10),
  taskList: { bench_noop: async () => {} },
  logger: quiet,
  noHandleSignals: true,
  preset: { worker: { completeJobBatchDelay: 0, failJobBatchDelay: 0 } },
});
console.log("noop worker running");

let stopping = false;
for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    void runner.stop().finally(() => process.exit(0));
  });
}
