// The SQL that keeps the rollups, generated from ROLLUPS (lib/analytics/rollup-tables.ts) into
// prisma/sql/functions by `npm run sql:generate` (scripts/generate-sql.ts); rollup-sql.test.ts
// fails while a file differs from what this writes. Static SQL, one statement per table: it runs
// in every success (beacon_succeed), on cached plans, so nothing here is built at run time.
import { keyColumns, lockOrder, measuresOf, ordinals, ident, period, ROLLUPS, type Measure, type Rollup } from "@/lib/analytics/rollup-tables";

export const GENERATED_ROLLUP_FILES = ["beacon_rollup_captures", "beacon_rollup_stage", "beacon_rollup_apply_stage", "beacon_prompt_tags_changed"] as const;
export type GeneratedRollupFile = (typeof GENERATED_ROLLUP_FILES)[number];

export function generatedRollupSql(name: GeneratedRollupFile, rollups: Rollup[] = ROLLUPS): string {
  switch (name) {
    case "beacon_rollup_captures":
      return rollupCapturesSql(rollups);
    case "beacon_rollup_stage":
      return rollupStageSql(rollups);
    case "beacon_rollup_apply_stage":
      return applyStageSql(rollups);
    case "beacon_prompt_tags_changed":
      return promptTagsChangedSql(rollups);
  }
}

/** The temporary table a rewrite stages a rollup's change in (beacon_rollup_stage), and its name in the session's pg_temp. */
const stageName = (r: Rollup) => `${r.table}_change`;
const stageTable = (r: Rollup) => `pg_temp.${stageName(r)}`;

const HEADER = "-- Generated from ROLLUPS in lib/analytics/rollup-tables.ts by `npm run sql:generate`; do not edit.";
const quoted = (columns: string[]) => columns.map((c) => `"${c}"`).join(", ");
const select = (m: Measure) => ("sum" in m ? `sign * ${m.sum}` : m.select);
const merge = (m: Measure) => ("sum" in m ? `r."${m.column}" + excluded."${m.column}"` : m.merge);

/** INSERT … SELECT … ON CONFLICT: adds `keys`' rows' measures to the table (or `into`, a table like it), rows in key order. */
function upsert(r: Rollup, body: { with?: string; keys: string[]; measures: string[]; from: string }, into = r.table): string {
  const keys = keyColumns(r);
  const measures = measuresOf(r);
  if (body.keys.length !== keys.length) throw new Error(`${r.table}: ${body.keys.length} key expressions for ${keys.length} key columns`);
  return [
    `  INSERT INTO ${into} AS r (${quoted([...keys, ...measures.map((m) => m.column)])})`,
    ...(body.with ? [`  WITH ${body.with}`] : []),
    `  SELECT ${body.keys.join(", ")},`,
    body.measures.map((m) => `    ${m}`).join(",\n"),
    `  ${body.from}`,
    `  GROUP BY ${ordinals(keys.length)}`,
    `  ORDER BY ${ordinals(keys.length)}`,
    `  ON CONFLICT (${quoted(keys)}) DO UPDATE SET`,
    `${measures.map((m) => `      "${m.column}" = ${merge(m)}`).join(",\n")};`,
  ].join("\n");
}

/**
 * A capture's contribution to every table, tables in the lock order, after the shared tag locks:
 * beacon_rollup_captures' body, and beacon_rollup_stage's with `into` its stage tables.
 */
