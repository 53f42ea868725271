// The schema of a database as text, for tests/integration/schema.sql (as graphile-worker keeps
// __tests__/schema.sql): enum types, tables with their columns and constraints, indexes, views,
// functions and triggers of the public schema, each in a stable order and in PostgreSQL's own
// words (format_type, pg_get_constraintdef, pg_get_indexdef, pg_get_viewdef,
// pg_get_functiondef, pg_get_triggerdef). Those words can differ between major versions; the
// committed snapshot is written against the embedded PostgreSQL the tests start by default.
import type pg from "pg";

const PUBLIC = `(SELECT oid FROM pg_namespace WHERE nspname = 'public')`;

async function rows<T extends pg.QueryResultRow>(client: pg.ClientBase, sql: string): Promise<T[]> {
  return (await client.query<T>(sql)).rows;
}

export async function describeSchema(client: pg.ClientBase): Promise<string> {
  const parts: string[] = [];

  for (const e of await rows<{ name: string; labels: string[] }>(
    client,
    `SELECT t.typname AS name, array_agg(e.enumlabel ORDER BY e.enumsortorder)::text[] AS labels
       FROM pg_type t JOIN pg_enum e ON e.enumtypid = t.oid
      WHERE t.typnamespace = ${PUBLIC} GROUP BY t.typname ORDER BY t.typname`,
  )) {
    parts.push(`CREATE TYPE "${e.name}" AS ENUM (${e.labels.map((l) => `'${l.replace(/'/g, "''")}'`).join(", ")});`);
  }

  const tables = await rows<{ oid: number; name: string }>(
    client,
    `SELECT oid, relname AS name FROM pg_class WHERE relnamespace = ${PUBLIC} AND relkind IN ('r', 'p') ORDER BY relname`,
  );
  for (const table of tables) {
    const columns = await rows<{ line: string }>(
      client,
      `SELECT format('  %I %s%s%s', a.attname, format_type(a.atttypid, a.atttypmod),
                     CASE WHEN a.attnotnull THEN ' NOT NULL' ELSE '' END,
                     coalesce(' DEFAULT ' || pg_get_expr(d.adbin, d.adrelid), '')) AS line
         FROM pg_attribute a LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
        WHERE a.attrelid = ${table.oid} AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum`,
    );
    const constraints = await rows<{ line: string }>(
      client,
      `SELECT format('  CONSTRAINT %I %s', conname, pg_get_constraintdef(oid)) AS line
         FROM pg_constraint WHERE conrelid = ${table.oid} AND contype <> 'n' ORDER BY conname`,
    );
    parts.push(`CREATE TABLE "${table.name}" (\n${[...columns, ...constraints].map((c) => c.line).join(",\n")}\n);`);
  }

  const statements = [
    `SELECT pg_get_indexdef(i.indexrelid) || ';' AS sql FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
      WHERE c.relnamespace = ${PUBLIC} ORDER BY c.relname`,
    `SELECT format(E'CREATE VIEW %I AS\\n%s', relname, pg_get_viewdef(oid, true)) AS sql
       FROM pg_class WHERE relnamespace = ${PUBLIC} AND relkind = 'v' ORDER BY relname`,
    `SELECT rtrim(pg_get_functiondef(p.oid), E'\\n') || ';' AS sql FROM pg_proc p
      WHERE p.pronamespace = ${PUBLIC} AND p.prokind IN ('f', 'p')
      ORDER BY p.proname, pg_get_function_identity_arguments(p.oid)`,
    `SELECT pg_get_triggerdef(t.oid) || ';' AS sql FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
      WHERE c.relnamespace = ${PUBLIC} AND NOT t.tgisinternal ORDER BY t.tgname, c.relname`,
  ];
  for (const sql of statements) for (const row of await rows<{ sql: string }>(client, sql)) parts.push(row.sql);

  return `${parts.join("\n\n")}\n`;
}
