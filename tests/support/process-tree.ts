// Linux process-tree probes for tests that kill one process of a tree and watch the others:
// read from /proc, so that no signal is needed to look and zombies are told from live processes.
import fs from "node:fs";

type Stat = { state: string; ppid: number; pgid: number };

/** /proc/<pid>/stat fields 3-5; null when there is no such process. */
export function procStat(pid: number): Stat | null {
  try {
    const text = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    // Field 2, the command name, is in parentheses and may itself contain spaces and ")".
    const [state, ppid, pgid] = text.slice(text.lastIndexOf(")") + 2).split(" ");
    return { state: state!, ppid: Number(ppid), pgid: Number(pgid) };
  } catch {
    return null;
  }
}

/** Exists and is not a zombie (an exited process its parent has not reaped yet). */
export function isRunning(pid: number): boolean {
  const stat = procStat(pid);
  return stat !== null && stat.state !== "Z" && stat.state !== "X";
}

export function childrenOf(pid: number): number[] {
  return fs
    .readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .map(Number)
    .filter((child) => procStat(child)?.ppid === pid);
}

/** The command line (as the process shows it: `next start` renames itself `next-server`). */
export function commandLine(pid: number): string {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" ").trim();
  } catch {
    return "";
  }
}

/** SIGKILL to each process group (negative) or process, ignoring those already gone. */
export function killAll(targets: Iterable<number>): void {
  for (const target of targets) {
    try {
      process.kill(target, "SIGKILL");
    } catch {
      // already gone
    }
  }
}
