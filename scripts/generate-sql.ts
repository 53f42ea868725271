// npm run sql:generate: writes the generated files of prisma/sql/functions: the status-list
// functions from lib/captures/states.ts (lib/captures/status-sql.ts), the rollups' functions from
// ROLLUPS (lib/analytics/rollup-sql.ts) and the metric counters' of one shape
// (lib/metrics/metric-sql.ts). Run it after changing one; the migration runner re-applies the
// changed files, and each module's *.test.ts fails until then.
import fs from "node:fs";
import path from "node:path";
import { SQL_OBJECTS_DIR } from "@/lib/instance/migrate";
import { GENERATED_STATUS_FILES, generatedStatusSql } from "@/lib/captures/status-sql";
import { GENERATED_ROLLUP_FILES, generatedRollupSql } from "@/lib/analytics/rollup-sql";
import { GENERATED_METRIC_FILES, generatedMetricSql } from "@/lib/metrics/metric-sql";

const files: [string, string][] = [
  ...GENERATED_STATUS_FILES.map((name): [string, string] => [name, generatedStatusSql(name)]),
  ...GENERATED_ROLLUP_FILES.map((name): [string, string] => [name, generatedRollupSql(name)]),
  ...GENERATED_METRIC_FILES.map((name): [string, string] => [name, generatedMetricSql(name)]),
];
for (const [name, sql] of files) {
  const file = path.join(SQL_OBJECTS_DIR, "functions", `${name}.sql`);
  fs.writeFileSync(file, sql);
  console.log(`wrote ${path.relative(process.cwd(), file)}`);
}
