// `npm run migrate` (lib/instance/migrate.ts) stands in for `prisma migrate deploy`, which cannot run
// here. These tests hold it to what deploy guarantees: Prisma-identical bookkeeping, applying
// each migration once, refusing edited history, all-or-nothing migrations, and one migrator at a
// time. And to its own addition: the files of prisma/sql applied after the migrations when they
// changed (all of them after a migration), all or nothing.
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterEach, describe, expect, test } from "vitest";
import { MIGRATIONS_DIR, MigrationError, SQL_OBJECTS_DIR, migrate } from "@/lib/instance/migrate";
import { createScratchDatabase } from "../support/setup-database";

type MigrationRow = {
  id: string;
  checksum: string;
  finished_at: Date | null;
  migration_name: string;
  logs: string | null;
  rolled_back_at: Date | null;
  started_at: Date;
  applied_steps_count: number;
};

/** Migration folders and the SHA-256 of their files, computed here rather than by migrate.ts. */
function migrationsOnDisk(dir = MIGRATIONS_DIR): { name: string; checksum: string }[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort()
    .map((name) => ({
      name,
      checksum: createHash("sha256").update(fs.readFileSync(path.join(dir, name, "migration.sql"))).digest("hex"),
    }));
}

async function query<T extends pg.QueryResultRow>(url: string, sql: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql, params)).rows;
  } finally {
    await client.end();
  }
}

const migrationRows = (url: string) =>
  query<MigrationRow>(url, `SELECT * FROM "_prisma_migrations" ORDER BY migration_name`);

const tableExists = async (url: string, table: string) =>
  (await query<{ found: string | null }>(url, `SELECT to_regclass($1)::text AS found`, [`public.${table}`]))[0]?.found != null;

