// Compares prisma/schema.prisma with a live database, both ways: what the schema declares must
// exist exactly as declared, and the database must hold nothing the schema does not declare.
// The migrations are hand-written SQL (Prisma's schema engine cannot run here), so this is
// what stands in for `prisma migrate diff` in tests/integration/schema-agreement.test.ts.
//
// Both sides are reduced to one shape (tables, columns, indexes, foreign keys, enums) with
// PostgreSQL's spelling, and differences come back as readable lines. Foreign key names are not
// compared: the DMMF does not expose `@relation(map:)`.
import fs from "node:fs";
import pg from "pg";

// The parts of Prisma's DMMF datamodel that we read.
type DmmfField = {
  name: string;
  dbName?: string | null;
  kind: "scalar" | "enum" | "object" | "unsupported";
  type: string;
  isList: boolean;
  isRequired: boolean;
  hasDefaultValue: boolean;
  default?: unknown;
  nativeType?: [string, string[]] | null;
  relationFromFields?: string[];
  relationToFields?: string[];
  relationOnDelete?: string;
  relationOnUpdate?: string;
};
type DmmfModel = { name: string; dbName: string | null; fields: DmmfField[] };
type DmmfIndex = {
  model: string;
  type: "id" | "unique" | "normal" | "fulltext";
  dbName?: string | null;
  algorithm?: string;
  fields: { name: string; sortOrder?: "asc" | "desc" }[];
};
type DmmfEnum = { name: string; dbName?: string | null; values: { name: string; dbName?: string | null }[] };
export type Datamodel = { models: DmmfModel[]; enums: DmmfEnum[]; indexes: DmmfIndex[] };

/** Expected default that only has to exist (e.g. `dbgenerated()` without an expression). */
const ANY = "(any default)";

type Column = { type: string; nullable: boolean; default: string | null };
type IndexKind = "primary key" | "unique index" | "index" | "partial or expression index";
type Index = { kind: IndexKind; name: string; columns: string[]; method: string; definition?: string; included?: string[] };
type ForeignKey = { columns: string[]; table: string; references: string[]; onDelete: string; onUpdate: string };
type Table = { columns: Map<string, Column>; indexes: Index[]; foreignKeys: ForeignKey[] };
export type DatabaseShape = { tables: Map<string, Table>; enums: Map<string, string[]> };

/**
 * Indexes schema.prisma declares whose SQL also carries non-key columns (INCLUDE), which Prisma
 * cannot declare: a read that needs only the key and these is answered from the index alone. Any
 * other index with INCLUDE columns, or one of these without exactly them, is drift.
 */
export const COVERING_COLUMNS: { table: string; name: string; include: string[]; why: string }[] = [
  {
    table: "traffic_daily",
    name: "traffic_daily_pkey",
    include: ["hits"],
    why: "a shown page's crawls by crawler over a range, index-only (lib/analytics/traffic.ts pageFunnel; migration 20261214100000_traffic_covering_keys)",
  },
  {
    table: "traffic_visits_daily",
    name: "traffic_visits_daily_workspaceId_domain_path_day_idx",
    include: ["assistant", "visits"],
    why: "a shown page's visits by assistant over a range, index-only (lib/analytics/traffic.ts pageFunnel)",
  },
];

/**
 * Indexes that exist only in the SQL migrations because schema.prisma cannot declare them
 * (expression and partial indexes). Each must exist with exactly this definition (PostgreSQL's
 * `pg_get_indexdef` from " USING " on); any other index the schema does not declare is drift.
 */
export const SQL_ONLY_INDEXES: { table: string; name: string; definition: string; why: string }[] = [
  {
    table: "prompts",
    name: "prompts_live_text_idx",
    definition: `USING btree ("workspaceId", lower(text)) WHERE ("deletedAt" IS NULL)`,
    why: "one live prompt per text ignoring case (unique), looked up by text (lib/prompts/prompts.ts findPromptsByText)",
  },
  {
    table: "checks",
    name: "checks_unfinished_idx",
    definition: `USING btree (id) WHERE ("finishedAt" IS NULL)`,
    why: "checks left unfinished by a worker that stopped before finishing them (lib/lifecycle/transition.ts finishStaleChecks)",
  },
  {
    table: "connection_slots",
    name: "connection_slots_free_idx",
    definition: `USING btree ("connectionId", slot) WHERE ("captureId" IS NULL)`,
    why: "a connection's free slots, taken by each claim without walking the taken ones (beacon_take_slot, migration 20261201140000_lifecycle_hot_path)",
  },
];