function contributionSql(rollups: Rollup[], into: (r: Rollup) => string = (r) => r.table, guard?: (r: Rollup) => { when: string; first: string }): string {
  const statements = lockOrder(rollups).map((r) => {
    const rows = r.family.rows(r);
    const statement = upsert(r, { ...rows, measures: measuresOf(r).map(select) }, into(r));
    if (!guard) return statement;
    const { when, first } = guard(r);
    return `  IF ${when} THEN\n${first}\n${statement}\n  END IF;`;
  });
  const tagLocks = rollups.some((r) => r.byTag)
    ? [
        "  -- The prompts' tags are read below (the rollups with a tag): shared with other writers of the",
        "  -- rollups, exclusive for a change of the prompt's tags (beacon_prompt_tags_changed), taken",
        "  -- before any rollup row, in id order.",
        "  PERFORM pg_advisory_xact_lock_shared(hashtextextended('prompt-tags:' || p.id, 0))",
        '  FROM (SELECT DISTINCT c."promptId" AS id FROM captures c WHERE c.id = ANY(ids) ORDER BY 1) p;',
      ]
    : [];
  return [...tagLocks, ...statements.map((s, i) => (i ? `\n${s}` : s))].join("\n");
}

function rollupCapturesSql(rollups: Rollup[]): string {
  return `${HEADER}
-- A capture's contribution to every rollup, read from its raw rows: sign 1 adds it, -1 takes it
-- away. Rows in key order, tables in the rollups' lock order (lockOrder: those whose rows fewer
-- captures share first, so the rows every capture writes are held the shortest).
CREATE OR REPLACE FUNCTION public.beacon_rollup_captures(ids uuid[], sign integer)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
BEGIN
${contributionSql(rollups)}
END
$function$;
`;
}

/**
 * A rewrite's first half (lib/analytics/rollups.ts rewriteRollups): the same contribution, staged
 * in a temporary table per rollup instead of written, so a rewrite takes its contribution away
 * (-1) before its raw rows change and adds it again (+1) after without holding a rollup row;
 * beacon_rollup_apply_stage then writes the difference in the lock order. Only the rollups whose
 * family reads one of `sources` (the kinds of raw rows the rewrite changes) are staged: the
 * others' contribution is the same before and after. A staged rollup's table is the session's,
 * made here on first use in a transaction and dropped at its commit; the others have none.
 */
function rollupStageSql(rollups: Rollup[]): string {
  // A table is made only when its rollup is staged: a temporary table is catalog rows written and
  // removed again at the commit, and a batch that changes only mentions stages 7 of 35.
  const staged = (r: Rollup) => ({
    when: `sources && ARRAY[${r.family.reads.map((x) => `'${x}'`).join(", ")}]::text[]`,
    first: [
      `  IF to_regclass('${stageTable(r)}') IS NULL THEN`,
      `    CREATE TEMPORARY TABLE ${stageName(r)} (LIKE ${r.table} INCLUDING DEFAULTS, PRIMARY KEY (${quoted(keyColumns(r))})) ON COMMIT DROP;`,
      "  END IF;",
    ].join("\n"),
  });
  return `${HEADER}
-- Stages a capture's contribution (sign 1) or its removal (-1) to every rollup in the rewrite's
-- temporary tables (pg_temp.<rollup>_change), as beacon_rollup_captures would write it, for the
-- rollups whose family reads one of \`sources\` (mentions, citations, candidates: what the rewrite changes).
CREATE OR REPLACE FUNCTION public.beacon_rollup_stage(ids uuid[], sign integer, sources text[])
 RETURNS void
 LANGUAGE plpgsql
AS $function$
BEGIN
${contributionSql(rollups, stageTable, staged)}
END
$function$;
`;
}

/**
 * A rewrite's second half: each stage table's rows that change (the old contribution taken away,
 * the new one added: a sum's difference not zero, or a name given) written to its rollup in the
 * lock order, rows in key order, as a success writes them, so the two cannot deadlock; then the
 * rows no answer counts in any more removed (the family's `prunedBy` column is zero: an entity no
 * answer names now, a domain no answer cites), as a rebuild would not have them. Only rows the
 * stage changed are touched, all locked by its upsert. A re-analysis that changes the mentions
 * only leaves the shared domain and page totals alone. Only the rollups with a stage table (made
 * by beacon_rollup_stage) are written, so called without a stage it writes nothing: its one
 * caller is lib/analytics/rollups.ts rewriteRollups, after both halves.
 */
