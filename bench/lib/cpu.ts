// CPU time of a process tree, read from /proc (Linux): on a machine shared with other work,
// CPU seconds per unit of work vary far less than wall time does.
import fs from "node:fs";
import { descendants } from "./rss";

// USER_HZ: the unit of /proc/<pid>/stat's times, 100 on every Linux build in use.
const TICKS_PER_SECOND = 100;

function ticks(pid: number): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    // Fields after the command (which may hold spaces), from field 3 on: utime is 14, stime 15.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return 0; // gone
  }
}

/** User + system CPU seconds of `pid` and its live descendants. */
export function treeCpuSeconds(pid: number): number {
  return [pid, ...descendants(pid)].reduce((sum, p) => sum + ticks(p), 0) / TICKS_PER_SECOND;
}

/** The parent of a process (a backend's parent is the PostgreSQL server), or null when it cannot be read. */
export function parentPid(pid: number): number | null {
  try {
    const ppid = Number(/^PPid:\s+(\d+)/m.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"))?.[1]);
    return ppid > 1 ? ppid : null;
  } catch {
    return null;
  }
}
