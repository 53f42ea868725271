import "server-only";
import { Histogram, Registry } from "prom-client";

// Measured inside each worker process. Every heartbeat stores a snapshot of this registry
// (worker_heartbeats.metrics), and /api/metrics serves the live workers' snapshots next to the
// database-derived metrics, each series labelled with its worker, so one scrape covers all.
export const workerRegistry = new Registry();

export const queueWaitSeconds = new Histogram({
  name: "beacon_queue_wait_seconds",
  help: "Time from a capture becoming runnable to its attempt starting.",
  labelNames: ["provider"],
  buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900],
  registers: [workerRegistry],
});

export const executionSeconds = new Histogram({
  name: "beacon_execution_seconds",
  help: "Duration of provider calls, by outcome.",
  labelNames: ["provider", "outcome"],
  buckets: [0.1, 0.25, 0.5, 1, 2, 5, 10, 20, 30, 60, 120, 300],
  registers: [workerRegistry],
});

export function labelWorker(workerId: string): void {
  workerRegistry.setDefaultLabels({ worker: workerId });
}

export async function workerMetricsSnapshot(): Promise<string> {
  return JSON.stringify(await workerRegistry.getMetricsAsJSON());
}
