// Tests of a data migration: migrate a scratch database to just before it, insert rows in the old
// shape, then migrate on and look at what became of them.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll } from "vitest";
import { createScratchDatabase } from "./setup-database";
import { MIGRATIONS_DIR, migrate } from "@/lib/instance/migrate";

const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

/** A migrations folder with every migration before `migration` (and it too when `including`). */
function migrationsUpTo(migration: string, including: boolean): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "beacon-migrations-"));
  dirs.push(dir);
  fs.copyFileSync(path.join(MIGRATIONS_DIR, "migration_lock.toml"), path.join(dir, "migration_lock.toml"));
  for (const name of fs.readdirSync(MIGRATIONS_DIR).filter((n) => /^\d{14}_/.test(n)).sort()) {
    if (name > migration || (name === migration && !including)) continue;
    fs.cpSync(path.join(MIGRATIONS_DIR, name), path.join(dir, name), { recursive: true });
  }
  return dir;
}

export type Sql = (text: string, values?: unknown[]) => Promise<pg.QueryResult>;

/**
 * Runs `arrange` on a scratch database migrated to just before `migration`, applies it, then
 * runs `check` with what `arrange` returned. Plain SQL, because the Prisma client knows only
 * the newest schema.
 */
export async function acrossMigration<T>(migration: string, arrange: (sql: Sql) => Promise<T>, check: (sql: Sql, arranged: T) => Promise<void>) {
  const { url } = await createScratchDatabase();
  // Without prisma/sql: its files define today's objects, which may need tables of later migrations.
  await migrate(url, { dir: migrationsUpTo(migration, false), sqlDir: null });
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const sql: Sql = (text, values = []) => client.query(text, values);
    const arranged = await arrange(sql);
    await migrate(url, { dir: migrationsUpTo(migration, true), sqlDir: null });
    await check(sql, arranged);
  } finally {
    await client.end();
  }
}

/**
 * A workspace with a connection, a provider, a brand and a prompt, in the schema of a migration
 * under test (plain SQL, as acrossMigration's `arrange` writes): their ids.
 */
export async function oldSchemaWorkspace(sql: Sql): Promise<{ workspace: string; connection: string; provider: string; brand: string; prompt: string }> {
  const one = async (text: string, values: unknown[] = []) => (await sql(`${text} RETURNING id`, values)).rows[0].id as string;
  const workspace = await one(`INSERT INTO workspaces (slug, name) VALUES ('w', 'W')`);
  const connection = await one(`INSERT INTO provider_connections (name, adapter) VALUES ('C', 'simulator')`);
  const provider = await one(`INSERT INTO provider_configs ("workspaceId", name, model, "connectionId") VALUES ($1, 'P', 'm', $2)`, [workspace, connection]);
  const brand = await one(`INSERT INTO brands ("workspaceId", name) VALUES ($1, 'B')`, [workspace]);
  const prompt = await one(`INSERT INTO prompts ("workspaceId", text) VALUES ($1, 'Which CRM?')`, [workspace]);
  return { workspace, connection, provider, brand, prompt };
}
