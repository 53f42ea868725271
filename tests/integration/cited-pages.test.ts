// The cited pages table (citedPages, lib/analytics/sources.ts) reads a range as months, weeks and
// days of its rollups, some of them subtracted at the edges, and the latest title apart for the
// pages shown. For random histories over several months and random ranges whose ends fall on and
// off month and week boundaries (and far past the history), it must give exactly what the raw
// citations give (tests/support/raw-analytics.ts): counts, order with ties, totals, titles, the
// own flag and paging, with each filter the table reads a different rollup for.
import { randomUUID } from "node:crypto";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import * as raw from "../support/raw-analytics";
import { taggedSpace, type Space } from "../support/lifecycle-fixtures";
import { resolveFilter } from "@/lib/analytics/filter";
import { recordRollups } from "@/lib/analytics/rollups";
import { addDays, analyticsFilterInput, isoDay } from "@/lib/analytics/schemas";
import { citedPages } from "@/lib/analytics/sources";
import { db } from "@/lib/db/prisma";

/** A Monday; the history runs past the ends of February, March and April. */
const START = new Date("2025-01-27T00:00:00Z");
const SPAN_DAYS = 100;
const DOMAINS = ["acme.com", "a.com", "b.com", "c.org"];
/** Days (from START) a range's ends are drawn near: the first of each month and some Mondays. */
const BOUNDARIES = [-26, 5, 33, 64, 94, 0, 7, 35, 63, 98];

type CaptureSpec = { minute: number; provider: number; prompt: number; title: number; citations: { page: number; cited: boolean }[] };

const captureSpec: fc.Arbitrary<CaptureSpec> = fc.record({
  minute: fc.oneof(fc.integer({ min: 0, max: SPAN_DAYS * 1440 - 1 }), fc.constantFrom(...BOUNDARIES.filter((d) => d > 0)).map((d) => d * 1440 - 1)),
  provider: fc.integer({ min: 0, max: 2 }),
  prompt: fc.integer({ min: 0, max: 2 }),
  // A page's title differs between answers, or is missing (one answer gives a page one title:
  // between two in one answer the raw rows' choice is arbitrary).
  title: fc.integer({ min: 0, max: 3 }),
  // Few pages, so counts tie.
  citations: fc.array(fc.record({ page: fc.integer({ min: 0, max: 9 }), cited: fc.integer({ min: 0, max: 4 }).map((n) => n > 0) }), { maxLength: 4 }),
});

const day = fc.oneof(fc.integer({ min: -40, max: SPAN_DAYS + 10 }), fc.tuple(fc.constantFrom(...BOUNDARIES), fc.integer({ min: -1, max: 1 })).map(([d, o]) => d + o));
/** [fromDay, toDay) with toDay > fromDay; some a year long. */
const rangeSpec = fc.oneof(
  fc.tuple(day, day).filter(([a, b]) => a !== b).map(([a, b]) => ({ fromDay: Math.min(a, b), toDay: Math.max(a, b) })),
  day.map((d) => ({ fromDay: d - 365, toDay: d })),
);

let space: Space;
let providerIds: string[];
let connectionIds: string[];

beforeAll(async () => {
  ({ space, providerIds, connectionIds } = await taggedSpace());
});

/** A brand of its own with the history's captures and citations, written in bulk, then their rollups. */
async function writeHistory(specs: CaptureSpec[]): Promise<string> {
  const { workspaceId } = space;
  const brand = await db().brand.create({ data: { workspaceId, name: `Acme ${randomUUID().slice(0, 8)}`, domains: ["acme.com"] } });
  const check = await db().check.create({ data: { workspaceId, brandId: brand.id, totalCaptures: specs.length, status: "completed" } });
  const ids = specs.map(() => randomUUID());
  await db().$transaction(async (tx) => {
    await tx.capture.createMany({
      data: specs.map((s, i) => ({
        id: ids[i]!,
        workspaceId,
        checkId: check.id,
        brandId: brand.id,
        promptId: space.promptIds[s.prompt]!,
        providerConfigId: providerIds[s.provider]!,
        connectionId: connectionIds[s.provider]!,
        sample: i + 1,
        status: "succeeded" as const,
        maxAttempts: 3,
        model: "m",
        searchMode: "auto" as const,
        answerText: "An answer.",
        // A distinct time per capture, so "the latest titled answer" is one answer.
        finishedAt: new Date(START.getTime() + s.minute * 60_000 + i),
      })),
    });
    await tx.citation.createMany({
      data: specs.flatMap((s, i) =>
        s.citations.map((c, k) => {
          const domain = DOMAINS[c.page % DOMAINS.length]!;
          return {
            workspaceId,
            captureId: ids[i]!,
            url: `https://${domain}/${c.page}`,
            domain,
            title: s.title === 0 ? null : s.title === 1 ? "" : `Page ${c.page} (${s.title})`,
            isOwnDomain: domain === "acme.com",
            citedInText: c.cited,
            position: k + 1,
          };
        }),
      ),
    });
    await recordRollups(tx, ids);
  });
  return brand.id;
}

async function filterOf(brandId: string, range: { fromDay: number; toDay: number }, narrowed: { providers?: number[]; tags?: string[]; markets?: string[] }) {
  const r = await resolveFilter(
    space.workspaceId,
    analyticsFilterInput.parse({
      brandId,
      from: isoDay(addDays(START, range.fromDay)),
      to: isoDay(addDays(START, range.toDay - 1)),
      providers: (narrowed.providers ?? []).map((p) => providerIds[p]!),
      tags: narrowed.tags ?? [],
      markets: narrowed.markets ?? [],
    }),
  );
  return r!.filter;
}

describe("cited pages", () => {
  // Twenty random histories, each read over a few ranges with five filters and three views against
  // the raw rows: ~25 s on a quiet machine (a shrinking failure takes minutes), so the limit is a hang's.
  it("equal the raw citations' for ranges on and off month and week boundaries, with each filter, paged and by domain", { timeout: 600_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(captureSpec, { minLength: 1, maxLength: 60 }), fc.array(rangeSpec, { minLength: 2, maxLength: 4 }), async (specs, ranges) => {
        const brandId = await writeHistory(specs);
        // No filter (the totals), a provider (per provider), a tag and a market (per prompt), both (raw rows).
        const filters = [{}, { providers: [1, 2] }, { tags: ["buying"] }, { markets: ["US:en", ":"] }, { providers: [0], tags: ["smb"] }];
        for (const range of ranges) {
          for (const narrowed of filters) {
            const f = await filterOf(brandId, range, narrowed);
            for (const [page, pageSize, domain] of [[1, 20, undefined], [2, 3, undefined], [1, 20, "acme.com"]] as const) {
              const label = JSON.stringify({ range, narrowed, page, pageSize, domain });
              expect(await citedPages(f, page, pageSize, domain), label).toEqual(await raw.citedPages(f, page, pageSize, domain));
            }
          }
        }
      }),
      { numRuns: 20 },
    );
  });
});
