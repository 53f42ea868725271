// Applies prisma/migrations without Prisma's schema engine (it cannot be downloaded on these
// machines). Each migration runs in its own transaction and is recorded in `_prisma_migrations`
// exactly as `prisma migrate deploy` records it, so the two tools agree about what is applied.
// graphile-worker installs its own schema through its migrate API at the same step.
//
// Functions, views and triggers are not defined by the migrations any more but by one file each
// under prisma/sql (functions/, views/, triggers/): the current source of every one, applied
// after the migrations, in one transaction under the same lock. A file is re-applied when its
// checksum differs from the one recorded in `beacon_sql_objects`, and every file is re-applied
// after a run that applied a migration (a migration may drop a table, and its triggers with it).
import { createHash, randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import { runMigrations } from "graphile-worker";
import { ensureDefaultConnections } from "@/lib/connections/defaults";

export const MIGRATIONS_DIR = path.resolve(process.cwd(), "prisma", "migrations");
export const SQL_OBJECTS_DIR = path.resolve(process.cwd(), "prisma", "sql");

/**
 * The folders of prisma/sql in the order they are applied: a view may select from a function
 * and a trigger needs its function. Within a folder, files apply in name order; SQL-language
 * function bodies are not checked at creation (check_function_bodies off, as pg_dump restores),
 * so one function may call another whatever their order, as PL/pgSQL ones always could.
 */
export const SQL_OBJECT_KINDS = ["functions", "views", "triggers"] as const;

// The same advisory lock key Prisma's migrate uses, so the two never run at once.
const MIGRATE_LOCK_KEY = 72707369;

export type Migration = { name: string; sql: string; checksum: string };

export class MigrationError extends Error {}

export function readMigrations(dir = MIGRATIONS_DIR): Migration[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && fs.existsSync(path.join(dir, entry.name, "migration.sql")))
    .map((entry) => entry.name)
    .sort()
    .map((name) => {
      const sql = fs.readFileSync(path.join(dir, name, "migration.sql"), "utf8");
      return { name, sql, checksum: checksumOf(sql) };
    });
}

/** Prisma's checksum: SHA-256 of the script, hex encoded. */
export function checksumOf(sql: string): string {
  return createHash("sha256").update(sql).digest("hex");
}

export type SqlObject = { name: string; sql: string; checksum: string };

/** The files of prisma/sql, named by their path in it (e.g. `functions/beacon_claim.sql`), in applying order. */
export function readSqlObjects(dir = SQL_OBJECTS_DIR): SqlObject[] {
  if (!fs.existsSync(dir)) throw new MigrationError(`${dir} does not exist: it holds the functions, views and triggers`);
  return SQL_OBJECT_KINDS.flatMap((kind) => {
    const folder = path.join(dir, kind);
    if (!fs.existsSync(folder)) return [];
    return fs
      .readdirSync(folder)
      .filter((file) => file.endsWith(".sql"))
      .sort()
      .map((file) => {
        const sql = fs.readFileSync(path.join(folder, file), "utf8");
        return { name: `${kind}/${file}`, sql, checksum: checksumOf(sql) };
      });
  });
}

const CREATE_SQL_OBJECTS_TABLE = `
CREATE TABLE IF NOT EXISTS "beacon_sql_objects" (
    "name"       TEXT PRIMARY KEY,
    "checksum"   VARCHAR(64) NOT NULL,
    "applied_at" TIMESTAMPTZ NOT NULL DEFAULT now()
)`;

/**
 * Applies the files of prisma/sql that changed since they were last applied (all of them when
 * `all`: after a migration), in one transaction, and forgets the records of files that are gone.
 * Removing a file does not drop its object, and CREATE OR REPLACE cannot change a function's
 * arguments or result type: both take a migration that drops the old object (it runs first, and
 * then every file is re-applied, so triggers dropped with it by CASCADE come back).
 */
async function applySqlObjects(client: pg.Client, objects: SqlObject[], all: boolean, log: (line: string) => void): Promise<string[]> {
  await client.query(CREATE_SQL_OBJECTS_TABLE);
  // Committed on its own, so that if a file fails now, the next run still re-applies them all.
  if (all) await client.query(`DELETE FROM "beacon_sql_objects"`);
  await client.query("BEGIN");
  try {
    await client.query("SET LOCAL check_function_bodies = off");
    const { rows } = await client.query<{ name: string; checksum: string }>(`SELECT name, checksum FROM "beacon_sql_objects"`);
    const recorded = new Map(rows.map((r) => [r.name, r.checksum]));
    const changed = objects.filter((object) => recorded.get(object.name) !== object.checksum);
    for (const object of changed) {
      try {
        await client.query(object.sql);
      } catch (error) {
        throw new MigrationError(`prisma/sql/${object.name} failed, nothing of prisma/sql was applied: ${(error as Error).message}`);
      }
      await client.query(
        `INSERT INTO "beacon_sql_objects" (name, checksum, applied_at) VALUES ($1, $2, now())
         ON CONFLICT (name) DO UPDATE SET checksum = EXCLUDED.checksum, applied_at = now()`,
        [object.name, object.checksum],
      );
    }
    await client.query(`DELETE FROM "beacon_sql_objects" WHERE name <> ALL ($1)`, [objects.map((o) => o.name)]);
    await client.query("COMMIT");
    if (changed.length) log(`applied ${changed.length} of ${objects.length} file(s) of prisma/sql`);
    return changed.map((o) => o.name);
  } catch (error) {
    await client.query("ROLLBACK");
    throw error;
  }
}

