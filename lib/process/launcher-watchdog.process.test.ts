// The watchdog against real processes: a sleeping child plays the launcher, and is killed.
// In the "process" project (vitest.config.ts): the waits below are deadlines for a hang, not
// expectations of speed; a loaded machine takes seconds to start a node process.
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import fs from "node:fs";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { isRunning, processIdentity, watchLauncher } from "@/lib/process/launcher-watchdog";
import { waitFor } from "@/tests/support/wait-for";

const MODULE = fileURLToPath(new URL("./launcher-watchdog.ts", import.meta.url));
const linux = fs.existsSync("/proc/self/stat");

const started: ChildProcess[] = [];
const stops: (() => void)[] = [];

function start(command: string, args: string[], options: { env?: Record<string, string> } = {}): ChildProcess {
  const child = spawn(command, args, { stdio: ["ignore", "pipe", "inherit"], env: { ...process.env, ...options.env } });
  started.push(child);
  return child;
}

const sleeper = () => start(process.execPath, ["-e", "setInterval(() => {}, 60_000)"]);

async function kill(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, "exit");
  child.kill("SIGKILL");
  await exited;
}

afterEach(async () => {
  for (const stop of stops.splice(0)) stop();
  await Promise.all(started.splice(0).map(kill));
});

describe("isRunning", () => {
  it("is true for a live process and false once it has exited", async () => {
    const child = sleeper();
    const identity = processIdentity(child.pid!);
    expect(isRunning(identity)).toBe(true);
    await kill(child);
    expect(isRunning(identity)).toBe(false);
  });

  it.runIf(linux)("does not take another process with the same pid for the launcher", () => {
    const [pid, startTime] = processIdentity().split(":");
    expect(startTime).toMatch(/^\d+$/);
    expect(isRunning(`${pid}:${Number(startTime) + 1}`)).toBe(false);
  });

  it.runIf(linux)("counts a killed launcher that nobody has reaped yet (a zombie) as gone", async () => {
    // sh starts a child and becomes `sleep`, which never waits for it; the child is killed only
    // after that, so it stays a zombie (sh itself could reap a child that ended before the exec).
    const parent = start("sh", ["-c", "sleep 100000 & echo $!; exec sleep 100000"]);
    const [line] = (await once(parent.stdout!, "data")) as [Buffer];
    const pid = Number(line.toString().trim());
    await waitFor(() => fs.readFileSync(`/proc/${parent.pid}/comm`, "utf8").trim() === "sleep", { what: `sh ${parent.pid} to become sleep`, timeoutMs: 30_000 });
    process.kill(pid, "SIGKILL");
    await waitFor(() => fs.readFileSync(`/proc/${pid}/stat`, "utf8").includes(") Z "), { what: `process ${pid} to be a zombie`, timeoutMs: 30_000 });
    expect(() => process.kill(pid, 0)).not.toThrow(); // what a bare pid check would see
    expect(isRunning(String(pid))).toBe(false);
  });

  it("rejects a malformed identity", () => {
    expect(() => isRunning("12a")).toThrow(/BEACON_LAUNCHER/);
  });
});

describe("watchLauncher", () => {
  it("does nothing in a process the launcher did not start", () => {
    expect(watchLauncher(() => {}, { deadlineMs: 1_000, env: {} })).toBeNull();
  });

  it("calls onGone once the launcher has died", async () => {
    const launcher = sleeper();
    let gone = 0;
    const stop = watchLauncher(() => gone++, { deadlineMs: 60_000, intervalMs: 20, env: { BEACON_LAUNCHER: processIdentity(launcher.pid!) } });
    stops.push(stop!);
    expect(gone).toBe(0);
    await kill(launcher);
    await waitFor(() => gone === 1, { what: "onGone", timeoutMs: 30_000 });
  });

  it("exits the process with code 1 when it has not stopped by the deadline", async () => {
    const launcher = sleeper();
    // onGone only logs and a timer keeps the process busy: a drain that hangs.
    const script = `const { watchLauncher } = await import(${JSON.stringify(MODULE)});
      watchLauncher(() => console.log("gone"), { deadlineMs: 300, intervalMs: 20 });
      setInterval(() => {}, 60_000);
      console.log("watching");`;
    const child = start(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
      env: { BEACON_LAUNCHER: processIdentity(launcher.pid!) },
    });
    let output = "";
    child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const exited = once(child, "exit");
    await waitFor(() => output.includes("watching"), { what: "the child to start watching", timeoutMs: 50_000, details: () => output });
    await kill(launcher);
    const [code, signal] = (await exited) as [number | null, NodeJS.Signals | null];
    expect({ code, signal, output }).toEqual({ code: 1, signal: null, output: "watching\ngone\n" });
  });
});
