// npm run sql:extract: writes prisma/sql (one file per function, view and trigger) from what the
// migrations alone create. It migrates a fresh database in a temporary embedded PostgreSQL
// without prisma/sql, reads each object back (pg_get_functiondef, pg_get_viewdef,
// pg_get_triggerdef), puts above it the comment block that precedes its definition in the last
// migration defining it, and replaces the folder's files (a dropped object's file goes).
//
// The migrations were the source of these objects until prisma/sql existed; this script carries
// them over, and again when a branch from before then, which redefined a function in a new
// migration, is merged. Once a file has been edited, the file is the source: running this script
// then would put the migrations' older definition back (git diff shows it).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { ensureDatabase, startEmbeddedPostgres } from "@/lib/db/embedded-postgres";
import { MIGRATIONS_DIR, SQL_OBJECTS_DIR, SQL_OBJECT_KINDS, migrate, readMigrations } from "@/lib/instance/migrate";

type Kind = (typeof SQL_OBJECT_KINDS)[number];
type Extracted = { kind: Kind; name: string; definition: string; createdBy: RegExp; firesFunction?: string };

const quoted = (name: string) => `"?${name}"?`;

async function readObjects(client: pg.Client): Promise<Extracted[]> {
  const functions = await client.query<{ name: string; definition: string }>(
    `SELECT p.proname AS name, pg_get_functiondef(p.oid) AS definition
       FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
      WHERE n.nspname = 'public' AND p.prokind IN ('f', 'p')
        AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.objid = p.oid AND d.deptype = 'e')
      ORDER BY p.proname, p.oid`,
  );
  const views = await client.query<{ name: string; definition: string }>(
    `SELECT c.relname AS name, pg_get_viewdef(c.oid, true) AS definition
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = 'public' AND c.relkind = 'v' ORDER BY c.relname`,
  );
  const triggers = await client.query<{ name: string; table: string; definition: string; function: string }>(
    `SELECT t.tgname AS name, c.relname AS table, pg_get_triggerdef(t.oid) AS definition, t.tgfoid::regproc::text AS function
       FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = 'public' AND NOT t.tgisinternal ORDER BY t.tgname`,
  );
  return [
    ...functions.rows.map((f) => ({
      kind: "functions" as const,
      name: f.name,
      definition: `${f.definition.trimEnd()};\n`,
      createdBy: functionCreate(f.name),
    })),
    ...views.rows.map((v) => ({
      kind: "views" as const,
      name: v.name,
      definition: `CREATE OR REPLACE VIEW public.${quoteIdent(v.name)} AS\n${v.definition.trimEnd().replace(/;$/, "")};\n`,
      createdBy: new RegExp(`^CREATE\\s+(OR\\s+REPLACE\\s+)?VIEW\\s+(public\\.)?${quoted(v.name)}[\\s(]`, "im"),
    })),
    // Dropped and created again rather than CREATE OR REPLACE, which constraint triggers lack.
    ...triggers.rows.map((t) => ({
      kind: "triggers" as const,
      name: t.name,
      definition: `DROP TRIGGER IF EXISTS ${quoteIdent(t.name)} ON public.${quoteIdent(t.table)};\n${breakTriggerDef(t.definition)};\n`,
      createdBy: new RegExp(`^CREATE\\s+(CONSTRAINT\\s+)?TRIGGER\\s+${quoted(t.name)}\\s`, "im"),
      firesFunction: t.function.replace(/^public\./, ""),
    })),
  ];
}

function quoteIdent(name: string): string {
  return /^[a-z_][a-z0-9_]*$/.test(name) ? name : `"${name.replace(/"/g, '""')}"`;
}

/** pg_get_triggerdef gives one line; break it before its clauses, as the migrations wrote them. */
function breakTriggerDef(definition: string): string {
  return definition
    .replace(/ (AFTER|BEFORE|INSTEAD OF) /, "\n$1 ")
    .replace(/ REFERENCING /, "\nREFERENCING ")
    .replace(/ FOR EACH /, "\nFOR EACH ")
    .replace(/ EXECUTE (FUNCTION|PROCEDURE) /, "\nEXECUTE $1 ");
}

