// DATABASE_READ_URL: the dashboards and exports read from a replica when one is configured, and
// everything else stays on the primary. The "replica" here is a second database with the same
// schema and none of the primary's rows, so where each read went shows in its answer.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { claimed, liveWorker, newSpace, startSpaceCheck, succeed, type Space } from "../support/lifecycle-fixtures";
import { createScratchDatabase, type ScratchDatabase } from "../support/setup-database";
import { signUp } from "../support/workspace-fixtures";
import { GET as chartRoute } from "@/app/api/analytics/[chart]/route";
import { chartPath, FRESH_READ_HEADER } from "@/lib/analytics/filter-query";
import { evaluateAlerts } from "@/lib/alerts/evaluate";
import { analyticsOptions } from "@/lib/analytics/options";
import { resolveFilter } from "@/lib/analytics/filter";
import { reloadEnv } from "@/lib/config/env";
import { migrate } from "@/lib/instance/migrate";
import { db, disconnectDb, readDb } from "@/lib/db/prisma";

vi.mock("next/headers", () => import("../support/request-context").then((m) => m.nextHeadersMock));

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

  it("is not what alert rules read: an evaluation a finished check asks for sees that check's answers, whatever the replica's lag", async () => {
    process.env.DATABASE_READ_URL = replica.url;
    reloadEnv();
    const brand = await db().brand.findFirstOrThrow({ where: { workspaceId: space.workspaceId } });
    const rule = await db().alertRule.create({
      data: { workspaceId: space.workspaceId, name: "New names", kind: "new_brand", brandId: brand.id, params: { thresholdPercent: 10 }, enabled: true },
    });
    const [result] = (await evaluateAlerts(space.workspaceId)).filter((r) => r.ruleId === rule.id);
    // Read on the primary, the rule sees the space's answer (on the empty replica: none, "too few answers").
    expect(result!.outcome).toMatchObject({ status: "quiet", message: "No untracked brand in 1 answers." });
    // The dashboards still read the replica.
    expect(await analyticsOptions(space.workspaceId)).toMatchObject({ hasResults: false });
  });

  it("is not what a chart request asking for fresh reads gets: a page that just learnt of a write reads its charts on the primary", async () => {
    process.env.DATABASE_READ_URL = replica.url;
    reloadEnv();
    const person = await signUp({ name: "Fresh Reader", workspaceName: "Fresh reads" });
    const brand = await db().brand.create({ data: { workspaceId: person.workspaceId, name: "Fresh CRM" } });
    const address = `http://localhost:3000${chartPath("visibility", { brandId: brand.id, from: "2026-11-01", to: "2026-11-30" })}`;
    const get = (headers: Record<string, string>) =>
      person.browser.run(() => chartRoute(new Request(address, { headers }), { params: Promise.resolve({ chart: "visibility" }) }));
    // The brand is on the primary only: the replica answers "no such brand".
    expect((await get({})).status).toBe(404);
    expect((await get({ [FRESH_READ_HEADER]: "1" })).status).toBe(200);
    expect((await get({ [FRESH_READ_HEADER]: "0" })).status).toBe(404);
  });
});
