// Applies prisma/migrations without Prisma's schema engine (it cannot be downloaded on these
// machines). Each migration runs in its own transaction and is recorded in `_prisma_migrations`
// exactly as `prisma migrate deploy` records it, so the two tools agree about what is applied.
// graphile-worker installs its own schema through its migrate API at the same step.
import { createHash, randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import { runMigrations } from "graphile-worker";
import { ensureDefaultConnections } from "@/lib/connections/defaults";

export const MIGRATIONS_DIR = path.resolve(process.cwd(), "prisma", "migrations");

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

export type MigrateResult = { applied: string[]; alreadyApplied: string[] };

export async function migrate(
  databaseUrl: string,
  options: { dir?: string; log?: (line: string) => void } = {},
): Promise<MigrateResult> {
  const log = options.log ?? (() => {});
  const migrations = readMigrations(options.dir);
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const result: MigrateResult = { applied: [], alreadyApplied: [] };
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

    await runMigrations({ connectionString: databaseUrl });
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
