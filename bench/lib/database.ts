// The benchmark's database: an embedded PostgreSQL in a temporary folder (fsync off), or, with
// BENCH_DATABASE_URL, a temporary database on that server. Either way it is migrated, and
// removed again by stop(); if the process dies first, an exit hook kills the server and
// removes the folders.
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { ensureDatabase, startEmbeddedPostgres, type EmbeddedPostgres } from "@/lib/db/embedded-postgres";
import { migrate } from "@/lib/instance/migrate";

export type BenchDatabase = {
  url: string;
  source: "embedded" | "BENCH_DATABASE_URL" | "kept";
  serverVersion: string;
  stop: () => Promise<void>;
};

/**
 * A plain pg connection for the benchmark's own SQL. A connection that breaks (the server stops
 * during cleanup) makes its pending query fail; it must not also crash the process.
 */
export async function connect(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url });
  client.on("error", () => {});
  await client.connect();
  return client;
}

async function query<T extends pg.QueryResultRow>(url: string, sql: string): Promise<T[]> {
  const client = await connect(url);
  try {
    return (await client.query<T>(sql)).rows;
  } finally {
    await client.end();
  }
}

async function embedded(log: (line: string) => void): Promise<{ url: string; stop: () => Promise<void> }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "beacon-bench-pg-"));
  fs.chmodSync(dataDir, 0o755); // as root the server runs as `postgres`, which must enter it
  let server: EmbeddedPostgres | undefined;
  const removeFolders = () => {
    for (const dir of new Set([dataDir, server?.clusterDir])) if (dir) fs.rmSync(dir, { recursive: true, force: true });
  };
  const onExit = () => {
    try {
      const pid = Number(fs.readFileSync(path.join(server?.clusterDir ?? dataDir, "postmaster.pid"), "utf8").split("\n")[0]);
      if (pid) process.kill(pid, "SIGQUIT");
    } catch {
      // not running
    }
    removeFolders();
  };
  process.once("exit", onExit);
  try {
    server = await startEmbeddedPostgres({ dataDir, ephemeral: true, log });
    const started = server;
    const url = await ensureDatabase(started.adminUrl, "beacon_bench");
    return {
      url,
      stop: async () => {
        await started.stop();
        removeFolders();
        process.off("exit", onExit);
      },
    };
  } catch (error) {
    await server?.stop().catch(() => {});
    removeFolders();
    process.off("exit", onExit);
    throw error;
  }
}

async function external(adminUrl: string, log: (line: string) => void): Promise<{ url: string; stop: () => Promise<void> }> {
  const name = `beacon_bench_${randomBytes(4).toString("hex")}`;
  const url = await ensureDatabase(adminUrl, name);
  log(`temporary database ${name} on the BENCH_DATABASE_URL server`);
  return { url, stop: async () => void (await query(adminUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)) };
}

export async function startDatabase(log: (line: string) => void): Promise<BenchDatabase> {
  const adminUrl = process.env.BENCH_DATABASE_URL;
  const db = adminUrl ? await external(adminUrl, log) : await embedded(log);
  try {
    await migrate(db.url);
    const [{ server_version }] = (await query<{ server_version: string }>(db.url, "SHOW server_version")) as [{ server_version: string }];
    return { ...db, source: adminUrl ? "BENCH_DATABASE_URL" : "embedded", serverVersion: server_version };
  } catch (error) {
    await db.stop().catch(() => {});
    throw error;
  }
}

/**
 * A database the caller keeps (the analytics benchmark's BENCH_ANALYTICS_DATABASE_URL): migrated
 * like the others, so new migrations and their backfills run on its data, and never dropped.
 */
export async function keptDatabase(url: string): Promise<BenchDatabase> {
  await migrate(url);
  const [{ server_version }] = (await query<{ server_version: string }>(url, "SHOW server_version")) as [{ server_version: string }];
  return { url, source: "kept", serverVersion: server_version, stop: async () => {} };
}
