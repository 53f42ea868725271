// Child processes for the launcher: spawn with a coloured, line-buffered output prefix (secrets
// redacted), and stop with SIGTERM, then SIGKILL after a deadline.
import { spawn, type ChildProcess } from "node:child_process";
import readline from "node:readline";
import type { Readable } from "node:stream";
import { redactSecrets } from "./redact";

const useColor = Boolean(process.stdout.isTTY) && !process.env.NO_COLOR;
const COLORS = { cyan: 36, magenta: 35, yellow: 33, green: 32, blue: 34, red: 31, gray: 90 } as const;
export type Color = keyof typeof COLORS;

export const paint = (color: Color, text: string) => (useColor ? `\x1b[${COLORS[color]}m${text}\x1b[0m` : text);

/** A line printer: `[tag] line`, the tag padded so that the columns line up. */
export function tagged(tag: string, color: Color, stream: NodeJS.WriteStream = process.stdout): (line: string) => void {
  const prefix = paint(color, `[${tag}]`.padEnd(10));
  return (line) => stream.write(`${prefix}${line}\n`);
}

const ANSI = /\x1b\[[0-9;]*[A-Za-z]/g;
export const stripAnsi = (text: string) => text.replace(ANSI, "");

export type Exit = { code: number | null; signal: NodeJS.Signals | null };

export type Child = {
  name: string;
  process: ChildProcess;
  exited: Promise<Exit>;
  /** SIGTERM to the child's process group, SIGKILL if it is still running after `graceMs`. */
  stop: (graceMs: number) => Promise<Exit>;
};

export type ChildOptions = {
  name: string;
  color: Color;
  command: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  cwd?: string;
  /** Called with every output line, ANSI codes removed (for readiness checks). */
  onLine?: (line: string) => void;
};

function pipeLines(stream: Readable | null, print: (line: string) => void, onLine?: (line: string) => void) {
  if (!stream) return;
  // readline buffers partial lines and flushes the last one when the stream ends.
  readline.createInterface({ input: stream, crlfDelay: Infinity }).on("line", (raw) => {
    // `next dev` prints server-action arguments, sign-in passwords included (scripts/lib/redact.ts).
    const line = redactSecrets(raw);
    print(line);
    onLine?.(stripAnsi(line));
  });
}

export function startChild(options: ChildOptions): Child {
  // Its own process group, so that: the terminal's Ctrl-C reaches only the launcher, which
  // stops the children in order (before the database); and a signal reaches grandchildren too
  // (next dev runs its server in a forked process, tsx runs the script in one).
  const child = spawn(options.command, options.args, {
    cwd: options.cwd,
    env: useColor ? { FORCE_COLOR: "1", ...options.env } : options.env,
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  pipeLines(child.stdout, tagged(options.name, options.color), options.onLine);
  pipeLines(child.stderr, tagged(options.name, options.color, process.stderr), options.onLine);

  const exited = new Promise<Exit>((resolve) => {
    child.once("exit", (code, signal) => resolve({ code, signal }));
    child.once("error", (error) => {
      tagged(options.name, "red", process.stderr)(`could not start: ${error.message}`);
      resolve({ code: 127, signal: null });
    });
  });
  let running = true;
  void exited.then(() => (running = false));

  const signalGroup = (name: NodeJS.Signals) => {
    if (child.pid === undefined) return;
    try {
      process.kill(-child.pid, name);
    } catch {
      // The group is gone already.
    }
  };
  const signal = (name: NodeJS.Signals) => running && signalGroup(name);

  let stopping: Promise<Exit> | null = null;
  const stop = (graceMs: number) => {
    stopping ??= (async () => {
      signal("SIGTERM");
      const timer = setTimeout(() => {
        tagged(options.name, "red", process.stderr)(`still running after ${graceMs / 1000} s: killing it`);
        signal("SIGKILL");
      }, graceMs);
      const result = await exited;
      clearTimeout(timer);
      // Grandchildren that outlived the group leader (e.g. a forked server) go too.
      signalGroup("SIGKILL");
      return result;
    })();
    return stopping;
  };

  // Last resort if the launcher itself crashes: no orphaned web server or worker.
  process.once("exit", () => signal("SIGKILL"));

  return { name: options.name, process: child, exited, stop };
}

export const describeExit = ({ code, signal }: Exit) => (signal ? `signal ${signal}` : `code ${code}`);
