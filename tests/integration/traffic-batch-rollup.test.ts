// storeHits groups a batch into its rollup keys (issue 21 item 5, lib/traffic/store.ts): any batch
// stored at once leaves exactly the rows (raw and every rollup) that the same hits stored one by
// one leave, and the rollups equal the sums of the raw rows' times, whatever the days (weeks and
// years turning), pages, crawlers, verdicts and statuses.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createTenant } from "../support/api-fixtures";
import { db } from "@/lib/db/prisma";
import { storeHits, type StoredHit } from "@/lib/traffic/store";
import { VERIFICATIONS } from "@/lib/traffic/verify";

const TABLES = {
  traffic_hits: "day, at, domain, path, crawler, verification, status",
  traffic_daily: "day, domain, path, crawler, verification, hits, errors",
  traffic_crawls_daily: "day, domain, crawler, verification, hits, errors",
  traffic_pages_daily: "day, domain, path, hits, errors",
  traffic_pages_weekly: "week, domain, path, hits, errors",
  traffic_pages_monthly: "month, domain, path, hits, errors",
} as const;

/** Every row of the six tables for a workspace, without the workspace and the raw rows' surrogate key, in one order. */
async function rowsOf(workspaceId: string): Promise<Record<string, unknown[]>> {
  const out: Record<string, unknown[]> = {};
  for (const [table, columns] of Object.entries(TABLES)) {
    out[table] = await db().$queryRawUnsafe<unknown[]>(`SELECT ${columns} FROM ${table} WHERE "workspaceId" = $1::uuid ORDER BY ${columns}`, workspaceId);
  }
  return out;
}

/** The rollups computed by PostgreSQL from the raw rows' times (not from the day Node gave them). */
async function fromRaw(workspaceId: string): Promise<Record<string, unknown[]>> {
  const h = `(SELECT at::date AS day, domain, path, crawler, verification, status FROM traffic_hits WHERE "workspaceId" = $1::uuid) h`;
  const sums = "count(*)::int AS hits, (count(*) FILTER (WHERE status >= 400))::int AS errors";
  const q = (sql: string) => db().$queryRawUnsafe<unknown[]>(sql, workspaceId);
  return {
    traffic_daily: await q(`SELECT day, domain, path, crawler, verification, ${sums} FROM ${h} GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5`),
    traffic_crawls_daily: await q(`SELECT day, domain, crawler, verification, ${sums} FROM ${h} GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4`),
    traffic_pages_daily: await q(`SELECT day, domain, path, ${sums} FROM ${h} GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`),
    traffic_pages_weekly: await q(`SELECT date_trunc('week', day)::date AS week, domain, path, ${sums} FROM ${h} GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`),
    traffic_pages_monthly: await q(`SELECT date_trunc('month', day)::date AS month, domain, path, ${sums} FROM ${h} GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`),
  };
}

describe("a batch grouped into rollup keys", () => {
  const hit: fc.Arbitrary<StoredHit> = fc.record({
    // Around new year (a week spanning two years) and a leap day, and anywhere in between.
    at: fc.oneof(
      fc.date({ min: new Date("2026-12-27T00:00:00Z"), max: new Date("2027-01-05T23:59:59.999Z"), noInvalidDate: true }),
      fc.date({ min: new Date("2028-02-27T00:00:00Z"), max: new Date("2028-03-02T00:00:00Z"), noInvalidDate: true }),
      fc.date({ min: new Date("1970-01-01T00:00:00Z"), max: new Date("2100-12-31T23:59:59.999Z"), noInvalidDate: true }),
    ),
    domain: fc.constantFrom("acme.com", "docs.acme.com", "acme.io"),
    path: fc.oneof(fc.constantFrom("/", "/a", "/a/", "/A", "/b", "/ü", "/a b"), fc.string({ minLength: 1, maxLength: 6 }).map((s) => `/${s.replace(/[\u0000-\u001f\u007f]/g, "")}`)),
    crawler: fc.constantFrom("GPTBot", "ClaudeBot", "Claude-User", "PerplexityBot"),
    verification: fc.constantFrom(...VERIFICATIONS),
    status: fc.constantFrom(200, 301, 399, 400, 404, 503),
  });

  it("stores what the same hits stored one by one store", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(hit, { minLength: 1, maxLength: 60 }), async (hits) => {
        const batched = await createTenant("Batched");
        const single = await createTenant("Single");
        await storeHits(batched.workspaceId, hits);
        for (const h of hits) await storeHits(single.workspaceId, [h]);
        const { traffic_hits: raw, ...rollups } = await rowsOf(batched.workspaceId);
        expect({ traffic_hits: raw, ...rollups }).toEqual(await rowsOf(single.workspaceId));
        expect(raw).toHaveLength(hits.length);
        // The raw rows' day is the UTC day of their time, and the rollups are their sums.
        expect((raw as { day: Date; at: Date }[]).every((r) => r.day.toISOString().slice(0, 10) === r.at.toISOString().slice(0, 10))).toBe(true);
        expect(rollups).toEqual(await fromRaw(batched.workspaceId));
      }),
      { numRuns: 25 },
    );
  });
});