/**
 * Columns schema.prisma marks `@default(dbgenerated())` whose value a BEFORE INSERT trigger sets
 * (no column default can read another table): they agree without a default.
 */
export const TRIGGER_SET_COLUMNS: { table: string; column: string; why: string }[] = [
  { table: "captures", column: "promptVersionId", why: "the prompt's current version, set by trigger captures_prompt_version (prisma/sql)" },
];

export async function readDatamodel(schemaPath = "prisma/schema.prisma"): Promise<Datamodel> {
  // CommonJS package: under vitest the functions sit on `default`.
  const internals = await import("@prisma/internals");
  const { getDMMF } = internals.default ?? internals;
  const text = fs.readFileSync(schemaPath, "utf8");
  const dmmf = await getDMMF({ datamodel: text });
  const datamodel = dmmf.datamodel as unknown as Datamodel;
  for (const model of datamodel.models) model.fields.push(...unsupportedFields(text, model.name));
  return datamodel;
}

/**
 * Fields of `Unsupported("type")`, which Prisma leaves out of its DMMF, read from the schema's
 * text: `name Unsupported("xid8")?` and an optional `@default(dbgenerated("expr"))`.
 */
function unsupportedFields(schema: string, modelName: string): DmmfField[] {
  const body = new RegExp(`^model ${modelName} \\{([\\s\\S]*?)^\\}`, "m").exec(schema)?.[1] ?? "";
  return [...body.matchAll(/^\s*(\w+)\s+Unsupported\("([^"]+)"\)(\?)?(.*)$/gm)].map(([, name, type, optional, rest]) => {
    const generated = /@default\(dbgenerated\("([^"]*)"\)\)/.exec(rest ?? "")?.[1];
    return {
      name: name!,
      kind: "unsupported",
      type: type!,
      isList: false,
      isRequired: !optional,
      hasDefaultValue: generated !== undefined,
      default: generated === undefined ? undefined : { name: "dbgenerated", args: [generated] },
    } as DmmfField;
  });
}

// ---------------------------------------------------------------------------------------------
// What the schema declares

const tableOf = (model: DmmfModel) => model.dbName ?? model.name;
const columnOf = (model: DmmfModel, fieldName: string) => {
  const field = model.fields.find((f) => f.name === fieldName);
  return field?.dbName ?? fieldName;
};

function columnType(field: DmmfField, enums: DmmfEnum[]): string {
  const list = field.isList ? "[]" : "";
  if (field.kind === "unsupported") return field.type;
  if (field.kind === "enum") {
    const e = enums.find((x) => x.name === field.type);
    return `enum ${e?.dbName ?? field.type}${list}`;
  }
  const [native, args = []] = field.nativeType ?? [];
  const n = args.length ? `(${args.join(",")})` : "";
  const byNative: Record<string, string> = {
    Text: "text",
    Uuid: "uuid",
    VarChar: `character varying${n}`,
    Char: `character${n}`,
    Xml: "xml",
    Inet: "inet",
    Citext: "citext",
    SmallInt: "smallint",
    Integer: "integer",
    BigInt: "bigint",
    Oid: "oid",
    Real: "real",
    DoublePrecision: "double precision",
    Decimal: `numeric${n}`,
    Money: "money",
    Timestamp: `timestamp${n} without time zone`,
    Timestamptz: `timestamp${n} with time zone`,
    Date: "date",
    Time: `time${n} without time zone`,
    Timetz: `time${n} with time zone`,
    Json: "json",
    JsonB: "jsonb",
    ByteA: "bytea",
    Boolean: "boolean",
  };
  const byType: Record<string, string> = {
    String: "text",
    Int: "integer",
    BigInt: "bigint",
    Float: "double precision",
    Decimal: "numeric(65,30)",
    Boolean: "boolean",
    DateTime: "timestamp(3) without time zone",
    Json: "jsonb",
    Bytes: "bytea",
  };
  const base = native ? byNative[native] : byType[field.type];
  return `${base ?? `unknown type ${field.type}${native ? ` @db.${native}` : ""}`}${list}`;
}