const tempDirs: string[] = [];
/** A private copy of prisma/migrations that a test may add to and edit. */
function copyOfMigrations(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "beacon-migrations-"));
  tempDirs.push(dir);
  fs.cpSync(MIGRATIONS_DIR, dir, { recursive: true });
  return dir;
}
function addMigration(dir: string, name: string, sql: string): void {
  fs.mkdirSync(path.join(dir, name));
  fs.writeFileSync(path.join(dir, name, "migration.sql"), sql);
}
/** A private copy of prisma/sql that a test may edit. */
function copyOfSqlObjects(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "beacon-sql-"));
  tempDirs.push(dir);
  fs.cpSync(SQL_OBJECTS_DIR, dir, { recursive: true });
  return dir;
}
function editFile(file: string, from: string, to: string): void {
  const text = fs.readFileSync(file, "utf8");
  expect(text).toContain(from);
  fs.writeFileSync(file, text.replace(from, to));
}
afterEach(() => {
  for (const dir of tempDirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

const onDisk = migrationsOnDisk();
const names = onDisk.map((m) => m.name);

/** The files of prisma/sql in applying order (functions, views, triggers) and their SHA-256. */
function sqlObjectsOnDisk(dir = SQL_OBJECTS_DIR): { name: string; checksum: string }[] {
  return ["functions", "views", "triggers"].flatMap((kind) =>
    fs
      .readdirSync(path.join(dir, kind))
      .sort()
      .map((file) => ({
        name: `${kind}/${file}`,
        checksum: createHash("sha256").update(fs.readFileSync(path.join(dir, kind, file))).digest("hex"),
      })),
  );
}
const sqlOnDisk = sqlObjectsOnDisk();
const sqlNames = sqlOnDisk.map((o) => o.name);

const sqlObjectRows = (url: string) =>
  query<{ name: string; checksum: string; applied_at: Date }>(url, `SELECT name, checksum, applied_at FROM "beacon_sql_objects" ORDER BY name`);

// The message beacon_access_refusal gives for a connection that does not exist.
const refusalOfMissingConnection = async (url: string) =>
  (await query<{ refusal: string }>(url, `SELECT beacon_access_refusal(gen_random_uuid(), gen_random_uuid(), 'm') AS refusal`))[0]?.refusal;
const triggerExists = async (url: string, name: string) =>
  (await query(url, `SELECT 1 FROM pg_trigger WHERE tgname = $1`, [name])).length === 1;

describe("migrate", () => {
  test("applies every migration to an empty database and records it exactly as Prisma does", async () => {
    const { url } = await createScratchDatabase();

    const result = await migrate(url);

    expect(result).toEqual({ applied: names, alreadyApplied: [], sqlObjects: sqlNames });
    // Prisma's own table definition (schema engine, postgres flavour).
    const columns = await query(
      url,
      `SELECT column_name, data_type, character_maximum_length AS length, is_nullable, column_default
         FROM information_schema.columns WHERE table_schema = 'public' AND table_name = '_prisma_migrations'
        ORDER BY ordinal_position`,
    );
    expect(columns).toEqual([
      { column_name: "id", data_type: "character varying", length: 36, is_nullable: "NO", column_default: null },
      { column_name: "checksum", data_type: "character varying", length: 64, is_nullable: "NO", column_default: null },
      { column_name: "finished_at", data_type: "timestamp with time zone", length: null, is_nullable: "YES", column_default: null },
      { column_name: "migration_name", data_type: "character varying", length: 255, is_nullable: "NO", column_default: null },
      { column_name: "logs", data_type: "text", length: null, is_nullable: "YES", column_default: null },
      { column_name: "rolled_back_at", data_type: "timestamp with time zone", length: null, is_nullable: "YES", column_default: null },
      { column_name: "started_at", data_type: "timestamp with time zone", length: null, is_nullable: "NO", column_default: "now()" },
      { column_name: "applied_steps_count", data_type: "integer", length: null, is_nullable: "NO", column_default: "0" },
    ]);

    const rows = await migrationRows(url);
    expect(rows.map((r) => ({ name: r.migration_name, checksum: r.checksum }))).toEqual(onDisk);
    for (const row of rows) {
      expect(row.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(row.checksum).toMatch(/^[0-9a-f]{64}$/);
      expect(row.finished_at).toBeInstanceOf(Date);
      expect(row.started_at.getTime()).toBeLessThanOrEqual(row.finished_at!.getTime());
      expect(row.applied_steps_count).toBe(1);
      expect(row.logs).toBeNull();
      expect(row.rolled_back_at).toBeNull();
    }

    // graphile-worker's schema came with it: a job can be queued and is listed.
    const [added] = await query<{ id: string; payload: unknown }>(
      url,
      `SELECT id, payload FROM graphile_worker.add_job('migration-test', '{"ok": true}'::json)`,
    );
    expect(added?.payload).toEqual({ ok: true });
    const jobs = await query<{ task_identifier: string }>(url, `SELECT task_identifier FROM graphile_worker.jobs WHERE id = $1`, [added?.id]);
    expect(jobs).toEqual([{ task_identifier: "migration-test" }]);
  });

  test("a second run applies nothing and leaves the records alone", async () => {
    const { url } = await createScratchDatabase();
    await migrate(url);
    const before = await migrationRows(url);

    const second = await migrate(url);

    expect(second).toEqual({ applied: [], alreadyApplied: names, sqlObjects: [] });
    expect(await migrationRows(url)).toEqual(before);
  });

  test("refuses to run when an applied migration was edited, and applies nothing else", async () => {
    const { url } = await createScratchDatabase();
    const dir = copyOfMigrations();
    await migrate(url, { dir });
    const before = await migrationRows(url);
    const edited = names.at(-1)!;
    fs.appendFileSync(path.join(dir, edited, "migration.sql"), `\nCREATE TABLE "sneaky" ("id" INTEGER);\n`);
    addMigration(dir, "29990101000000_add_widgets", `CREATE TABLE "widgets" ("id" INTEGER PRIMARY KEY);\n`);

    const run = migrate(url, { dir });

    await expect(run).rejects.toThrow(MigrationError);
    await expect(run).rejects.toThrow(edited);
    expect(await migrationRows(url)).toEqual(before);
    expect(await tableExists(url, "widgets")).toBe(false);
    expect(await tableExists(url, "sneaky")).toBe(false);
  });

  test("a failing migration leaves no trace, and applies once fixed", async () => {
    const { url } = await createScratchDatabase();
    const dir = copyOfMigrations();
    const broken = "29990101000000_half_done";
    addMigration(dir, broken, `CREATE TABLE "half_done" ("id" INTEGER);\nINSERT INTO "no_such_table" VALUES (1);\n`);

    const run = migrate(url, { dir });

    await expect(run).rejects.toThrow(MigrationError);
    await expect(run).rejects.toThrow(broken);
    expect(await tableExists(url, "half_done")).toBe(false);
    expect((await migrationRows(url)).map((r) => r.migration_name)).toEqual(names);

    fs.writeFileSync(path.join(dir, broken, "migration.sql"), `CREATE TABLE "half_done" ("id" INTEGER);\n`);
    expect(await migrate(url, { dir })).toEqual({ applied: [broken], alreadyApplied: names, sqlObjects: sqlNames });
    expect(await tableExists(url, "half_done")).toBe(true);
  });

  test("two migrators started together on one empty database both succeed and apply each migration once", async () => {
    const { url } = await createScratchDatabase();

    const results = await Promise.all([migrate(url), migrate(url)]);

    expect(results.flatMap((r) => r.applied).sort()).toEqual(names);
    expect(results.flatMap((r) => r.alreadyApplied).sort()).toEqual(names);
    const rows = await migrationRows(url);
    expect(rows.map((r) => r.migration_name)).toEqual(names);
    expect(rows.every((r) => r.finished_at !== null && r.applied_steps_count === 1)).toBe(true);
  });
});

describe("prisma/sql", () => {
  test("every file is applied to a new database and recorded with its checksum", async () => {
    const { url } = await createScratchDatabase();
    await migrate(url);

    expect((await sqlObjectRows(url)).map((r) => ({ name: r.name, checksum: r.checksum }))).toEqual(
      [...sqlOnDisk].sort((a, b) => (a.name < b.name ? -1 : 1)),
    );
  });

  test("a database migrated before prisma/sql existed gets every file, and then only what changes", async () => {
    const { url } = await createScratchDatabase();
    const sqlDir = copyOfSqlObjects();
    await migrate(url, { sqlDir: null });
    expect(await tableExists(url, "beacon_sql_objects")).toBe(false);

    expect(await migrate(url, { sqlDir })).toEqual({ applied: [], alreadyApplied: names, sqlObjects: sqlNames });
    const before = await sqlObjectRows(url);
    expect(before).toHaveLength(sqlNames.length);

    const file = "functions/beacon_access_refusal.sql";
    editFile(path.join(sqlDir, file), "'The connection of this capture no longer exists.'", "'The connection is gone.'");
    expect(await refusalOfMissingConnection(url)).toBe("The connection of this capture no longer exists.");

    expect((await migrate(url, { sqlDir })).sqlObjects).toEqual([file]);
    expect(await refusalOfMissingConnection(url)).toBe("The connection is gone.");
    const after = await sqlObjectRows(url);
    expect(after.filter((r) => r.name !== file)).toEqual(before.filter((r) => r.name !== file));
    expect(after.find((r) => r.name === file)?.checksum).toBe(createHash("sha256").update(fs.readFileSync(path.join(sqlDir, file))).digest("hex"));
  });

  test("a failing file applies nothing of prisma/sql, and everything changed applies once fixed", async () => {
    const { url } = await createScratchDatabase();
    const sqlDir = copyOfSqlObjects();
    await migrate(url, { sqlDir });
    const before = await sqlObjectRows(url);
    editFile(path.join(sqlDir, "functions/beacon_access_refusal.sql"), "'The connection of this capture no longer exists.'", "'The connection is gone.'");
    const broken = "triggers/captures_release_slot.sql";
    editFile(path.join(sqlDir, broken), "EXECUTE FUNCTION beacon_release_slot()", "EXECUTE FUNCTION beacon_no_such_function()");

    const run = migrate(url, { sqlDir });

    await expect(run).rejects.toThrow(MigrationError);
    await expect(run).rejects.toThrow(broken);
    expect(await sqlObjectRows(url)).toEqual(before);
    expect(await refusalOfMissingConnection(url)).toBe("The connection of this capture no longer exists.");
    expect(await triggerExists(url, "captures_release_slot")).toBe(true);

    editFile(path.join(sqlDir, broken), "beacon_no_such_function()", "beacon_release_slot()");
    expect((await migrate(url, { sqlDir })).sqlObjects).toEqual(["functions/beacon_access_refusal.sql"]);
    expect(await refusalOfMissingConnection(url)).toBe("The connection is gone.");
  });

  test("after a migration every file is applied again: what the migration dropped comes back", async () => {
    const { url } = await createScratchDatabase();
    const dir = copyOfMigrations();
    await migrate(url, { dir });
    // As a migration that rebuilds the captures table would, it takes the table's triggers with it.
    addMigration(dir, "29990101000000_drop_a_trigger", `DROP TRIGGER "captures_release_slot" ON "captures";\n`);

    const result = await migrate(url, { dir });

    expect(result.applied).toEqual(["29990101000000_drop_a_trigger"]);
    expect(result.sqlObjects).toEqual(sqlNames);
    expect(await triggerExists(url, "captures_release_slot")).toBe(true);
  });

  test("the record of a removed file is forgotten (the object stays until a migration drops it)", async () => {
    const { url } = await createScratchDatabase();
    const sqlDir = copyOfSqlObjects();
    await migrate(url, { sqlDir });
    fs.rmSync(path.join(sqlDir, "triggers/captures_release_slot.sql"));

    expect((await migrate(url, { sqlDir })).sqlObjects).toEqual([]);

    expect((await sqlObjectRows(url)).map((r) => r.name)).not.toContain("triggers/captures_release_slot.sql");
    expect(await triggerExists(url, "captures_release_slot")).toBe(true);
  });
});
