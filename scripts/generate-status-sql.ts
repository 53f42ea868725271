// npm run sql:statuses: writes the status-list functions of prisma/sql/functions from
// lib/captures/states.ts (lib/captures/status-sql.ts). Run it after changing a list there; the
// migration runner re-applies the changed files, and lib/captures/status-sql.test.ts fails until then.
import fs from "node:fs";
import path from "node:path";
import { SQL_OBJECTS_DIR } from "@/lib/instance/migrate";
import { STATUS_SET_FUNCTIONS, statusSetSql, type StatusSetFunction } from "@/lib/captures/status-sql";

for (const name of Object.keys(STATUS_SET_FUNCTIONS) as StatusSetFunction[]) {
  const file = path.join(SQL_OBJECTS_DIR, "functions", `${name}.sql`);
  fs.writeFileSync(file, statusSetSql(name));
  console.log(`wrote ${path.relative(process.cwd(), file)}`);
}