function expectedDefault(field: DmmfField): string | null {
  if (!field.hasDefaultValue) return null;
  const value = field.default;
  if (Array.isArray(value)) return JSON.stringify(value.map(String));
  if (value !== null && typeof value === "object") {
    const fn = value as { name: string; args: unknown[] };
    if (fn.name === "now") return "CURRENT_TIMESTAMP";
    if (fn.name === "dbgenerated") return fn.args[0] === undefined ? ANY : String(fn.args[0]);
    // Generated by Prisma Client, not by the database.
    if (["uuid", "cuid", "nanoid", "ulid"].includes(fn.name)) return null;
    return ANY; // autoincrement() and friends: a sequence default
  }
  return field.type === "Json" ? canonicalJson(String(value)) : String(value);
}

/** Prisma's default constraint names, truncated like Prisma does to PostgreSQL's 63 bytes. */
const defaultName = (table: string, columns: string[], suffix: string) =>
  `${[table, ...columns].join("_").slice(0, 63 - suffix.length)}${suffix}`;

export function expectedShape(datamodel: Datamodel): DatabaseShape {
  const tables = new Map<string, Table>();
  for (const model of datamodel.models) {
    const columns = new Map<string, Column>();
    const foreignKeys: ForeignKey[] = [];
    for (const field of model.fields) {
      if (field.kind !== "object") {
        columns.set(field.dbName ?? field.name, {
          type: columnType(field, datamodel.enums),
          nullable: !field.isRequired,
          default: expectedDefault(field),
        });
        continue;
      }
      const from = field.relationFromFields ?? [];
      if (!from.length) continue;
      const target = datamodel.models.find((m) => m.name === field.type);
      if (!target) throw new Error(`relation ${model.name}.${field.name} points at unknown model ${field.type}`);
      const required = from.every((name) => model.fields.find((f) => f.name === name)?.isRequired);
      foreignKeys.push({
        columns: from.map((name) => columnOf(model, name)),
        table: tableOf(target),
        references: (field.relationToFields ?? []).map((name) => columnOf(target, name)),
        onDelete: field.relationOnDelete ?? (required ? "Restrict" : "SetNull"),
        onUpdate: field.relationOnUpdate ?? "Cascade",
      });
    }
    tables.set(tableOf(model), { columns, indexes: [], foreignKeys });
  }
  for (const index of datamodel.indexes) {
    if (index.type === "fulltext") continue; // MySQL only
    const model = datamodel.models.find((m) => m.name === index.model);
    const table = model && tables.get(tableOf(model));
    if (!model || !table) throw new Error(`index on unknown model ${index.model}`);
    const names = index.fields.map((f) => columnOf(model, f.name));
    const kind: IndexKind = index.type === "id" ? "primary key" : index.type === "unique" ? "unique index" : "index";
    const suffix = index.type === "id" ? "_pkey" : index.type === "unique" ? "_key" : "_idx";
    table.indexes.push({
      kind,
      name: index.dbName ?? (index.type === "id" ? defaultName(tableOf(model), [], suffix) : defaultName(tableOf(model), names, suffix)),
      columns: names.map((name, i) => (index.fields[i]?.sortOrder === "desc" ? `${name} DESC` : name)),
      method: (index.algorithm ?? "BTree").toLowerCase(),
    });
  }
  const enums = new Map(datamodel.enums.map((e) => [e.dbName ?? e.name, e.values.map((v) => v.dbName ?? v.name)]));
  return { tables, enums };
}

// ---------------------------------------------------------------------------------------------
// What the database has

const ACTIONS: Record<string, string> = { a: "NoAction", r: "Restrict", c: "Cascade", n: "SetNull", d: "SetDefault" };

function canonicalJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text));
  } catch {
    return text;
  }
}

