// tests/integration/schema.sql is the schema the migrations and prisma/sql make: enum types,
// tables, indexes, views, functions and triggers (tests/support/schema-snapshot.ts). A change to
// any of them shows in review as a diff of that file, and this test fails until the file is
// updated with `npm run schema:snapshot`.
import pg from "pg";
import { describe, expect, test } from "vitest";
import { migrate } from "@/lib/instance/migrate";
import { describeSchema } from "../support/schema-snapshot";
import { createScratchDatabase } from "../support/setup-database";

const SNAPSHOT = "./schema.sql";

async function schemaOf(url: string): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await describeSchema(client);
  } finally {
    await client.end();
  }
}

describe("the migrated schema", () => {
  test("is tests/integration/schema.sql", async () => {
    const { url } = await createScratchDatabase();
    await migrate(url);

    await expect(await schemaOf(url)).toMatchFileSnapshot(SNAPSHOT);
  });

  test("is the same on a database migrated before prisma/sql existed, once migrated again", async () => {
    const { url } = await createScratchDatabase();
    await migrate(url, { sqlDir: null });

    const result = await migrate(url);

    expect(result.applied).toEqual([]);
    expect(result.sqlObjects.length).toBeGreaterThan(0);
    await expect(await schemaOf(url)).toMatchFileSnapshot(SNAPSHOT);
  });
});