function applyStageSql(rollups: Rollup[]): string {
  const statements = lockOrder(rollups).map((r) => {
    const keys = keyColumns(r);
    const columns = quoted([...keys, ...measuresOf(r).map((m) => m.column)]);
    const counter = r.family.prunedBy;
    // Rows whose difference is zero change nothing (none can reach zero) and are not locked.
    const changes = measuresOf(r)
      .map((m) => ("sum" in m ? `s."${m.column}" <> 0` : m.changes?.(`s."${m.column}"`)))
      .filter(Boolean)
      .join(" OR ");
    return [
      `  IF to_regclass('${stageTable(r)}') IS NOT NULL THEN`,
      `  INSERT INTO ${r.table} AS r (${columns})`,
      `  SELECT ${columns} FROM ${stageTable(r)} s`,
      `  WHERE ${changes}`,
      `  ORDER BY ${ordinals(keys.length)}`,
      `  ON CONFLICT (${quoted(keys)}) DO UPDATE SET`,
      `${measuresOf(r).map((m) => `      "${m.column}" = ${merge(m)}`).join(",\n")};`,
      ...(counter
        ? [
            `  DELETE FROM ${r.table} r USING ${stageTable(r)} s`,
            `  WHERE ${keys.map((c) => `r.${ident(c)} = s.${ident(c)}`).join(" AND ")} AND r.${ident(counter)} = 0 AND (${changes});`,
          ]
        : []),
      `  TRUNCATE ${stageTable(r)};`,
      "  END IF;",
    ].join("\n");
  });
  return `${HEADER}
-- Writes what beacon_rollup_stage staged to the rollups, in the lock order, and empties the stage
-- (the rollups it staged: those with a stage table).
CREATE OR REPLACE FUNCTION public.beacon_rollup_apply_stage()
 RETURNS void
 LANGUAGE plpgsql
AS $function$
BEGIN
${statements.join("\n\n")}
END
$function$;
`;
}

/**
 * Each rollup's statement adding every succeeded capture of the workspace `$1` at once, for tables
 * that hold none of them yet: what the benchmarks build over the millions of captures they
 * generate with SQL. The same statements as beacon_rollup_captures' (its body, with the captures
 * of the workspace instead of `ids` and the sign 1), so a rollup is still defined once; each a
 * statement of its own, run by one writer (no tag locks). beacon_rollup_captures over batches of
 * ids costs ~1.7 ms of PostgreSQL per capture at 1M captures, and its batches' plans scan whole
 * raw tables, so 10M captures took hours; here each table is one grouped pass.
 */
export function workspaceRollupStatements(rollups: Rollup[] = ROLLUPS): { table: string; sql: string }[] {
  return rollups.map((r) => {
    const rows = r.family.rows(r);
    const sql = upsert(r, { ...rows, measures: measuresOf(r).map(select) })
      .replaceAll("c.id = ANY(ids)", 'c."workspaceId" = $1::uuid')
      .replaceAll('m."captureId" = ANY(ids)', 'm."workspaceId" = $1::uuid')
      .replace(/\bsign\b/g, "1");
    if (/\bids\b/.test(sql)) throw new Error(`${r.table}: its rows name the batch's ids in a way workspaceRollupStatements does not scope to the workspace`);
    return { table: r.table, sql };
  });
}

/**
 * The table per prompt a rollup with a tag moves its rows from: its family's per prompt and period
 * of the same grain (fewer rows to move) with the provider only if the tag table has it, else its
 * family's per prompt and day.
 */