const commentLines = (lines: string[]): string[] => {
  const block: string[] = [];
  while (lines.length && /^\s*--/.test(lines.at(-1)!)) block.unshift(lines.pop()!);
  return block;
};

/** The `--` lines right above the match (the start of a line) in `sql`. */
function blockAbove(sql: string, index: number): string[] {
  const lines = sql.slice(0, index).split("\n");
  lines.pop(); // the start of the matched line itself
  return commentLines(lines);
}

const functionCreate = (name: string) => new RegExp(`^CREATE\\s+(OR\\s+REPLACE\\s+)?FUNCTION\\s+(public\\.)?${quoted(name)}\\s*\\(`, "im");

/**
 * The explanation of the object in the last migration that defines it: the `--` lines right
 * above its definition; else, for a function, the migration's opening comment when the migration
 * defines no other function; for a trigger, the explanation above the function it fires, or a
 * pointer to that function's file.
 */
function commentOf(object: Extracted, migrations: { name: string; sql: string }[]): string {
  for (const migration of [...migrations].reverse()) {
    const match = object.createdBy.exec(migration.sql);
    if (!match) continue;
    let block = blockAbove(migration.sql, match.index);
    if (!block.length && object.kind === "functions" && (migration.sql.match(/^CREATE\s+(OR\s+REPLACE\s+)?FUNCTION\s/gim) ?? []).length === 1) {
      const lines = migration.sql.split("\n");
      block = lines.slice(0, lines.findIndex((line) => !/^\s*--/.test(line)));
    }
    if (!block.length && object.firesFunction) {
      const fn = functionCreate(object.firesFunction).exec(migration.sql);
      if (fn) block = blockAbove(migration.sql, fn.index);
      if (!block.length) block = [`-- Fires ${object.firesFunction}(): functions/${object.firesFunction}.sql says why.`];
    }
    return block.length ? `${block.join("\n")}\n` : "";
  }
  throw new Error(`No migration defines ${object.kind} ${object.name}`);
}

async function main() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "beacon-extract-pg-"));
  fs.chmodSync(dataDir, 0o755); // as root the server runs as `postgres`, which must enter it
  const server = await startEmbeddedPostgres({ dataDir, ephemeral: true });
  try {
    const url = await ensureDatabase(server.adminUrl, "beacon_extract");
    await migrate(url, { sqlDir: null });
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    let objects: Extracted[];
    try {
      objects = await readObjects(client);
    } finally {
      await client.end();
    }
    const files = new Map<string, string>();
    const migrations = readMigrations(MIGRATIONS_DIR);
    for (const object of objects) {
      const file = `${object.kind}/${object.name}.sql`;
      if (files.has(file)) throw new Error(`Two ${object.kind} named ${object.name} (an overload?): give each its own file by hand`);
      files.set(file, commentOf(object, migrations) + object.definition);
    }
    for (const kind of SQL_OBJECT_KINDS) {
      const folder = path.join(SQL_OBJECTS_DIR, kind);
      fs.mkdirSync(folder, { recursive: true });
      for (const file of fs.readdirSync(folder)) if (file.endsWith(".sql") && !files.has(`${kind}/${file}`)) fs.rmSync(path.join(folder, file));
    }
    for (const [file, text] of files) fs.writeFileSync(path.join(SQL_OBJECTS_DIR, file), text);
    const count = (kind: Kind) => objects.filter((o) => o.kind === kind).length;
    console.log(
      `[sql:extract] wrote ${files.size} files to ${path.relative(process.cwd(), SQL_OBJECTS_DIR)}: ` +
        `${count("functions")} functions, ${count("views")} views, ${count("triggers")} triggers`,
    );
  } finally {
    await server.stop();
    for (const dir of new Set([dataDir, server.clusterDir])) fs.rmSync(dir, { recursive: true, force: true });
  }
}

await main();