const CREATE_MIGRATIONS_TABLE = `
CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum"              VARCHAR(64) NOT NULL,
    "finished_at"           TIMESTAMPTZ,
    "migration_name"        VARCHAR(255) NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        TIMESTAMPTZ,
    "started_at"            TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count"   INTEGER NOT NULL DEFAULT 0
)`;

type AppliedRow = { migration_name: string; checksum: string; finished_at: Date | null; rolled_back_at: Date | null };

export type MigrateResult = {
  applied: string[];
  alreadyApplied: string[];
  /** The files of prisma/sql applied by this run (named as in `beacon_sql_objects`). */
  sqlObjects: string[];
};

export async function migrate(
  databaseUrl: string,
  options: {
    dir?: string;
    /** prisma/sql by default; null applies the migrations alone (a database as of an older migration, in tests). */
    sqlDir?: string | null;
    log?: (line: string) => void;
  } = {},
): Promise<MigrateResult> {
  const log = options.log ?? (() => {});
  const migrations = readMigrations(options.dir);
  const sqlDir = options.sqlDir === undefined ? SQL_OBJECTS_DIR : options.sqlDir;
  const sqlObjects = sqlDir === null ? null : readSqlObjects(sqlDir);
  const client = new pg.Client({ connectionString: databaseUrl });
  // A connection the server ends between statements fails the next one instead of killing the
  // process (lib/db/pool.ts says why a listener is needed from the start).
  client.on("error", () => {});
  await client.connect();
  const result: MigrateResult = { applied: [], alreadyApplied: [], sqlObjects: [] };
  try {
    await client.query("SELECT pg_advisory_lock($1)", [MIGRATE_LOCK_KEY]);
    await client.query(CREATE_MIGRATIONS_TABLE);
    const { rows } = await client.query<AppliedRow>(
      `SELECT migration_name, checksum, finished_at, rolled_back_at FROM "_prisma_migrations" WHERE rolled_back_at IS NULL`,
    );

    const failed = rows.filter((r) => r.finished_at === null);
    if (failed.length) {
      throw new MigrationError(
        `Migration ${failed.map((r) => r.migration_name).join(", ")} failed earlier and is not resolved. ` +
          `Fix the database by hand, then mark it rolled back (prisma migrate resolve --rolled-back <name>).`,
      );
    }
    const applied = new Map(rows.map((r) => [r.migration_name, r]));
    for (const migration of migrations) {
      const row = applied.get(migration.name);
      if (row && row.checksum !== migration.checksum) {
        throw new MigrationError(
          `Migration ${migration.name} was changed after it was applied (checksum ${row.checksum} in the database, ` +
            `${migration.checksum} on disk). Applied migrations must not be edited: restore the file and add a new migration.`,
        );
      }
    }

    for (const migration of migrations) {
      if (applied.has(migration.name)) {
        result.alreadyApplied.push(migration.name);
        continue;
      }
      log(`applying ${migration.name}`);
      await client.query("BEGIN");
      try {
        const id = randomUUID();
        await client.query(
          `INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at, applied_steps_count) VALUES ($1, $2, $3, now(), 0)`,
          [id, migration.checksum, migration.name],
        );
        await client.query(migration.sql);
        await client.query(`UPDATE "_prisma_migrations" SET finished_at = now(), applied_steps_count = 1 WHERE id = $1`, [id]);
        await client.query("COMMIT");
      } catch (error) {
        await client.query("ROLLBACK");
        throw new MigrationError(`Migration ${migration.name} failed and was rolled back: ${(error as Error).message}`);
      }
      result.applied.push(migration.name);
    }
    if (sqlObjects) result.sqlObjects = await applySqlObjects(client, sqlObjects, result.applied.length > 0, log);

    // One statement at a time: a pool of one, not graphile-worker's default of 10.
    await runMigrations({ connectionString: databaseUrl, maxPoolSize: 1 });
    // Reference data the migrations cannot hold without repeating the code's defaults.
    const { rows: connections } = await client.query<{ table: string | null }>(`SELECT to_regclass('provider_connections')::text AS table`);
    if (connections[0]?.table) {
      const created = await ensureDefaultConnections(client);
      if (created) log(`created ${created} default provider connection(s)`);
    }
  } finally {
    await client.query("SELECT pg_advisory_unlock($1)", [MIGRATE_LOCK_KEY]).catch(() => {});
    await client.end();
  }
  return result;
}
