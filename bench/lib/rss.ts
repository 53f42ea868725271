// Resident memory of a process and its descendants, read from /proc (Linux), sampled on an
// interval while something is measured.
import fs from "node:fs";

const MiB = 1024;

function status(pid: number): { rssKiB: number; hwmKiB: number } | null {
  try {
    const text = fs.readFileSync(`/proc/${pid}/status`, "utf8");
    const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, "m").exec(text)?.[1] ?? 0);
    return { rssKiB: field("VmRSS"), hwmKiB: field("VmHWM") };
  } catch {
    return null; // gone
  }
}

export function descendants(pid: number): number[] {
  const children: number[] = [];
  try {
    for (const task of fs.readdirSync(`/proc/${pid}/task`)) {
      const list = fs.readFileSync(`/proc/${pid}/task/${task}/children`, "utf8").trim();
      if (list) children.push(...list.split(/\s+/).map(Number));
    }
  } catch {
    // gone
  }
  return children.flatMap((child) => [child, ...descendants(child)]);
}

/** VmRSS and VmHWM (its peak) summed over `pid` and its descendants, in KiB. */
export function treeMemory(pid: number): { rssKiB: number; hwmKiB: number; processes: number } {
  const pids = [pid, ...descendants(pid)];
  const all = pids.map(status).filter((s) => s !== null);
  return { rssKiB: all.reduce((sum, s) => sum + s.rssKiB, 0), hwmKiB: all.reduce((sum, s) => sum + s.hwmKiB, 0), processes: all.length };
}

export type RssSummary = {
  /** Before the load started. */
  idleMiB: number;
  /** Largest sampled VmRSS under the load, and the median of the samples. */
  peakMiB: number;
  medianMiB: number;
  /** VmHWM when sampling stopped: the peak the kernel saw, between samples too. */
  hwmMiB: number;
  samples: number;
  processes: number;
};

/** Samples `pid`'s tree every `intervalMs` from `start()` until `stop()`. */
export class RssSampler {
  private readonly samples: number[] = [];
  private timer: NodeJS.Timeout | undefined;
  private idleKiB = 0;

  constructor(
    readonly pid: number,
    private readonly intervalMs = 250,
  ) {}

  start(): void {
    this.idleKiB = treeMemory(this.pid).rssKiB;
    this.timer = setInterval(() => this.samples.push(treeMemory(this.pid).rssKiB), this.intervalMs);
  }

  stop(): RssSummary {
    clearInterval(this.timer);
    const end = treeMemory(this.pid);
    const sorted = [...this.samples].sort((a, b) => a - b);
    const mib = (kib: number) => Math.round((10 * kib) / MiB) / 10;
    return {
      idleMiB: mib(this.idleKiB),
      peakMiB: mib(sorted.at(-1) ?? 0),
      medianMiB: mib(sorted[Math.floor(sorted.length / 2)] ?? 0),
      hwmMiB: mib(end.hwmKiB),
      samples: sorted.length,
      processes: end.processes,
    };
  }
}
