// A PostgreSQL server of a test file's own, for tests that stop and restart it (doing that to
// the shared test server would break the other files running in parallel). `privatePostgres()`
// starts it in a temporary folder, migrates a database on it and points this process at it
// (lib/db/prisma.ts connects on first use; worker processes inherit process.env.DATABASE_URL):
// call it before anything touches the database. The server and its folders go away at
// `dispose()`, or when the process exits without it.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { setDatabaseUrl } from "@/lib/config/env";
import { ensureDatabase, startEmbeddedPostgres, type EmbeddedPostgres } from "@/lib/db/embedded-postgres";
import { migrate } from "@/lib/instance/migrate";
import { disconnectDb } from "@/lib/db/prisma";

const MIGRATIONS = fileURLToPath(new URL("../../prisma/migrations", import.meta.url));
const SQL_OBJECTS = fileURLToPath(new URL("../../prisma/sql", import.meta.url));

/** The file's own server: one data folder and one port, across restarts. */
export class RestartableServer {
  private server: EmbeddedPostgres | null = null;
  port = 0;
  constructor(readonly dataDir: string) {}

  get clusterDir(): string {
    return this.server?.clusterDir ?? this.dataDir;
  }

  get running(): boolean {
    return this.server !== null;
  }

  get adminUrl(): string {
    return `postgresql://postgres@127.0.0.1:${this.port}/postgres`;
  }

  /**
   * Not `ephemeral`: that turns synchronous_commit off, and then a crash (immediate shutdown)
   * loses transactions the server had already acknowledged, which no production setting does
   * (and no lifecycle can be expected to survive: a job deleted after its task's acknowledged
   * re-enqueue was lost leaves a capture without a job until the repair pass). fsync alone may
   * go: a PostgreSQL crash does not lose what the operating system already has.
   */
  async start(): Promise<EmbeddedPostgres> {
    const first = !this.port;
    this.server = await startEmbeddedPostgres({ dataDir: this.dataDir, ...(this.port ? { port: this.port } : {}) });
    this.port = this.server.port;
    if (first) {
      const client = new pg.Client({ connectionString: this.server.adminUrl });
      await client.connect();
      try {
        await client.query("ALTER SYSTEM SET fsync = off");
        await client.query("SELECT pg_reload_conf()");
      } finally {
        await client.end();
      }
    }
    return this.server;
  }

  /** The postmaster's pid, from its lock file; null when no server runs. */
  postmasterPid(): number | null {
    try {
      return Number(fs.readFileSync(path.join(this.clusterDir, "postmaster.pid"), "utf8").split("\n")[0]) || null;
    } catch {
      return null;
    }
  }

  /**
   * "fast" (SIGINT): open transactions are rolled back and every session is told the server is
   * shutting down. "immediate" (SIGQUIT): every process exits at once, without a checkpoint, and
   * the next start runs crash recovery; to the clients it looks like a crash.
   */
  async stop(mode: "fast" | "immediate"): Promise<void> {
    const server = this.server;
    if (!server) return;
    if (mode === "immediate") {
      const pid = this.postmasterPid();
      if (pid) process.kill(pid, "SIGQUIT");
    }
    await server.stop(); // waits for the postmaster to exit (sends SIGINT if it has not yet)
    this.server = null;
  }

  /** Best effort, synchronous: for the process 'exit' hook. */
  killNow(): void {
    const pid = this.postmasterPid();
    if (pid) {
      try {
        process.kill(pid, "SIGQUIT");
      } catch {
        // already gone
      }
    }
  }

  /** Stops the server ("fast" or "immediate", see stop) and starts it again on the same folder and port. */
  async restart(mode: "fast" | "immediate"): Promise<void> {
    await this.stop(mode);
    await this.start();
  }
}

export type PrivatePostgres = RestartableServer & { url: string; dispose: () => Promise<void> };

export async function privatePostgres(): Promise<PrivatePostgres> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "beacon-restart-pg-"));
  // mkdtemp makes the folder private; as root the server runs as `postgres`, which must enter it.
  fs.chmodSync(dataDir, 0o755);
  const server = new RestartableServer(dataDir);
  const removeFolders = () => {
    for (const dir of new Set([dataDir, server.clusterDir])) fs.rmSync(dir, { recursive: true, force: true });
  };
  // If this process goes away without running its hooks, the server and its folder go with it.
  const onExit = () => {
    server.killNow();
    removeFolders();
  };
  process.once("exit", onExit);
  await server.start();
  const url = await ensureDatabase(server.adminUrl, "beacon");
  await migrate(url, { dir: MIGRATIONS, sqlDir: SQL_OBJECTS });
  setDatabaseUrl(url);
  return Object.assign(server, {
    url,
    // Stop the workers first (they drain against the server); then this process's pool, the server.
    async dispose() {
      await disconnectDb().catch(() => {});
      await server.stop("fast").catch(() => {});
      process.off("exit", onExit);
      removeFolders();
    },
  });
}
