// Processes started by the launcher (scripts/run.ts) stop when the launcher dies, however it died.
// The launcher stops its children in order on Ctrl-C or SIGTERM, but a SIGKILL or an OOM kill
// runs no code in it, and the children live in process groups of their own
// (scripts/lib/processes.ts), so nothing else reaches them: each child watches the launcher.
//
// Which process, and how. The launcher names itself in BEACON_LAUNCHER, which reaches the real
// worker and the real web server through tsx and `next dev` (each runs the program in a process
// of its own). The parent pid would not do: the real worker's parent is tsx, which outlives the
// launcher. A bare pid check would not do either: pids are reused (pid_max is often 32768) and a
// killed launcher that its own parent has not reaped yet is a zombie that kill(pid, 0) still
// finds. So on Linux the variable also carries the launcher's start time from /proc/<pid>/stat,
// and the launcher counts as alive while a process with that pid AND that start time exists
// and is not a zombie. Without /proc (macOS) only the pid is checked.
//
// No `server-only` here: the launcher, the worker and Next's instrumentation hook all use it.
import fs from "node:fs";

const VARIABLE = "BEACON_LAUNCHER";
const IDENTITY = /^(\d+)(?::(\d+))?$/;
const hasProc = fs.existsSync("/proc/self/stat");

type Stat = { state: string; startTime: string };

/** Fields 3 (state) and 22 (start time, in clock ticks since boot) of /proc/<pid>/stat; null once it has exited. */
function readStat(pid: number): Stat | null {
  let text: string;
  try {
    text = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return null; // ENOENT, or ESRCH when it exits while being read
  }
  // Field 2, the command name, is in parentheses and may itself contain spaces and ")".
  const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
  return { state: fields[0] ?? "", startTime: fields[19] ?? "" };
}

/** "<pid>:<start time>" on Linux, "<pid>" elsewhere: what BEACON_LAUNCHER holds. */
export function processIdentity(pid: number = process.pid): string {
  const stat = hasProc ? readStat(pid) : null;
  return stat ? `${pid}:${stat.startTime}` : String(pid);
}

/** Environment for a child of the launcher: names this process as the one to watch. */
export function launcherEnv(): Record<typeof VARIABLE, string> {
  return { [VARIABLE]: processIdentity() };
}

/** Whether the process named by `identity` (see processIdentity) is still running. */
export function isRunning(identity: string): boolean {
  const match = IDENTITY.exec(identity);
  if (!match) throw new Error(`${VARIABLE} must be "<pid>" or "<pid>:<start time>", got "${identity}"`);
  const pid = Number(match[1]);
  if (hasProc) {
    const stat = readStat(pid);
    // Z: exited, not yet reaped; X: being reaped.
    return stat !== null && stat.state !== "Z" && stat.state !== "X" && (match[2] === undefined || stat.startTime === match[2]);
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

// The launcher reads our stdout and stderr; once it is gone every write fails with EPIPE, and an
// unhandled stream error would kill the process at its next log line, in the middle of a drain.
let pipesGuarded = false;
function ignoreBrokenPipes() {
  if (pipesGuarded) return;
  pipesGuarded = true;
  for (const stream of [process.stdout, process.stderr]) {
    stream.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code !== "EPIPE") throw error;
    });
  }
}

export type WatchOptions = {
  /** After `onGone`, the process exits with code 1 if it is still running this much later. */
  deadlineMs: number;
  intervalMs?: number;
  /** Where BEACON_LAUNCHER is read from (tests). */
  env?: Record<string, string | undefined>;
};

/**
 * In a process started by the launcher: calls `onGone` (which should stop the process the way
 * SIGTERM does) about `intervalMs` after the launcher has died, and exits the process after
 * `deadlineMs` if it has not exited by then. Returns a function that stops watching, or null in a
 * process the launcher did not start. The timers never keep the process alive.
 */
export function watchLauncher(onGone: () => void, options: WatchOptions): (() => void) | null {
  const identity = (options.env ?? process.env)[VARIABLE];
  if (!identity) return null;
  isRunning(identity); // a malformed value fails here, at startup, not in a timer
  ignoreBrokenPipes();
  let deadline: NodeJS.Timeout | undefined;
  const interval = setInterval(() => {
    if (isRunning(identity)) return;
    clearInterval(interval);
    deadline = setTimeout(() => process.exit(1), options.deadlineMs).unref();
    onGone();
  }, options.intervalMs ?? 1000).unref();
  return () => {
    clearInterval(interval);
    clearTimeout(deadline);
  };
}
