// storeHits groups a batch into its rollup keys (issue 21 item 5, lib/traffic/store.ts): any batch
// stored at once leaves exactly the rows (raw and every rollup) that the same hits stored one by
// one leave, and the rollups equal the sums of the raw rows' times, whatever the days (weeks and
// years turning), pages, crawlers, verdicts and statuses. An import's HitWriter
// (lib/traffic/hit-writer.ts) adds a chunk of batches to the rollups at once: the same rows
// whatever the batches and chunks, exact with another import committing while one is held before
// its rollups, and a chunk that fails takes its raw rows with it (the committed ones stay summed).
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createTenant } from "../support/api-fixtures";
import { actAt, gateAt } from "../support/pause";
import { db } from "@/lib/db/prisma";
import { HitWriter } from "@/lib/traffic/hit-writer";
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

  it("stores through an import's writer, in any batches and chunks, what the same hits stored one by one store", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(hit, { minLength: 1, maxLength: 15 }), { minLength: 1, maxLength: 6 }),
        fc.integer({ min: 1, max: 40 }),
        fc.integer({ min: 1, max: 3 }),
        async (batches, chunkHits, ahead) => {
          const chunked = await createTenant("Chunked");
          const single = await createTenant("Single");
          const writer = new HitWriter(chunked.workspaceId, { chunkHits, ahead });
          for (const batch of batches) await writer.add(batch);
          await writer.end();
          const hits = batches.flat();
          expect(writer.stored).toBe(hits.length);
          for (const h of hits) await storeHits(single.workspaceId, [h]);
          const { traffic_hits: raw, ...rollups } = await rowsOf(chunked.workspaceId);
          expect({ traffic_hits: raw, ...rollups }).toEqual(await rowsOf(single.workspaceId));
          expect(rollups).toEqual(await fromRaw(chunked.workspaceId));
        },
      ),
      { numRuns: 20 },
    );
  });
});

describe("an import's chunks", () => {
  const at = (day: string) => new Date(`${day}T10:00:00Z`);
  const hits = (n: number, path: string): StoredHit[] =>
    Array.from({ length: n }, (_, i) => ({ at: at(i % 2 ? "2026-11-30" : "2026-12-01"), domain: "acme.com", path, crawler: i % 3 ? "GPTBot" : "ClaudeBot", verification: "unverified", status: i % 4 ? 200 : 404 }));
  const total = async (workspaceId: string, table: string) =>
    (await db().$queryRawUnsafe<{ n: number }[]>(`SELECT coalesce(sum(hits), 0)::int AS n FROM ${table} WHERE "workspaceId" = $1::uuid`, workspaceId))[0]!.n;

  it("stay exact when another import into the same pages commits while one is held with its raw rows written, before its rollups", async () => {
    const tenant = await createTenant("Two imports");
    const gate = gateAt("traffic:import-before-rollups");
    const held = new HitWriter(tenant.workspaceId);
    await held.add(hits(30, "/a"));
    await held.add(hits(7, "/b"));
    const heldDone = held.end();
    await gate.reached;
    // The other import runs whole and commits while the first holds its chunk open.
    const other = new HitWriter(tenant.workspaceId);
    await other.add(hits(11, "/a"));
    await other.add(hits(5, "/b"));
    await other.end();
    expect(other.stored).toBe(16);
    expect(await total(tenant.workspaceId, "traffic_daily")).toBe(16);
    gate.open();
    await heldDone;
    expect(held.stored).toBe(37);
    for (const table of ["traffic_daily", "traffic_crawls_daily", "traffic_pages_daily", "traffic_pages_weekly", "traffic_pages_monthly"]) {
      expect(await total(tenant.workspaceId, table)).toBe(53);
    }
    const { traffic_hits: raw, ...rollups } = await rowsOf(tenant.workspaceId);
    expect(raw).toHaveLength(53);
    expect(rollups).toEqual(await fromRaw(tenant.workspaceId));
  });

  it("keep the committed chunks and lose the failed one whole: the rollups equal the raw rows stored", async () => {
    const tenant = await createTenant("Crash");
    let arrivals = 0;
    // The second chunk fails with its raw rows written, as a process killed there would.
    actAt("traffic:import-before-rollups", () => {
      arrivals += 1;
      if (arrivals === 2) throw new Error("the import died here");
    }, 2);
    const writer = new HitWriter(tenant.workspaceId, { chunkHits: 10 });
    await writer.add(hits(10, "/a"));
    await writer.add(hits(10, "/b"));
    await expect(writer.end()).rejects.toThrow("the import died here");
    expect(arrivals).toBe(2);
    expect(writer.stored).toBe(10);
    const { traffic_hits: raw, ...rollups } = await rowsOf(tenant.workspaceId);
    expect(raw).toHaveLength(10);
    expect(rollups).toEqual(await fromRaw(tenant.workspaceId));
    expect(await total(tenant.workspaceId, "traffic_pages_monthly")).toBe(10);
  });

  it("refuse a deleted workspace and store nothing for it", async () => {
    const tenant = await createTenant("Gone");
    await db().workspace.delete({ where: { id: tenant.workspaceId } });
    const writer = new HitWriter(tenant.workspaceId);
    await writer.add(hits(3, "/a"));
    await expect(writer.end()).rejects.toThrow("does not exist");
    expect(await db().trafficHit.count({ where: { workspaceId: tenant.workspaceId } })).toBe(0);
  });
});
