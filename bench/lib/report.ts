// The benchmark's output: bench/results/latest.json and a markdown table for docs/benchmarks.md.
import fs from "node:fs";
import path from "node:path";
import type { CreateCheckResult } from "../measure/create-check";
import { POLL_BYTES_GOAL, type LargeProgressResult, type PollBytes, type ProgressPollResult } from "../measure/progress-poll";
import { WORKER_RSS_GOAL_MB, type MemoryResult } from "../measure/memory";
import type { PromptLookupResult } from "../measure/prompt-lookup";
import type { BareStartLatency, BeaconStartLatency } from "../measure/start-latency";
import type { BareThroughput, BeaconThroughput } from "../measure/throughput";
import type { WallTimeResult } from "../measure/wall-time";

export type Machine = { cpus: number; cpuModel: string; memoryGiB: number; platform: string; node: string; postgres: string; database: string };
type Failures = { count: number; examples: string[] };

export type Results = {
  timestamp: string;
  commit: string | null;
  dirty: boolean | null;
  codeChangedDuringRun: boolean;
  machine: Machine;
  load: { at: string; loadAvg1m: number }[];
  totalSeconds: number;
  startLatency: { beacon: BeaconStartLatency; bare: BareStartLatency; workers: string; failedJobs: Failures };
  throughput: { beacon: BeaconThroughput; bare: BareThroughput; workers: string; failedJobs: Failures };
  wallTime: WallTimeResult & { workers: string; failedJobs: Failures };
  createCheck: CreateCheckResult[];
  promptLookup: PromptLookupResult;
  progressPoll: ProgressPollResult & { workers: string; largeCheck: LargeProgressResult };
  memory: MemoryResult;
};

const n = (v: number) => v.toLocaleString("en-US");
const ms = (v: number) => `${n(v)} ms`;
const medP95 = (s: { median: number; p95: number }) => `${ms(s.median)} / ${ms(s.p95)}`;
const rss = (m: MemoryResult["worker"]["rss"]) => `peak ${n(m.peakMiB)} MiB (median ${n(m.medianMiB)}, idle ${n(m.idleMiB)}, VmHWM ${n(m.hwmMiB)})`;
const kb = (bytes: number) => `${n(Math.round(bytes / 102.4) / 10)} KB`;
const pollBytes = (b: PollBytes) => `${kb(b.first.max)} first poll (largest), ${kb(b.steady.median)} / ${kb(b.steady.max)} steady (median / largest) of JSON`;

