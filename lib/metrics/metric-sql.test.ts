import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { GENERATED_METRIC_FILES, generatedMetricSql } from "@/lib/metrics/metric-sql";

const functionsDir = path.resolve(process.cwd(), "prisma", "sql", "functions");

describe("the metric counters' functions of prisma/sql", () => {
  it.each(GENERATED_METRIC_FILES)("%s is what metric-sql.ts generates (npm run sql:generate)", (name) => {
    expect(fs.readFileSync(path.join(functionsDir, `${name}.sql`), "utf8")).toBe(generatedMetricSql(name));
  });
});
