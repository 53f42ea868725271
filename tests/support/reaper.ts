// A guard for the processes a test starts that must not outlive it even when the test process is
// killed outright (SIGKILL, the OOM killer), when no 'exit' hook runs: a PostgreSQL server of the
// test's own, web servers, workers. The reaper is a small node process of its own that reads
// process groups to kill from a pipe; only this process holds the pipe's other end, so when it
// dies, however it died, the reaper reads end-of-file, SIGKILLs every group still registered and
// removes the folders registered with them.
import { spawn } from "node:child_process";
import type { Socket } from "node:net";

const SCRIPT = `
const groups = new Set();
const dirs = new Set();
let buffer = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => {
  const lines = (buffer + chunk).split("\\n");
  buffer = lines.pop();
  for (const line of lines) {
    const [op, arg] = [line[0], line.slice(1)];
    if (op === "+") groups.add(Number(arg));
    else if (op === "-") groups.delete(Number(arg));
    else if (op === "d") dirs.add(arg);
    else if (op === "k") dirs.delete(arg);
  }
});
process.stdin.on("end", () => {
  for (const pid of groups) {
    try { process.kill(-pid, "SIGKILL"); } catch {}
  }
  for (const dir of dirs) require("node:fs").rmSync(dir, { recursive: true, force: true });
  process.exit(0);
});
`;

export type Reaper = {
  /** Kill the process group led by `pid` if this process dies before `forget(pid)`. */
  watch: (pid: number) => void;
  forget: (pid: number) => void;
  /** Remove `dir` (after the kills) if this process dies before `keep(dir)`. */
  removeDir: (dir: string) => void;
  keep: (dir: string) => void;
  /** Ends the reaper; groups still watched are killed. */
  dispose: () => void;
};

export function startReaper(): Reaper {
  const child = spawn(process.execPath, ["-e", SCRIPT], { detached: true, stdio: ["pipe", "ignore", "ignore"] });
  // Neither the reaper nor its pipe may keep this process alive.
  child.unref();
  const pipe = child.stdin!;
  (pipe as unknown as Socket).unref();
  return {
    watch: (pid) => pipe.write(`+${pid}\n`),
    forget: (pid) => pipe.write(`-${pid}\n`),
    removeDir: (dir) => pipe.write(`d${dir}\n`),
    keep: (dir) => pipe.write(`k${dir}\n`),
    dispose: () => pipe.end(),
  };
}