function tagSource(r: Rollup, rollups: Rollup[]): Rollup {
  const perPrompt = rollups.filter((s) => s.family === r.family && s.byPrompt && !s.byTag);
  const source =
    perPrompt.find((s) => s.grain === r.grain && s.grain !== "day" && (r.byProvider === false || s.byProvider !== false)) ?? perPrompt.find((s) => s.grain === "day");
  if (!source) throw new Error(`${r.table} has a tag but its family has no table per prompt and day to move rows from`);
  const notAdded = measuresOf(r).filter((m) => !("sum" in m) || !measuresOf(source).some((s) => s.column === m.column));
  if (notAdded.length) throw new Error(`${r.table}: ${notAdded.map((m) => m.column).join(", ")} cannot move between tags (not a sum of ${source.table})`);
  if (!r.family.prunedBy) throw new Error(`${r.table} has a tag but no prunedBy: the rows a tag leaves at zero must go`);
  return source;
}

const MOVES = `moves AS (
    SELECT n.id, n."workspaceId", x.tag, -1 AS sign
    FROM new_prompts n JOIN old_prompts o ON o.id = n.id CROSS JOIN LATERAL (SELECT unnest(o.tags) EXCEPT SELECT unnest(n.tags)) x(tag)
    UNION ALL
    SELECT n.id, n."workspaceId", x.tag, 1
    FROM new_prompts n JOIN old_prompts o ON o.id = n.id CROSS JOIN LATERAL (SELECT unnest(n.tags) EXCEPT SELECT unnest(o.tags)) x(tag)
  )`;

/** A tag rollup's share of the prompts' re-tagging: move their rows per prompt, then remove rows left at zero. */
function moveTags(r: Rollup, source: Rollup): string {
  const keys = keyColumns(r);
  const from = (tag: string, named: boolean) =>
    keys.map((c) =>
      c === "tag" ? tag : c === r.grain ? (source.grain === r.grain ? `s.${c}` : `${period(r.grain, "s.day")}${named ? ` AS ${c}` : ""}`) : `s.${ident(c)}`,
    );
  const insert = upsert(r, {
    with: MOVES,
    keys: from("m.tag", false),
    measures: measuresOf(r).map((m) => `sum(m.sign * s.${ident(m.column)})`),
    from: `FROM moves m JOIN ${source.table} s ON s."workspaceId" = m."workspaceId" AND s."promptId" = m.id`,
  });
  return `  -- ${r.table}, from ${source.table}.
${insert}
  DELETE FROM ${r.table} r
  USING (
    SELECT DISTINCT ${from("x.tag", true).join(", ")}
    FROM new_prompts n JOIN old_prompts o ON o.id = n.id
    CROSS JOIN LATERAL (SELECT unnest(o.tags) EXCEPT SELECT unnest(n.tags)) x(tag)
    JOIN ${source.table} s ON s."workspaceId" = n."workspaceId" AND s."promptId" = n.id
  ) k
  WHERE ${keys.map((c) => `r.${ident(c)} = k.${ident(c)}`).join(" AND ")}
    AND r.${ident(r.family.prunedBy ?? "")} = 0;`;
}

function promptTagsChangedSql(rollups: Rollup[]): string {
  const moves = lockOrder(rollups).filter((r) => r.byTag).map((r) => moveTags(r, tagSource(r, rollups)));
  return `${HEADER}
-- Prompts' tags changed: each prompt's contribution leaves the tags it lost and joins those it
-- gained in every rollup with a tag, read from its family's rows per prompt and period (the same
-- counts, per prompt). Rows left at zero go, as a rebuild would not have them. Once per statement,
-- with the statement's changed prompts: their tag locks are taken in id order, as answers take
-- them (beacon_rollup_captures), so a re-tagging of many prompts at once cannot deadlock with a
-- re-analysis holding several.
CREATE OR REPLACE FUNCTION public.beacon_prompt_tags_changed()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  PERFORM pg_advisory_xact_lock(hashtextextended('prompt-tags:' || n.id, 0))
  FROM new_prompts n JOIN old_prompts o ON o.id = n.id
  WHERE o.tags IS DISTINCT FROM n.tags
  ORDER BY n.id;
${moves.join("\n")}
  RETURN NULL;
END
$function$;
`;
}
