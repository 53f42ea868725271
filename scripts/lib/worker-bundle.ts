// A worker process runs worker/index.ts bundled into one JavaScript file by esbuild, with plain
// node, not through tsx's loader: the loader (its module-hooks thread, every module transpiled at
// start) took about 40 MB of the worker's memory (issue 10, worker RSS ≤ 200 MB). npm packages
// stay outside the bundle and load from node_modules as before. The launcher, the integration
// tests and the benchmark all start workers with workerNodeArgs(), which bundles the current
// sources once per process (about 0.2 s), so a worker runs the code as it is, as under tsx.
// Integration tests run the operator CLI the same way (cliNodeArgs).
import { createHash, randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
/**
 * Inside node_modules, so that the bundle's package imports resolve from the repository's; one
 * folder per checkout, since git worktrees may share one node_modules (a symlink), and a worker
 * must run its own checkout's code, not the last one bundled.
 */
const OUT_DIR = path.join(ROOT, "node_modules", ".cache", "beacon", createHash("sha256").update(ROOT).digest("hex").slice(0, 12));

/** Bundles `entry` (relative to the repository root) into OUT_DIR/<name>.mjs. */
async function bundle(entry: string, name: string): Promise<string> {
  const outfile = path.join(OUT_DIR, `${name}.mjs`);
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: [entry],
    outfile,
    bundle: true,
    packages: "external",
    platform: "node",
    format: "esm",
    target: "node20",
    sourcemap: "linked",
    write: false,
    logLevel: "silent",
  });
  fs.mkdirSync(OUT_DIR, { recursive: true });
  // Written aside, then renamed: processes that bundle at the same time (test files running in
  // parallel) never start a process from a half-written file.
  for (const file of result.outputFiles) {
    const temporary = `${file.path}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
    fs.writeFileSync(temporary, file.contents);
    fs.renameSync(temporary, file.path);
  }
  return outfile;
}

const bundled = new Map<string, Promise<string>>();

async function nodeArgs(entry: string, name: string): Promise<string[]> {
  let file = bundled.get(name);
  if (!file) bundled.set(name, (file = bundle(entry, name)));
  // The react-server condition makes `server-only` importable; source maps keep stack traces
  // pointing at the TypeScript sources.
  return ["--conditions=react-server", "--enable-source-maps", await file];
}

/** node's arguments for a worker process (cwd: the repository root). */
export function workerNodeArgs(): Promise<string[]> {
  return nodeArgs("worker/index.ts", "worker");
}

/** node's arguments for a test's helper process (`entry` relative to the repository root). */
export function scriptNodeArgs(entry: string, name: string): Promise<string[]> {
  return nodeArgs(entry, name);
}

/**
 * node's arguments for `scripts/beacon.ts` (the operator CLI; cwd: the repository root), bundled
 * the same way. Integration tests run the CLI so: under the tsx CLI each run was two node
 * processes transpiling every module, about twice the CPU time of the bundle.
 */
export function cliNodeArgs(): Promise<string[]> {
  return nodeArgs("scripts/beacon.ts", "beacon");
}