/** `'auto'::"SearchMode"` -> auto, `ARRAY[]::text[]` -> [], `'{}'::jsonb` -> {} */
function normalizeDefault(expression: string | null, column: { type: string }): string | null {
  if (expression === null) return null;
  const stripCasts = (text: string) => {
    const cast = /::(?:"[^"]+"|[a-z_][a-z0-9_ ]*(?:\(\d+(?:,\d+)?\))?)(?:\[\])*$/i;
    let e = text.trim();
    while (cast.test(e)) e = e.replace(cast, "").trim();
    const quoted = /^'((?:[^']|'')*)'$/s.exec(e);
    return quoted ? quoted[1]!.replaceAll("''", "'") : e;
  };
  const e = stripCasts(expression);
  const array = /^ARRAY\[(.*)\]$/s.exec(e);
  if (array) return JSON.stringify(array[1]!.trim() ? array[1]!.split(",").map(stripCasts) : []);
  if (column.type.endsWith("[]") && /^\{.*\}$/s.test(e)) {
    const items = e.slice(1, -1).trim();
    return JSON.stringify(items ? items.split(",").map((item) => item.trim().replace(/^"(.*)"$/s, "$1")) : []);
  }
  return column.type === "jsonb" || column.type === "json" ? canonicalJson(e) : e;
}

export async function readDatabaseShape(
  client: pg.ClientBase,
  options: { schema?: string; ignoreTables?: string[] } = {},
): Promise<DatabaseShape> {
  const schema = options.schema ?? "public";
  const ignore = options.ignoreTables ?? ["_prisma_migrations", "beacon_sql_objects"];
  const tables = new Map<string, Table>();
  const { rows: tableRows } = await client.query<{ name: string }>(
    `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = $1 AND c.relkind IN ('r', 'p') AND NOT c.relispartition AND c.relname <> ALL ($2)`,
    [schema, ignore],
  );
  for (const { name } of tableRows) tables.set(name, { columns: new Map(), indexes: [], foreignKeys: [] });

  const { rows: columns } = await client.query<{
    table: string;
    column: string;
    type: string;
    enum: string | null;
    is_array: boolean;
    not_null: boolean;
    default: string | null;
  }>(
    `SELECT c.relname AS table, a.attname AS column, format_type(a.atttypid, a.atttypmod) AS type,
            CASE WHEN coalesce(et.typtype, t.typtype) = 'e' THEN coalesce(et.typname, t.typname) END AS enum,
            et.oid IS NOT NULL AS is_array, a.attnotnull AS not_null, pg_get_expr(d.adbin, d.adrelid) AS default
       FROM pg_attribute a
       JOIN pg_class c ON c.oid = a.attrelid
       JOIN pg_namespace n ON n.oid = c.relnamespace
       JOIN pg_type t ON t.oid = a.atttypid
       LEFT JOIN pg_type et ON et.oid = t.typelem AND t.typcategory = 'A'
       LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
      WHERE n.nspname = $1 AND a.attnum > 0 AND NOT a.attisdropped
      ORDER BY c.relname, a.attnum`,
    [schema],
  );
  for (const row of columns) {
    const type = row.enum ? `enum ${row.enum}${row.is_array ? "[]" : ""}` : row.type;
    tables.get(row.table)?.columns.set(row.column, {
      type,
      nullable: !row.not_null,
      default: normalizeDefault(row.default, { type }),
    });
  }

  const { rows: indexes } = await client.query<{
    table: string;
    name: string;
    method: string;
    primary: boolean;
    unique: boolean;
    special: boolean;
    columns: string[];
    included: string[];
    definition: string;
  }>(
    `SELECT c.relname AS table, i.relname AS name, am.amname AS method, x.indisprimary AS primary, pg_get_indexdef(x.indexrelid) AS definition,
            x.indisunique AS unique, (x.indpred IS NOT NULL OR x.indexprs IS NOT NULL) AS special,
            array(SELECT coalesce(a.attname::text, '(expression)')
                         || CASE WHEN pg_index_column_has_property(x.indexrelid, k.ord::int, 'desc') THEN ' DESC' ELSE '' END
                    FROM unnest(x.indkey::int2[]) WITH ORDINALITY AS k(attnum, ord)
                    LEFT JOIN pg_attribute a ON a.attrelid = x.indrelid AND a.attnum = k.attnum AND k.attnum > 0
                   WHERE k.ord <= x.indnkeyatts
                   ORDER BY k.ord) AS columns,
            array(SELECT a.attname::text
                    FROM unnest(x.indkey::int2[]) WITH ORDINALITY AS k(attnum, ord)
                    JOIN pg_attribute a ON a.attrelid = x.indrelid AND a.attnum = k.attnum
                   WHERE k.ord > x.indnkeyatts
                   ORDER BY k.ord) AS included
       FROM pg_index x
       JOIN pg_class i ON i.oid = x.indexrelid
       JOIN pg_class c ON c.oid = x.indrelid
       JOIN pg_namespace n ON n.oid = c.relnamespace
       JOIN pg_am am ON am.oid = i.relam
      WHERE n.nspname = $1`,
    [schema],
  );
  for (const row of indexes) {
    const kind: IndexKind = row.special
      ? "partial or expression index"
      : row.primary
        ? "primary key"
        : row.unique
          ? "unique index"
          : "index";
    tables.get(row.table)?.indexes.push({ kind, name: row.name, columns: row.columns, method: row.method, definition: row.definition, included: row.included });
  }

  const { rows: foreignKeys } = await client.query<{
    table: string;
    columns: string[];
    target: string;
    references: string[];
    on_delete: string;
    on_update: string;
  }>(
    `SELECT c.relname AS table, t.relname AS target, con.confdeltype AS on_delete, con.confupdtype AS on_update,
            array(SELECT a.attname::text FROM unnest(con.conkey) WITH ORDINALITY AS k(attnum, ord)
                    JOIN pg_attribute a ON a.attrelid = con.conrelid AND a.attnum = k.attnum ORDER BY k.ord) AS columns,
            array(SELECT a.attname::text FROM unnest(con.confkey) WITH ORDINALITY AS k(attnum, ord)
                    JOIN pg_attribute a ON a.attrelid = con.confrelid AND a.attnum = k.attnum ORDER BY k.ord) AS references
       FROM pg_constraint con
       JOIN pg_class c ON c.oid = con.conrelid
       JOIN pg_namespace n ON n.oid = c.relnamespace
       JOIN pg_class t ON t.oid = con.confrelid
      WHERE n.nspname = $1 AND con.contype = 'f'`,
    [schema],
  );
  for (const row of foreignKeys) {
    tables.get(row.table)?.foreignKeys.push({
      columns: row.columns,
      table: row.target,
      references: row.references,
      onDelete: ACTIONS[row.on_delete] ?? row.on_delete,
      onUpdate: ACTIONS[row.on_update] ?? row.on_update,
    });
  }

  const { rows: enums } = await client.query<{ name: string; values: string[] }>(
    `SELECT t.typname AS name,
            array(SELECT e.enumlabel::text FROM pg_enum e WHERE e.enumtypid = t.oid ORDER BY e.enumsortorder) AS values
       FROM pg_type t JOIN pg_namespace n ON n.oid = t.typnamespace
      WHERE n.nspname = $1 AND t.typtype = 'e'`,
    [schema],
  );
  return { tables, enums: new Map(enums.map((e) => [e.name, e.values])) };
}

