// addVisits (lib/traffic/visits.ts) writes traffic_visits_daily and its rollups for the Traffic
// page in one statement (issue 21 item 5): after any batches, whatever the days (weeks, months
// and years turning), pages and assistants, every rollup equals the sums of the daily rows, and
// those equal the visits added; a workspace's deletion takes them all.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createTenant } from "../support/api-fixtures";
import { db } from "@/lib/db/prisma";
import { addVisits, type VisitCount } from "@/lib/traffic/visits";

const ROLLUPS = {
  traffic_visits_assistants_daily: ["day, domain, assistant", "day, domain, assistant"],
  traffic_visits_pages_weekly: ["week, domain, path", "date_trunc('week', day)::date AS week, domain, path"],
  traffic_visits_pages_monthly: ["month, domain, path", "date_trunc('month', day)::date AS month, domain, path"],
} as const;
const TABLES = ["traffic_visits_daily", ...Object.keys(ROLLUPS)];

/** Each rollup's rows, and the same sums computed from traffic_visits_daily. */
async function rollupsAndSums(workspaceId: string) {
  const q = (sql: string) => db().$queryRawUnsafe<unknown[]>(sql, workspaceId);
  const got: Record<string, unknown[]> = {};
  const want: Record<string, unknown[]> = {};
  for (const [table, [key, fromDaily]] of Object.entries(ROLLUPS)) {
    got[table] = await q(`SELECT ${key}, visits FROM ${table} WHERE "workspaceId" = $1::uuid ORDER BY ${key}`);
    want[table] = await q(`SELECT ${fromDaily}, sum(visits)::int AS visits FROM traffic_visits_daily WHERE "workspaceId" = $1::uuid GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`);
  }
  return { got, want };
}

describe("the visits rollups", () => {
  const day = fc.oneof(
    fc.date({ min: new Date("2026-12-25T00:00:00Z"), max: new Date("2027-01-06T00:00:00Z"), noInvalidDate: true }),
    fc.date({ min: new Date("2028-02-26T00:00:00Z"), max: new Date("2028-03-03T00:00:00Z"), noInvalidDate: true }),
    fc.date({ min: new Date("2020-01-01T00:00:00Z"), max: new Date("2030-12-31T00:00:00Z"), noInvalidDate: true }),
  );
  const visit: fc.Arbitrary<VisitCount> = fc.record({
    day: day.map((d) => d.toISOString().slice(0, 10)),
    domain: fc.constantFrom("acme.com", "docs.acme.com"),
    path: fc.constantFrom("/", "/a", "/b"),
    assistant: fc.constantFrom("ChatGPT", "Perplexity", "Claude"),
    visits: fc.integer({ min: 1, max: 5 }),
  });

  it("equal the sums of the daily rows after any batches, which equal the visits added", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.array(visit, { maxLength: 30 }), { minLength: 1, maxLength: 4 }), async (batches) => {
        const tenant = await createTenant("Visit rollups");
        await Promise.all(batches.map((b) => addVisits(tenant.workspaceId, b)));
        const { got, want } = await rollupsAndSums(tenant.workspaceId);
        expect(got).toEqual(want);
        const [total] = await db().$queryRaw<{ n: number }[]>`SELECT coalesce(sum(visits), 0)::int AS n FROM traffic_visits_daily WHERE "workspaceId" = ${tenant.workspaceId}::uuid`;
        expect(total!.n).toBe(batches.flat().reduce((n, v) => n + v.visits, 0));
      }),
      { numRuns: 20 },
    );
  });

  it("go with their workspace", async () => {
    const gone = await createTenant("Visits deleted");
    const kept = await createTenant("Visits kept");
    const one: VisitCount[] = [{ day: "2026-12-01", domain: "acme.com", path: "/a", assistant: "ChatGPT", visits: 2 }];
    await addVisits(gone.workspaceId, one);
    await addVisits(kept.workspaceId, one);
    const counts = async (workspaceId: string) =>
      Promise.all(TABLES.map(async (t) => Number((await db().$queryRawUnsafe<{ n: number }[]>(`SELECT count(*)::int AS n FROM ${t} WHERE "workspaceId" = $1::uuid`, workspaceId))[0]!.n)));
    expect(await counts(gone.workspaceId)).toEqual([1, 1, 1, 1]);
    await db().workspace.delete({ where: { id: gone.workspaceId } });
    expect(await counts(gone.workspaceId)).toEqual([0, 0, 0, 0]);
    expect(await counts(kept.workspaceId)).toEqual([1, 1, 1, 1]);
  });
});