export function markdown(r: Results): string {
  const m = r.machine;
  const lat = r.startLatency;
  const tp = r.throughput.beacon;
  const wall = r.wallTime;
  const poll = r.progressPoll;
  const rows: string[][] = [
    [
      `Enqueue → capture start, idle workers, ${lat.workers} (median / p95, n=${lat.beacon.count})`,
      `${medP95(lat.beacon.createdToStartMs)} from check.createdAt; ${medP95(lat.beacon.committedToStartMs)} from commit`,
      `bare graphile-worker add_job → start: ${medP95(lat.bare.addJobToStartMs)}`,
    ],
    [
      `Throughput, ${n(tp.captures)}-capture check, simulator 0 ms, ${r.throughput.workers}, caps 100`,
      `${n(tp.perSecond)} captures/s (${tp.timedOut ? `${n(tp.finished)} of ${n(tp.captures)} done at the ${tp.seconds} s limit` : `${tp.seconds} s`})`,
      `bare no-op jobs, 2 processes × 10: ${n(r.throughput.bare.perSecond)} jobs/s (${n(r.throughput.bare.jobs)} in ${r.throughput.bare.seconds} s)`,
    ],
    [
      `Wall time, ${wall.captures}-capture check, simulator ${n(wall.latencyMs)} ms, cap ${wall.capPerProvider}/provider, ${wall.workers} (median of ${wall.runsMs.length})`,
      (wall.runsMs.length ? `${ms(wall.ms.median)} (runs: ${wall.runsMs.map(n).join(", ")} ms${wall.timedOut ? "; then a run TIMED OUT" : ""})` : "TIMED OUT") +
        `; first check after the workers started: ${wall.coldRunMs === null ? "TIMED OUT" : ms(wall.coldRunMs)}`,
      `ideal ${ms(wall.idealMs)} = captures / (cap × providers) × latency`,
    ],
    ...r.createCheck.map((c) => [`createCheck, ${n(c.captures)} captures, no workers (median / p95, n=${c.runs})`, medP95(c.ms), "—"]),
    [
      `createCheck, ${n(r.promptLookup.texts)} prompt texts (half new) against ${n(r.promptLookup.prompts)} prompts, no workers (median / p95, n=${r.promptLookup.runs})`,
      medP95(r.promptLookup.ms),
      "one scan per text before the index: 37 s (issue 9)",
    ],
    [
      `Progress poll, ${poll.pollers} pollers each every ${poll.intervalMs / 1000} s for ${Math.round(poll.durationMs / 1000)} s, running ${poll.captures}-capture check (median / p95, n=${poll.polls})`,
      `${medP95(poll.ms)}; ${pollBytes(poll.bytes)}`,
      `goal ≤ ${kb(POLL_BYTES_GOAL)} per poll; one poller alone: ${medP95(poll.singlePollerMs)}`,
    ],
    [
      `Progress poll, one poller, finished ${n(poll.largeCheck.captures)}-capture check, first page then deltas (median / p95, n=${poll.largeCheck.polls / 2} each)`,
      `${medP95(poll.largeCheck.firstMs)} first, ${medP95(poll.largeCheck.steadyMs)} steady; ${pollBytes(poll.largeCheck.bytes)}`,
      `goal ≤ ${kb(POLL_BYTES_GOAL)} per poll; before deltas (issue 10): 663 KB, 43 ms p95`,
    ],
    [
      `Worker RSS, 1 process × concurrency ${r.memory.worker.concurrency}, ${r.memory.worker.streamingAtOnce} captures streaming at once (simulator ${n(r.memory.worker.latencyMs)} ms)`,
      rss(r.memory.worker.rss),
      `goal ≤ ${WORKER_RSS_GOAL_MB} MB (${n(Math.round((WORKER_RSS_GOAL_MB * 1e6) / 2 ** 20))} MiB)`,
    ],
    [
      "Web server RSS (`next start`) under 50 pollers of the check page over HTTP, same running check",
      "skipped" in r.memory.server
        ? `not measured: ${r.memory.server.skipped}`
        : `${rss(r.memory.server.rss)}; ${n(r.memory.server.polls)} polls (${r.memory.server.errors} errors), ${medP95(r.memory.server.ms)}, largest answer ${kb(r.memory.server.bytes.max)} on the wire`,
      "—",
    ],
  ];
  const loads = r.load.map((l) => l.loadAvg1m);
  const failures = [r.startLatency.failedJobs, r.throughput.failedJobs, r.wallTime.failedJobs];
  const failed = failures.reduce((sum, f) => sum + f.count, 0);
  const topWaits = tp.waits.byType.slice(0, 3);
  return [
    `Measured by \`npm run bench\` on ${r.timestamp.slice(0, 10)}: ${m.cpus} × ${m.cpuModel}, ${m.memoryGiB} GiB, Node ${m.node}, PostgreSQL ${m.postgres} (${m.database === "embedded" ? "embedded, fsync off" : m.database}); the run took ${r.totalSeconds} s; code ${r.commit?.slice(0, 7) ?? "?"}${r.dirty ? " with uncommitted changes" : ""}${r.codeChangedDuringRun ? " (HEAD CHANGED DURING THE RUN)" : ""}.`,
    "",
    "| measurement | Beacon | reference |",
    "| --- | --- | --- |",
    ...rows.map((row) => `| ${row.join(" | ")} |`),
    "",
    `- 1-minute load average during the run: ${Math.min(...loads)}–${Math.max(...loads)} on ${m.cpus} CPUs (anything above the benchmark's own load was other processes).`,
    `- Throughput: busy database sessions were mostly ${topWaits.map((w) => `${w.what} (${w.sharePct} %)`).join(", ")}; ` +
      `${tp.writeTransactionsPerCapture} write transactions per capture (bare graphile-worker: ${r.throughput.bare.writeTransactionsPerJob} per job); ${n(tp.attempts)} attempts for ${n(tp.finished)} finished captures.`,
    !wall.runsMs.length
      ? null
      : `- Wall time: an attempt took ${medP95(wall.attemptMs)} (median / p95) for a ${n(wall.latencyMs)} ms simulated call; the last capture started ${n(Math.max(...wall.startOffsetsMs.map((o) => o.at(-1) ?? 0)))} ms after the check was created (worst run); ` +
      `jobs re-enqueued because the provider was at its cap: ${wall.requeuedJobs.join(", ")} per run.`,
    `- graphile-worker jobs that failed (and were retried by graphile-worker) while measuring: ${failed}${failed ? ` (${[...new Set(failures.flatMap((f) => f.examples))].slice(0, 2).join("; ")})` : ""}.`,
  ]
    .filter((line) => line !== null)
    .join("\n");
}

export function writeResults(results: Results): string {
  const file = path.join(process.cwd(), "bench", "results", "latest.json");
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
  return file;
}