// ---------------------------------------------------------------------------------------------
// The comparison

const list = (items: string[]) => `(${items.join(", ")})`;

/** Every difference as one readable line; empty when the database matches the schema. */
export function diffShapes(expected: DatabaseShape, actual: DatabaseShape): string[] {
  const problems: string[] = [];
  for (const [name, table] of expected.tables) {
    const found = actual.tables.get(name);
    if (!found) {
      problems.push(`table ${name}: missing`);
      continue;
    }
    for (const [column, want] of table.columns) {
      const have = found.columns.get(column);
      if (!have) {
        problems.push(`column ${name}.${column}: missing`);
        continue;
      }
      if (want.type !== ANY && want.type !== have.type)
        problems.push(`column ${name}.${column}: type should be ${want.type}, is ${have.type}`);
      if (want.nullable !== have.nullable)
        problems.push(`column ${name}.${column}: should be ${want.nullable ? "nullable" : "NOT NULL"}, is ${have.nullable ? "nullable" : "NOT NULL"}`);
      const triggerSet = TRIGGER_SET_COLUMNS.some((t) => t.table === name && t.column === column);
      const defaultAgrees = want.default === ANY ? have.default !== null || triggerSet : want.default === have.default;
      if (!defaultAgrees)
        problems.push(`column ${name}.${column}: default should be ${want.default ?? "none"}, is ${have.default ?? "none"}`);
    }
    for (const column of found.columns.keys())
      if (!table.columns.has(column)) problems.push(`column ${name}.${column}: not a field in schema.prisma`);

    const indexKey = (i: Index) => `${i.kind} ${list(i.columns)}`;
    const unmatched = [...found.indexes];
    for (const want of table.indexes) {
      const at = unmatched.findIndex((have) => indexKey(have) === indexKey(want));
      const have = unmatched.splice(at, at < 0 ? 0 : 1)[0];
      if (at < 0 || !have) {
        problems.push(`${want.kind} ${name}${list(want.columns)}: missing (expected "${want.name}" using ${want.method})`);
        continue;
      }
      if (have.name !== want.name) problems.push(`${want.kind} ${name}${list(want.columns)}: named "${have.name}", Prisma expects "${want.name}"`);
      if (have.method !== want.method) problems.push(`${want.kind} ${name}${list(want.columns)}: uses ${have.method}, should use ${want.method}`);
      const covering = COVERING_COLUMNS.find((c) => c.table === name && c.name === want.name);
      const included = have.included ?? [];
      if (list(included) !== list(covering?.include ?? []))
        problems.push(
          covering
            ? `${want.kind} ${name}${list(want.columns)}: includes ${list(included)}, COVERING_COLUMNS says ${list(covering.include)}`
            : `${want.kind} ${name}${list(want.columns)}: includes ${list(included)}, which schema.prisma cannot declare (list it in COVERING_COLUMNS)`,
        );
    }
    for (const want of SQL_ONLY_INDEXES.filter((i) => i.table === name)) {
      const at = unmatched.findIndex((have) => have.name === want.name);
      const have = unmatched.splice(at, at < 0 ? 0 : 1)[0];
      const definition = have?.definition?.slice(have.definition.indexOf(" USING ") + 1);
      if (at < 0 || !have) problems.push(`index "${want.name}" on ${name}: missing (listed in SQL_ONLY_INDEXES)`);
      else if (definition !== want.definition) problems.push(`index "${want.name}" on ${name}: is ${definition}, SQL_ONLY_INDEXES says ${want.definition}`);
    }
    for (const have of unmatched)
      problems.push(`${have.kind} "${have.name}" on ${name}${list(have.columns)} using ${have.method}: not declared in schema.prisma`);

    const fkKey = (fk: ForeignKey) => `${list(fk.columns)} -> ${fk.table}${list(fk.references)}`;
    const unmatchedFks = [...found.foreignKeys];
    for (const want of table.foreignKeys) {
      const at = unmatchedFks.findIndex((have) => fkKey(have) === fkKey(want));
      const have = unmatchedFks.splice(at, at < 0 ? 0 : 1)[0];
      if (at < 0 || !have) {
        problems.push(`foreign key ${name}${fkKey(want)}: missing`);
        continue;
      }
      if (have.onDelete !== want.onDelete) problems.push(`foreign key ${name}${fkKey(want)}: ON DELETE should be ${want.onDelete}, is ${have.onDelete}`);
      if (have.onUpdate !== want.onUpdate) problems.push(`foreign key ${name}${fkKey(want)}: ON UPDATE should be ${want.onUpdate}, is ${have.onUpdate}`);
    }
    for (const have of unmatchedFks) problems.push(`foreign key ${name}${fkKey(have)}: not a relation in schema.prisma`);
  }
  for (const name of actual.tables.keys()) if (!expected.tables.has(name)) problems.push(`table ${name}: not a model in schema.prisma`);

  for (const [name, values] of expected.enums) {
    const found = actual.enums.get(name);
    if (!found) problems.push(`enum ${name}: missing`);
    else if (JSON.stringify(found) !== JSON.stringify(values)) problems.push(`enum ${name}: values should be ${list(values)}, are ${list(found)}`);
  }
  for (const name of actual.enums.keys()) if (!expected.enums.has(name)) problems.push(`enum ${name}: not an enum in schema.prisma`);
  return problems.sort();
}

/** Differences between prisma/schema.prisma (or `schemaPath`) and the database at `databaseUrl`. */
export async function compareSchemaWithDatabase(databaseUrl: string, schemaPath?: string): Promise<string[]> {
  const expected = expectedShape(await readDatamodel(schemaPath));
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return diffShapes(expected, await readDatabaseShape(client));
  } finally {
    await client.end();
  }
}
