// npm run sql:generate: writes the generated files of prisma/sql/functions: the status-list
// functions from lib/captures/states.ts (lib/captures/status-sql.ts) and the rollups' functions
// from ROLLUPS (lib/analytics/rollup-sql.ts). Run it after changing one; the migration runner
// re-applies the changed files, and each module's *.test.ts fails until then.
import fs from "node:fs";
import path from "node:path";
import { SQL_OBJECTS_DIR } from "@/lib/instance/migrate";
import { GENERATED_STATUS_FILES, generatedStatusSql } from "@/lib/captures/status-sql";
import { GENERATED_ROLLUP_FILES, generatedRollupSql } from "@/lib/analytics/rollup-sql";

const files: [string, string][] = [
  ...GENERATED_STATUS_FILES.map((name): [string, string] => [name, generatedStatusSql(name)]),
  ...GENERATED_ROLLUP_FILES.map((name): [string, string] => [name, generatedRollupSql(name)]),
];
for (const [name, sql] of files) {
  const file = path.join(SQL_OBJECTS_DIR, "functions", `${name}.sql`);
  fs.writeFileSync(file, sql);
  console.log(`wrote ${path.relative(process.cwd(), file)}`);
}
