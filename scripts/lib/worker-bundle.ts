// A worker process runs worker/index.ts bundled into one JavaScript file by esbuild, with plain
// node, not through tsx's loader: the loader (its module-hooks thread, every module transpiled at
// start) took about 40 MB of the worker's memory (issue 10, worker RSS ≤ 200 MB). npm packages
// stay outside the bundle and load from node_modules as before. The launcher, the integration
// tests and the benchmark all start workers with workerNodeArgs(), which bundles the current
// sources once per process (about 0.2 s), so a worker runs the code as it is, as under tsx.
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
export const WORKER_BUNDLE = path.join(OUT_DIR, "worker.mjs");

async function bundle(): Promise<string> {
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: ["worker/index.ts"],
    outfile: WORKER_BUNDLE,
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
  // parallel) never start a worker from a half-written file.
  for (const file of result.outputFiles) {
    const temporary = `${file.path}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
    fs.writeFileSync(temporary, file.contents);
    fs.renameSync(temporary, file.path);
  }
  return WORKER_BUNDLE;
}

let bundled: Promise<string> | undefined;

/** node's arguments for a worker process (cwd: the repository root). */
export async function workerNodeArgs(): Promise<string[]> {
  bundled ??= bundle();
  // The react-server condition makes `server-only` importable; source maps keep stack traces
  // pointing at the TypeScript sources.
  return ["--conditions=react-server", "--enable-source-maps", await bundled];
}
