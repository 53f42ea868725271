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

/** The bench's own record in a kept database (what a stopped run had done), outside the product's schema. */
export const BENCH_STATE = "bench.state";

export async function ensureBenchState(client: pg.Client): Promise<void> {
  await client.query(`CREATE SCHEMA IF NOT EXISTS bench; CREATE TABLE IF NOT EXISTS ${BENCH_STATE} (key text PRIMARY KEY, at timestamptz NOT NULL)`);
}

/** Where withoutSecondaryIndexes records what it dropped, outside the product's schema. */
const DROPPED_INDEXES = "bench.dropped_indexes";

/**
 * Bulk loading: the tables' secondary indexes are dropped while `load` inserts and built again
 * after it, each in one sorted pass instead of millions of inserts at random places in it (the
 * 10,000,000-capture generation took 69 minutes with its 13 secondary indexes in place). Indexes
 * behind a constraint stay: the primary keys, which the mentions' and citations' foreign keys look
 * captures up in. The definitions are recorded before the drop, so a run killed during the load
 * leaves a database whose next run builds them again (restoreDroppedIndexes) rather than one
 * measured without them.
 */
export async function withoutSecondaryIndexes<T>(clients: pg.Client[], tables: string[], log: (line: string) => void, load: () => Promise<T>): Promise<T> {
  const [client] = clients as [pg.Client];
  await client.query(`CREATE SCHEMA IF NOT EXISTS bench; CREATE TABLE IF NOT EXISTS ${DROPPED_INDEXES} (name text PRIMARY KEY, definition text NOT NULL)`);
  await client.query("BEGIN");
  const { rows } = await client.query<{ name: string; definition: string }>(
    `INSERT INTO ${DROPPED_INDEXES} (name, definition)
     SELECT ic.relname, pg_get_indexdef(i.indexrelid)
     FROM pg_index i JOIN pg_class ic ON ic.oid = i.indexrelid JOIN pg_class t ON t.oid = i.indrelid
     WHERE t.relnamespace = 'public'::regnamespace AND t.relname = ANY($1::text[])
       AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = i.indexrelid)
     ON CONFLICT (name) DO NOTHING
     RETURNING name, definition`,
    [tables],
  );
  for (const r of rows) await client.query(`DROP INDEX public."${r.name}"`);
  await client.query("COMMIT");
  log(`bulk load: ${rows.length} secondary indexes of ${tables.join(", ")} dropped until it ends`);
  try {
    return await load();
  } finally {
    await restoreDroppedIndexes(clients, log);
  }
}

/** Builds the indexes withoutSecondaryIndexes dropped and has not built again, on each client at once. */
export async function restoreDroppedIndexes(clients: pg.Client[], log: (line: string) => void): Promise<void> {
  const [client] = clients as [pg.Client];
  const { rows: exists } = await client.query(`SELECT to_regclass('${DROPPED_INDEXES}') IS NOT NULL AS e`);
  if (!exists[0]?.e) return;
  const { rows: queue } = await client.query<{ name: string; definition: string }>(`SELECT name, definition FROM ${DROPPED_INDEXES} ORDER BY name`);
  await Promise.all(
    clients.map(async (lane) => {
      await lane.query("SET maintenance_work_mem = '1GB'");
      for (let next = queue.shift(); next; next = queue.shift()) {
        const t0 = performance.now();
        // A run killed after the build but before the delete: the index is there already.
        await lane.query(next.definition.replace(/^CREATE (UNIQUE )?INDEX /, "CREATE $1INDEX IF NOT EXISTS "));
        await lane.query(`DELETE FROM ${DROPPED_INDEXES} WHERE name = $1`, [next.name]);
        log(`bulk load: index ${next.name} built in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
      }
    }),
  );
}
