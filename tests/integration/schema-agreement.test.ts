// prisma/schema.prisma describes the database to Prisma Client; the hand-written SQL in
// prisma/migrations creates it. Nothing else checks that the two agree (Prisma's schema engine,
// which would, cannot run here), so this test compares them in full, both ways.
import pg from "pg";
import { describe, expect, test } from "vitest";
import { migrate } from "@/lib/instance/migrate";
import { createScratchDatabase } from "../support/setup-database";
import { compareSchemaWithDatabase } from "../support/schema-diff";

async function migratedDatabase(): Promise<string> {
  const { url } = await createScratchDatabase();
  await migrate(url);
  return url;
}

async function execute(url: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

describe("schema.prisma and the migrations", () => {
  test("describe the same database", async () => {
    const url = await migratedDatabase();

    expect(await compareSchemaWithDatabase(url)).toEqual([]);
  });

  test("the comparison reports each kind of drift", async () => {
    const url = await migratedDatabase();
    await execute(
      url,
      `DROP INDEX "prompts_tags_idx";
       CREATE INDEX "prompts_tags_idx" ON "prompts" ("tags");
       DROP INDEX "users_email_key";
       ALTER TABLE "users" ALTER COLUMN "image" SET NOT NULL;
       ALTER TABLE "users" ALTER COLUMN "emailVerified" DROP DEFAULT;
       ALTER TABLE "workspaces" ALTER COLUMN "monthlyBudgetMicros" TYPE INTEGER;
       ALTER TABLE "captures" DROP CONSTRAINT "captures_promptId_fkey",
         ADD CONSTRAINT "captures_promptId_fkey" FOREIGN KEY ("promptId") REFERENCES "prompts"("id") ON DELETE CASCADE ON UPDATE CASCADE;
       ALTER TABLE "sessions" DROP CONSTRAINT "sessions_userId_fkey";
       ALTER TABLE "checks" DROP COLUMN "cancelRequestedAt";
       ALTER TABLE "checks" ADD COLUMN "note" TEXT;
       ALTER TYPE "Role" ADD VALUE 'guest';
       CREATE TABLE "stray" ("id" INTEGER PRIMARY KEY);
       DROP INDEX "prompts_live_text_idx";
       CREATE INDEX "prompts_live_text_idx" ON "prompts" ("workspaceId", lower("text"));
       CREATE INDEX "prompts_upper_text_idx" ON "prompts" (upper("text")) WHERE "deletedAt" IS NULL;`,
    );

    expect(await compareSchemaWithDatabase(url)).toEqual([
      "column checks.cancelRequestedAt: missing",
      "column checks.note: not a field in schema.prisma",
      "column users.emailVerified: default should be false, is none",
      "column users.image: should be nullable, is NOT NULL",
      "column workspaces.monthlyBudgetMicros: type should be bigint, is integer",
      "enum Role: values should be (owner, admin, member, viewer), are (owner, admin, member, viewer, guest)",
      "foreign key captures(promptId) -> prompts(id): ON DELETE should be Restrict, is Cascade",
      "foreign key sessions(userId) -> users(id): missing",
      'index "prompts_live_text_idx" on prompts: is USING btree ("workspaceId", lower(text)), SQL_ONLY_INDEXES says USING btree ("workspaceId", lower(text)) WHERE ("deletedAt" IS NULL)',
      "index prompts(tags): uses btree, should use gin",
      'partial or expression index "prompts_upper_text_idx" on prompts((expression)) using btree: not declared in schema.prisma',
      "table stray: not a model in schema.prisma",
      'unique index users(email): missing (expected "users_email_key" using btree)',
    ]);
  });

  test("an index's INCLUDE columns are drift unless COVERING_COLUMNS lists exactly them", async () => {
    const url = await migratedDatabase();
    await execute(
      url,
      `DROP INDEX "traffic_visits_daily_workspaceId_domain_path_day_idx";
       CREATE INDEX "traffic_visits_daily_workspaceId_domain_path_day_idx" ON "traffic_visits_daily"("workspaceId", "domain", "path", "day");
       DROP INDEX "sessions_userId_idx";
       CREATE INDEX "sessions_userId_idx" ON "sessions"("userId") INCLUDE ("expiresAt");`,
    );

    expect(await compareSchemaWithDatabase(url)).toEqual([
      "index sessions(userId): includes (expiresAt), which schema.prisma cannot declare (list it in COVERING_COLUMNS)",
      "index traffic_visits_daily(workspaceId, domain, path, day): includes (), COVERING_COLUMNS says (assistant, visits)",
    ]);
  });

  test("an index only the SQL declares (SQL_ONLY_INDEXES) must exist", async () => {
    const url = await migratedDatabase();
    await execute(url, `DROP INDEX "prompts_live_text_idx";`);

    expect(await compareSchemaWithDatabase(url)).toEqual(['index "prompts_live_text_idx" on prompts: missing (listed in SQL_ONLY_INDEXES)']);
  });
});
