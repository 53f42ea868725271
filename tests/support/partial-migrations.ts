// prisma/migrations up to one migration, in a temporary folder, for tests of a data migration:
// migrate a scratch database to just before it, insert rows in the old shape, then migrate on.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll } from "vitest";
import { MIGRATIONS_DIR } from "@/lib/db/migrate";

const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

/** A migrations folder with every migration before `migration` (and it too when `including`). */
export function migrationsUpTo(migration: string, including: boolean): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "beacon-migrations-"));
  dirs.push(dir);
  fs.copyFileSync(path.join(MIGRATIONS_DIR, "migration_lock.toml"), path.join(dir, "migration_lock.toml"));
  for (const name of fs.readdirSync(MIGRATIONS_DIR).filter((n) => /^\d{14}_/.test(n)).sort()) {
    if (name > migration || (name === migration && !including)) continue;
    fs.cpSync(path.join(MIGRATIONS_DIR, name), path.join(dir, name), { recursive: true });
  }
  return dir;
}
