import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { GENERATED_ROLLUP_FILES, generatedRollupSql, workspaceRollupStatements } from "@/lib/analytics/rollup-sql";
import { ANSWER_SOURCES, captureKeyColumns, lockOrder, ROLLUPS, type AnswerSource, type Rollup } from "@/lib/analytics/rollup-tables";

const functionsDir = path.resolve(process.cwd(), "prisma", "sql", "functions");
const withTable = (changed: Rollup, rollups = ROLLUPS) => rollups.map((r) => (r.table === changed.table ? changed : r));

describe("the rollups' functions of prisma/sql", () => {
  it.each(GENERATED_ROLLUP_FILES)("%s is what ROLLUPS generates (npm run sql:generate)", (name) => {
    expect(fs.readFileSync(path.join(functionsDir, `${name}.sql`), "utf8")).toBe(generatedRollupSql(name));
  });

  it("write every table once, in the lock order, with its whole key as the conflict target", () => {
    const sql = generatedRollupSql("beacon_rollup_captures");
    const written = [...sql.matchAll(/INSERT INTO (\w+) AS r/g)].map((m) => m[1]);
    expect(written).toEqual(lockOrder(ROLLUPS).map((r) => r.table));
    expect([...written].sort()).toEqual(ROLLUPS.map((r) => r.table).sort());
    expect(sql.indexOf("pg_advisory_xact_lock_shared")).toBeLessThan(sql.indexOf("INSERT INTO"));
    expect(sql).not.toMatch(/EXECUTE/);
    expect(sql).toContain(`ON CONFLICT ("workspaceId", "brandId", "tag", "week", "providerConfigId", "domain", "name") DO UPDATE SET`);
  });

  it("stage a rewrite with the success's statements, into temporary tables, and write the stage in the lock order, pruning only the rows it touched", () => {
    const captures = generatedRollupSql("beacon_rollup_captures");
    const stage = generatedRollupSql("beacon_rollup_stage");
    const body = (sql: string) => sql.slice(sql.indexOf("pg_advisory_xact_lock_shared"), sql.lastIndexOf("END"));
    // The same contribution, statement for statement; only the tables written differ, each staged
    // (its table made, then written) when the rewrite changes a kind of raw row its family reads.
    const guard =
      /^  IF sources && ARRAY\[([^\]]*)\]::text\[\] THEN\n  IF to_regclass\('pg_temp\.(\w+)_change'\) IS NULL THEN\n    CREATE TEMPORARY TABLE \2_change \(LIKE \2 INCLUDING DEFAULTS, PRIMARY KEY \([^\n]*\)\) ON COMMIT DROP;\n  END IF;\n  INSERT INTO pg_temp\.\2_change AS r/gm;
    const guarded = [...stage.matchAll(guard)].map((m) => [m[2], m[1]]);
    expect(guarded).toEqual(lockOrder(ROLLUPS).map((r) => [r.table, r.family.reads.map((x) => `'${x}'`).join(", ")]));
    const unguarded = body(stage)
      .replace(/^  IF sources && .*THEN\n  IF to_regclass.*\n    CREATE TEMPORARY TABLE .*\n  END IF;\n/gm, "")
      .replace(/\n  END IF;$/gm, "");
    expect(unguarded).toBe(body(captures).replace(/INSERT INTO (\w+) AS r/g, "INSERT INTO pg_temp.$1_change AS r"));
    for (const r of ROLLUPS) expect(stage).toContain(`CREATE TEMPORARY TABLE ${r.table}_change (LIKE ${r.table} INCLUDING DEFAULTS, PRIMARY KEY (`);

    const apply = generatedRollupSql("beacon_rollup_apply_stage");
    const written = [...apply.matchAll(/INSERT INTO (\w+) AS r[\s\S]*?FROM pg_temp\.(\w+)_change/g)];
    expect(written.map((m) => m[1])).toEqual(lockOrder(ROLLUPS).map((r) => r.table));
    expect(written.every((m) => m[1] === m[2])).toBe(true);
    // Each written only if the rewrite staged it (made its table), which is then emptied.
    const blocks = [...apply.matchAll(/^  IF to_regclass\('pg_temp\.(\w+)_change'\) IS NOT NULL THEN\n  INSERT INTO (\w+) AS r[\s\S]*?\n  TRUNCATE pg_temp\.(\w+)_change;\n  END IF;/gm)];
    expect(blocks.map((m) => [m[1], m[2], m[3]])).toEqual(lockOrder(ROLLUPS).map((r) => [r.table, r.table, r.table]));
    const pruned = [...apply.matchAll(/DELETE FROM (\w+) r USING pg_temp\.(\w+)_change s/g)].map((m) => m[1]);
    expect(pruned).toEqual(lockOrder(ROLLUPS).filter((r) => r.family.prunedBy).map((r) => r.table));
    // Each table pruned right after its rows are written (so locked): before the next table's rows.
    for (const table of pruned) {
      const next = apply.indexOf("INSERT INTO", apply.indexOf(`INSERT INTO ${table} AS r`) + 1);
      expect(apply.indexOf(`DELETE FROM ${table} r`)).toBeLessThan(next === -1 ? Infinity : next);
    }
    // Only rows that change are written: a sum's difference not zero, or a name given (titles never change alone).
    expect(apply).toContain(`FROM pg_temp.rollup_mentions_change s\n  WHERE s."name" <> '' OR s."rows" <> 0 OR s."mentions" <> 0`);
    expect(apply).toContain(`FROM pg_temp.rollup_cited_pages_change s\n  WHERE s."citations" <> 0 OR s."ownCitations" <> 0 OR s."answers" <> 0\n`);
    expect(apply).not.toMatch(/EXECUTE/);
  });

  it("declare for each family the raw rows its SQL reads, which a rewrite stages it for", () => {
    const table: Record<AnswerSource, string> = { mentions: "mentions", citations: "citations", candidates: "capture_candidates" };
    for (const { table: rollup, sql } of workspaceRollupStatements()) {
      const r = ROLLUPS.find((x) => x.table === rollup)!;
      // Every relation the statement reads (after FROM, JOIN or a comma), its CTEs apart: only the
      // capture, its prompt (tags) and the raw rows a family may declare, none a rewrite writes otherwise.
      const ctes = new Set([...sql.matchAll(/\b(\w+) AS \(/g)].map((m) => m[1]!.toLowerCase()));
      const read = [
        ...sql.matchAll(/\b(?:from|join)\s+(?:lateral\s+)?(?!lateral\b)(?:public\.)?"?([a-z_]\w*)"?/gi),
        ...sql.matchAll(/,\s*(?:public\.)?"?(mentions|citations|capture_candidates)"?\s+[a-z_]/gi), // a comma join
      ];
      const relations = new Set(read.map((m) => m[1]!.toLowerCase()).filter((name) => !ctes.has(name)));
      const known = new Set(["captures", "prompts", ...Object.values(table)]);
      expect([...relations].filter((name) => !known.has(name)), rollup).toEqual([]);
      expect(ANSWER_SOURCES.filter((source) => relations.has(table[source])), rollup).toEqual(ANSWER_SOURCES.filter((source) => r.family.reads.includes(source)));
    }
  });

  it("lock the rows fewer captures share first: per prompt, then per tag and provider, per provider, per tag, and the rows of neither last", () => {
    // What narrows a row to fewer of a check's captures: the prompt most, then the tag and the provider.
    const shape = (r: Rollup) => {
      const key = captureKeyColumns(r);
      return key.includes("promptId") ? "prompt" : [key.includes("tag") && "tag", key.includes("providerConfigId") && "provider"].filter(Boolean).join("+") || "neither";
    };
    const shapes = lockOrder(ROLLUPS).map(shape);
    expect(shapes.filter((s, i) => s !== shapes[i - 1])).toEqual(["prompt", "tag+provider", "provider", "tag", "neither"]);
    // Among equals, ROLLUPS' order: the first tables of the list stay first.
    expect(lockOrder(ROLLUPS).slice(0, 3).map((r) => r.table)).toEqual(["rollup_answers", "rollup_mentions", "rollup_citations"]);
    expect(lockOrder(ROLLUPS).at(-1)!.table).toBe("rollup_candidate_week_totals");
  });

  it("built whole for a workspace: the same statements per table, scoped to the workspace instead of a batch of ids", () => {
    const statements = workspaceRollupStatements();
    expect(statements.map((s) => s.table)).toEqual(ROLLUPS.map((r) => r.table));
    for (const { table, sql } of statements) {
      expect(sql, table).toContain(`INSERT INTO ${table} AS r`);
      expect(sql, table).toContain('c."workspaceId" = $1::uuid');
      expect(sql, table).not.toMatch(/\bids\b|\bsign\b/);
    }
  });

  it("move the tag rollups' rows from their family's table per prompt and period of their grain, else per prompt and day", () => {
    const sql = generatedRollupSql("beacon_prompt_tags_changed");
    const moved = [...sql.matchAll(/INSERT INTO (\w+) AS r[\s\S]*?JOIN (\w+) s ON/g)].map((m) => `${m[1]} <- ${m[2]}`);
    // In the lock order, as the answers' rollups write them.
    expect(moved).toEqual([
      "rollup_tag_domains <- rollup_citations",
      "rollup_tag_domain_weeks <- rollup_citations",
      "rollup_tag_gap_sources <- rollup_gap_source_prompts",
      "rollup_tag_gap_source_weeks <- rollup_gap_source_prompts",
      "rollup_tag_domain_day_totals <- rollup_citations",
      "rollup_tag_cited_page_weeks <- rollup_cited_page_prompt_weeks",
      "rollup_tag_cited_page_months <- rollup_cited_page_prompt_months",
      "rollup_tag_candidates <- rollup_candidates",
      "rollup_tag_candidate_weeks <- rollup_candidate_prompt_weeks",
    ]);
  });

  it("refuse a tag rollup whose measures cannot move between tags", () => {
    const citedPages = ROLLUPS.find((r) => r.table === "rollup_cited_pages")!;
    // Without the family's tables per prompt, then with one per day.
    const unprompted = ROLLUPS.filter((r) => r.family !== citedPages.family || !r.byPrompt);
    const tagged = [...unprompted, { ...citedPages, table: "rollup_tag_cited_pages", byTag: true }];
    expect(() => generatedRollupSql("beacon_prompt_tags_changed", tagged)).toThrow(/no table per prompt and day/);
    const withPrompt = [...tagged, { ...citedPages, table: "rollup_cited_page_prompts", byPrompt: true }];
    expect(() => generatedRollupSql("beacon_prompt_tags_changed", withPrompt)).toThrow(/title, titleAt cannot move between tags/);
  });

  it("add a measure to a table's every statement", () => {
    const domains = ROLLUPS.find((r) => r.table === "rollup_domains")!;
    const family = { ...domains.family, measures: [...domains.family.measures, { column: "offSite", sum: `count(*) FILTER (WHERE NOT ci."isOwnDomain")` }] };
    const sql = generatedRollupSql("beacon_rollup_captures", withTable({ ...domains, family }));
    expect(sql).toContain(`INSERT INTO rollup_domains AS r ("workspaceId", "brandId", "day", "providerConfigId", "domain", "citations", "ownCitations", "offSite")`);
    expect(sql).toContain(`sign * count(*) FILTER (WHERE NOT ci."isOwnDomain")`);
    expect(sql).toContain(`"offSite" = r."offSite" + excluded."offSite"`);
  });
});
