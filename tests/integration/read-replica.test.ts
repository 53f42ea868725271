// DATABASE_READ_URL: the dashboards and exports read from a replica when one is configured, and
// everything else stays on the primary. The "replica" here is a second database with the same
// schema and none of the primary's rows, so where each read went shows in its answer.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { claimed, liveWorker, newSpace, startSpaceCheck, succeed, type Space } from "../support/lifecycle-fixtures";
import { createScratchDatabase, type ScratchDatabase } from "../support/setup-database";
import { analyticsOptions } from "@/lib/analytics/options";
import { resolveFilter } from "@/lib/analytics/filter";
import { reloadEnv } from "@/lib/config/env";
import { migrate } from "@/lib/instance/migrate";
import { db, disconnectDb, readDb } from "@/lib/db/prisma";

let space: Space;
let replica: ScratchDatabase;

beforeAll(async () => {
  space = await newSpace({ prompts: 1 });
  const { captureIds } = await startSpaceCheck(space, { prompts: 1 });
  await succeed(captureIds[0]!, await claimed(captureIds[0]!, await liveWorker()));
  replica = await createScratchDatabase();
  await migrate(replica.url);
});

afterAll(async () => {
  delete process.env.DATABASE_READ_URL;
  reloadEnv();
  await disconnectDb();
  await replica.drop();
});

describe("DATABASE_READ_URL", () => {
  it("is the primary when unset", async () => {
    expect(readDb()).toBe(db());
    expect(await analyticsOptions(space.workspaceId)).toMatchObject({ brands: [{ name: "Acme" }], hasResults: true });
  });

  it("sends the dashboards' reads to the replica, and nothing else", async () => {
    process.env.DATABASE_READ_URL = replica.url;
    reloadEnv();
    expect(readDb()).not.toBe(db());
    // The replica has none of the primary's rows: the filter bar and the filter see nothing.
    expect(await analyticsOptions(space.workspaceId)).toEqual({ brands: [], providers: [], tags: [], markets: [], hasResults: false });
    expect(await resolveFilter(space.workspaceId, { brandId: undefined, providers: [], tags: [], markets: [], from: new Date("2026-11-01T00:00:00Z"), to: new Date("2026-12-01T00:00:00Z") })).toBeNull();
    // The lifecycle, sign-in and everything that writes stay on the primary.
    expect(await db().brand.count({ where: { workspaceId: space.workspaceId } })).toBe(1);
  });
});
