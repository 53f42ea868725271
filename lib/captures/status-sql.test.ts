import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { GENERATED_STATUS_FILES, generatedStatusSql } from "@/lib/captures/status-sql";

const functionsDir = path.resolve(process.cwd(), "prisma", "sql", "functions");

describe("the status-list functions of prisma/sql", () => {
  it.each(GENERATED_STATUS_FILES)("%s is what states.ts generates (npm run sql:generate)", (name) => {
    expect(fs.readFileSync(path.join(functionsDir, `${name}.sql`), "utf8")).toBe(generatedStatusSql(name));
  });

  it("are the only files in prisma/sql that list capture statuses as an array", () => {
    const listing = /ARRAY\['(queued|running|retry_wait|postponed|succeeded|failed|cancelled)'::"CaptureStatus"/;
    const offenders = ["functions", "views", "triggers"].flatMap((kind) =>
      fs
        .readdirSync(path.resolve(functionsDir, "..", kind))
        .filter((file) => listing.test(fs.readFileSync(path.resolve(functionsDir, "..", kind, file), "utf8")))
        .map((file) => `${kind}/${file}`),
    );
    expect(offenders).toEqual([]);
  });
});
