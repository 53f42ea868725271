// npm run sql:statuses: writes the status-list functions of prisma/sql/functions from
// lib/captures/states.ts (lib/captures/status-sql.ts). Run it after changing a list there; the
// migration runner re-applies the changed files, and lib/captures/status-sql.test.ts fails until then.
import fs from "node:fs";
import path from "node:path";
import { SQL_OBJECTS_DIR } from "@/lib/instance/migrate";
import { GENERATED_STATUS_FILES, generatedStatusSql } from "@/lib/captures/status-sql";

for (const name of GENERATED_STATUS_FILES) {
  const file = path.join(SQL_OBJECTS_DIR, "functions", `${name}.sql`);
  fs.writeFileSync(file, generatedStatusSql(name));
  console.log(`wrote ${path.relative(process.cwd(), file)}`);
}
