// The dashboards read daily and weekly rollups (lib/analytics/rollups.ts). On random histories
// (days, providers, prompts, statuses, mentions, positions, sentiments, citations, titles, costs)
// every chart, and the own_page_dropped alert's numbers, must give exactly what the raw queries gave (tests/support/raw-analytics.ts, the queries as
// they were), for random filters, also after a re-analysis that removes, renames and adds
// competitors, and after retention; and the rollups kept incrementally must equal rollups
// built from scratch.
import { randomUUID } from "node:crypto";
import fc from "fast-check";
import pg from "pg";
import { beforeAll, describe, expect, it } from "vitest";
import { acrossMigration, type Sql } from "../support/partial-migrations";
import { waitForLockWaiter } from "../support/pause";
import * as raw from "../support/raw-analytics";
import { rollupRows, rollupsAndRebuild, rollupsAndWorkspaceBuild } from "../support/rollup-rebuild";
import { claimed, liveWorker, taggedSpace, startSpaceCheck, answer, type Space } from "../support/lifecycle-fixtures";
import { runReanalysis } from "@/lib/brands/reanalysis";
import { resolveFilter, type ResolvedFilter } from "@/lib/analytics/filter";
import { overviewKpis } from "@/lib/analytics/kpis";
import { marketComparison } from "@/lib/analytics/market-comparison";
import { promptPerformance } from "@/lib/analytics/prompts";
import { recordRollups } from "@/lib/analytics/rollups";
import { addDays, analyticsFilterInput, isoDay, lastDays } from "@/lib/analytics/schemas";
import { categoriesOverTime, gapSources, ownPagesByPeriod, ownPagesCited } from "@/lib/analytics/source-categories";
import { citedPages, ownDomainRate, topDomainsOverTime } from "@/lib/analytics/sources";
import { positionDistribution, shareOfVoiceOverTime } from "@/lib/analytics/trends";
import { median } from "@/lib/analytics/trend-buckets";
import { visibilityOverTime } from "@/lib/analytics/visibility-trend";
import { updateBrand } from "@/lib/brands/brands";
import { brandInputSchema } from "@/lib/brands/schemas";
import { succeedCapture } from "@/lib/lifecycle/results";
import { db } from "@/lib/db/prisma";
import { runRetention } from "@/lib/jobs/retention";

const START = new Date("2025-01-06T00:00:00Z");
const SPAN_DAYS = 30;
const DOMAINS = ["acme.com", "a.com", "b.com", "c.org", "d.net"];
/**
 * Cited as the brand's own though not one of its domains now (the brand listed it when the answers
 * were analysed): the gap sources count it only with the entities' sites (includeEntityDomains).
 */
const FORMER_OWN = "d.net";
const SENTIMENTS = ["positive", "neutral", "negative"] as const;

type MentionSpec = { mentioned: boolean; count: number; position: number; sentiment: number };
type CaptureSpec = {
  minute: number;
  provider: number;
  prompt: number;
  failed: boolean;
  cost: number;
  /** null: succeeded without any mention row (analysis found nothing to write). */
  entities: { brand: MentionSpec; competitors: MentionSpec[]; stray: MentionSpec | null } | null;
  citations: { domain: number; cited: boolean }[];
  text: number[];
};

const mentionSpec = fc.record({ mentioned: fc.boolean(), count: fc.integer({ min: 0, max: 4 }), position: fc.integer({ min: 1, max: 6 }), sentiment: fc.integer({ min: 0, max: 2 }) });
const captureSpec: fc.Arbitrary<CaptureSpec> = fc.record({
  // Any minute of the span, the last one of a day included.
  minute: fc.oneof(fc.integer({ min: 0, max: SPAN_DAYS * 1440 - 1 }), fc.integer({ min: 1, max: SPAN_DAYS }).map((d) => d * 1440 - 1)),
  provider: fc.integer({ min: 0, max: 2 }),
  prompt: fc.integer({ min: 0, max: 2 }),
  failed: fc.integer({ min: 0, max: 9 }).map((n) => n < 2),
  cost: fc.integer({ min: 0, max: 50_000 }),
  entities: fc.option(fc.record({ brand: mentionSpec, competitors: fc.array(mentionSpec, { minLength: 3, maxLength: 3 }), stray: fc.option(mentionSpec, { freq: 5 }) }), { freq: 6 }),
  citations: fc.array(fc.record({ domain: fc.integer({ min: 0, max: DOMAINS.length - 1 }), cited: fc.boolean() }), { maxLength: 4 }),
  // Which names the answer text uses, for the re-analysis: 0 Acme, 1..3 competitors, 4 "Newco".
  text: fc.array(fc.integer({ min: 0, max: 4 }), { maxLength: 4 }),
});

const filterSpec = fc.record({
  // Short ranges anywhere; ranges past 120 days (weekly buckets: whole weeks from the weekly
  // rollups, partial edge weeks from the daily ones) ending anywhere in the history, so both edges fall on data.
  range: fc.oneof(
    fc.record({ fromDay: fc.integer({ min: -3, max: SPAN_DAYS }), days: fc.oneof(fc.integer({ min: 1, max: SPAN_DAYS }), fc.constant(150)) }),
    // Daily ranges over the whole of January (the history is 6 January to 4 February): the cited
    // pages read its whole month from the monthly rollup, the edges' weeks and days apart.
    fc.record({ fromDay: fc.integer({ min: -40, max: -5 }), days: fc.integer({ min: 31, max: 75 }) }),
    fc.record({ endDay: fc.integer({ min: 1, max: SPAN_DAYS + 3 }), days: fc.integer({ min: 121, max: 160 }) }).map(({ endDay, days }) => ({ fromDay: endDay - days, days })),
  ),
  providers: fc.subarray([0, 1, 2]),
  tags: fc.subarray(["buying", "pricing", "smb", "unused"]),
  markets: fc.subarray(["DE:de", "US:en", ":", ":ru"]),
}).map(({ range, ...rest }) => ({ ...range, ...rest }));
type FilterSpec = { fromDay: number; days: number; providers: number[]; tags: string[]; markets: string[] };

/** New tags for the three prompts (duplicates included: a prompt's tag counts once). */
const retagSpec = fc.array(fc.array(fc.constantFrom("buying", "pricing", "smb", "unused"), { maxLength: 3 }), { minLength: 3, maxLength: 3 });

type World = { space: Space; providerIds: string[]; connectionIds: string[]; promptIds: string[] };
let world: World;

const COMPETITORS = ["Rival", "Other", "Third"];
const NAMES = ["Acme", ...COMPETITORS, "Newco"];

beforeAll(async () => {
  // Markets (country:language): "DE:de", "US:en" and ":" (none set).
  const { space, providerIds, connectionIds } = await taggedSpace();
  world = { space, providerIds, connectionIds, promptIds: space.promptIds };
});

/** A brand of its own for one random history, with three competitors. */
async function newBrand() {
  return db().brand.create({
    data: {
      workspaceId: world.space.workspaceId,
      name: `Acme ${randomUUID().slice(0, 8)}`,
      aliases: ["Acme"],
      domains: ["acme.com"],
      competitors: { create: COMPETITORS.map((name) => ({ workspaceId: world.space.workspaceId, name })) },
    },
    include: { competitors: { orderBy: { createdAt: "asc" } } },
  });
}

/** Writes the history as the demo seed does (raw rows in bulk, then their rollups). */
async function writeHistory(brand: Awaited<ReturnType<typeof newBrand>>, specs: CaptureSpec[]) {
  const workspaceId = world.space.workspaceId;
  const check = await db().check.create({ data: { workspaceId, brandId: brand.id, totalCaptures: specs.length, status: "completed" } });
  const ids = specs.map(() => randomUUID());
  const written = specs.map((s, i) => ({ s, id: ids[i]! }));
  const succeeded = written.filter(({ s }) => !s.failed);
  const row = (captureId: string, m: MentionSpec, entity: { kind: "brand" | "competitor"; brandId?: string; competitorId?: string; name: string }) => ({
    workspaceId,
    captureId,
    kind: entity.kind,
    brandId: entity.brandId ?? null,
    competitorId: entity.competitorId ?? null,
    name: entity.name,
    mentioned: m.mentioned,
    count: m.mentioned ? Math.max(1, m.count) : 0,
    position: m.mentioned ? m.position : null,
    sentiment: m.mentioned ? SENTIMENTS[m.sentiment] : null,
  });
  await db().$transaction(async (tx) => {
    // One statement per table, in the order one capture at a time would write them.
    await tx.capture.createMany({
      data: written.map(({ s, id }, i) => {
        const providerConfigId = world.providerIds[s.provider]!;
        return {
          id,
          workspaceId,
          checkId: check.id,
          brandId: brand.id,
          promptId: world.promptIds[s.prompt]!,
          providerConfigId,
          connectionId: world.connectionIds[s.provider]!,
          sample: i + 1,
          status: s.failed ? ("failed" as const) : ("succeeded" as const),
          maxAttempts: 3,
          model: "m",
          searchMode: "auto" as const,
          answerText: s.failed ? null : s.text.map((n) => `${NAMES[n]} is a fine choice.`).join(" ") || "Nothing to say.",
          costMicros: s.failed ? 0 : s.cost,
          finishedAt: new Date(START.getTime() + s.minute * 60_000 + (s.minute % 7 === 0 ? 59_999 : 0)),
        };
      }),
    });
    await tx.mention.createMany({
      data: succeeded.flatMap(({ s, id }) =>
        s.entities
          ? [
              row(id, s.entities.brand, { kind: "brand", brandId: brand.id, name: brand.name }),
              ...s.entities.competitors.map((m, k) => row(id, m, { kind: "competitor", competitorId: brand.competitors[k]!.id, name: brand.competitors[k]!.name })),
              ...(s.entities.stray ? [row(id, s.entities.stray, { kind: "competitor", name: "Stray Co" })] : []),
            ]
          : [],
      ),
    });
    await tx.citation.createMany({
      data: succeeded.flatMap(({ s, id }) =>
        s.citations.map((c, k) => ({
          workspaceId,
          captureId: id,
          url: `https://${DOMAINS[c.domain]}/${k}`,
          domain: DOMAINS[c.domain]!,
          // Titles change between answers (the own pages show the latest), some are missing or empty.
          title: s.minute % 5 === 0 ? null : s.minute % 5 === 1 ? "" : `Page ${k} (${s.minute % 3})`,
          isOwnDomain: DOMAINS[c.domain] === "acme.com" || DOMAINS[c.domain] === FORMER_OWN,
          citedInText: c.cited,
          position: k + 1,
        })),
      ),
    });
    await recordRollups(tx, ids);
  });
  return ids;
}

async function resolved(brandId: string, f: FilterSpec): Promise<ResolvedFilter> {
  const from = addDays(START, f.fromDay);
  const r = await resolveFilter(
    world.space.workspaceId,
    analyticsFilterInput.parse({ brandId, from: isoDay(from), to: isoDay(addDays(from, f.days - 1)), providers: f.providers.map((p) => world.providerIds[p]!), tags: f.tags, markets: f.markets }),
  );
  return r!;
}

/** Every chart from the rollups equals the same chart from the raw rows. */
async function expectSameAsRaw(brandId: string, filters: FilterSpec[]) {
  for (const spec of filters) {
    const r = await resolved(brandId, spec);
    const label = JSON.stringify(spec);
    const kpis = await overviewKpis(r.filter);
    expect(kpis, label).toEqual(await raw.overviewKpis(r.filter));
    // In the unit the rule chose from the rollups, the same points as the raw rows give.
    const { bucketRule, ...visibility } = await visibilityOverTime(r, { bucket: "auto" });
    const rawVisibility = await raw.visibilityOverTime(r, visibility.unit);
    expect(visibility, label).toEqual(rawVisibility);
    expect(bucketRule.medianN, label).toBe(median(rawVisibility.points.flatMap((p) => Object.values(p.byProvider).map((e) => e.n))));
    // In the unit the rule chose from the rollups, the same points and period tests as the raw rows give.
    const sov = await shareOfVoiceOverTime(r, { bucket: "auto" });
    const { bucketRule: _asked, ...rawSov } = await raw.shareOfVoiceOverTime(r, sov.unit);
    expect({ ...sov, bucketRule: undefined }, label).toEqual({ ...rawSov, bucketRule: undefined });
    expect(sov.answers, label).toBe(kpis.captures);
    // The brand's share over the period is the headline tile's, test and all.
    const { current, previous, test } = kpis.shareOfVoice;
    expect(sov.period.brand, label).toMatchObject({ current, previous, test });
    expect(await positionDistribution(r), label).toEqual(await raw.positionDistribution(r));
    expect(await promptPerformance(r.filter), label).toEqual(await raw.promptPerformance(r.filter));
    expect(await ownDomainRate(r.filter), label).toEqual(await raw.ownDomainRate(r.filter));
    // The domain charts read a different rollup per prompt filter (none, one tag, any other),
    // each daily or weekly: the same range with each.
    for (const prompts of [{ tags: [], markets: [] }, { tags: spec.tags.slice(0, 1), markets: [] }, {}]) {
      const d = await resolved(brandId, { ...spec, ...prompts });
      const dl = `${label} ${JSON.stringify(prompts)}`;
      expect(await topDomainsOverTime(d.filter), dl).toEqual(await raw.topDomainsOverTime(d.filter));
      expect(await categoriesOverTime(d), dl).toEqual(await raw.categoriesOverTime(d));
      for (const includeEntityDomains of [false, true]) expect(await gapSources(d, { includeEntityDomains }), `${dl} ${includeEntityDomains}`).toEqual(await raw.gapSources(d, { includeEntityDomains }));
    }
    expect(await ownPagesCited(r), label).toEqual(await raw.ownPagesCited(r));
    // Cited pages read the rollups per provider with a provider filter, those per prompt with a
    // tag or market filter (the raw rows with both), the totals with neither: paged, and narrowed
    // to one domain.
    for (const narrowed of [{ providers: [], tags: [], markets: [] }, { tags: [], markets: [] }, { providers: [] }, {}]) {
      const pages = await resolved(brandId, { ...spec, ...narrowed });
      const views = narrowed.providers && !narrowed.tags ? ([[1, 20, undefined], [2, 2, undefined], [1, 20, FORMER_OWN]] as const) : ([[1, 20, undefined]] as const);
      for (const [page, pageSize, domain] of views) {
        const pl = `${label} ${JSON.stringify(narrowed)} ${page} ${pageSize} ${domain}`;
        expect(await citedPages(pages.filter, page, pageSize, domain), pl).toEqual(await raw.citedPages(pages.filter, page, pageSize, domain));
      }
    }
    // The own_page_dropped alert splits the range in two periods.
    const split = addDays(r.filter.from, Math.floor(spec.days / 2));
    for (const minAnswers of [1, 2]) expect(await ownPagesByPeriod(r.filter, split, minAnswers), label).toEqual(await raw.ownPagesByPeriod(r.filter, split, minAnswers));
    // Each market's row is the headline numbers of the filter narrowed to that market.
    const markets = await marketComparison(r.filter);
    expect(markets.reduce((sum, m) => sum + m.answers, 0), label).toBe(kpis.captures);
    for (const m of markets) {
      const narrowed = await raw.overviewKpis({ ...r.filter, markets: [m.market] });
      expect({ answers: m.answers, visibility: m.visibility, shareOfVoice: m.shareOfVoice, averagePosition: m.averagePosition }, `${label} ${m.market}`).toEqual({
        answers: narrowed.captures,
        visibility: narrowed.visibility.current,
        shareOfVoice: narrowed.shareOfVoice.current,
        averagePosition: narrowed.averagePosition.current,
      });
    }
  }
}

/** The brand's rollups as kept, against the same rollups built from scratch out of its raw rows. */
async function expectRollupsAsIfRebuilt(brandId: string) {
  const { kept, rebuilt } = await rollupsAndRebuild(brandId);
  expect(kept).toEqual(rebuilt);
}

async function reanalyse(brand: Awaited<ReturnType<typeof newBrand>>) {
  // Rival is removed, Other renamed to "Newco", Third kept, "Rival" comes back as a new
  // competitor (a new id under an old name), and the brand gains a domain.
  const [, other, third] = brand.competitors;
  await editAndReanalyse(brand.id, {
    name: brand.name,
    aliases: ["Acme"],
    domains: ["acme.com", "b.com"],
    competitors: [{ id: other!.id, name: "Newco" }, { id: third!.id, name: "Third" }, { name: "Rival" }],
  });
}

/**
 * After reanalyse: Third also answers to "Other" and c.org becomes the brand's. Only the answers
 * whose text says "Other" or that cite c.org change; the rest are left as they are.
 */
async function reanalyseSome(brand: Awaited<ReturnType<typeof newBrand>>) {
  const [, other, third] = brand.competitors;
  const rival = await db().competitor.findFirstOrThrow({ where: { brandId: brand.id, name: "Rival" } });
  await editAndReanalyse(brand.id, {
    name: brand.name,
    aliases: ["Acme"],
    domains: ["acme.com", "b.com", "c.org"],
    competitors: [{ id: other!.id, name: "Newco" }, { id: third!.id, name: "Third", aliases: ["Other"] }, { id: rival.id, name: "Rival" }],
  });
}

/**
 * After reanalyseSome: Newco is no longer tracked. Every answer loses its row (mentions only: the
 * rewrite stages no domain, page or candidate rollup), and those that named it change their totals.
 */
async function reanalyseMentionsOnly(brand: Awaited<ReturnType<typeof newBrand>>) {
  const [, , third] = brand.competitors;
  const rival = await db().competitor.findFirstOrThrow({ where: { brandId: brand.id, name: "Rival" } });
  await editAndReanalyse(brand.id, {
    name: brand.name,
    aliases: ["Acme"],
    domains: ["acme.com", "b.com", "c.org"],
    competitors: [{ id: third!.id, name: "Third", aliases: ["Other"] }, { id: rival.id, name: "Rival" }],
  });
}

async function editAndReanalyse(brandId: string, input: unknown) {
  await updateBrand(world.space.workspaceId, brandId, brandInputSchema.parse(input));
  const run = await db().analysisRun.findFirst({ where: { brandId }, orderBy: { createdAt: "desc" } });
  if (run) await runReanalysis(run.id);
}

/**
 * A workspace and its brand, written in SQL into a database at an older migration (the client's
 * models may be ahead of it): `one` runs a statement and returns its first row's id,
 * `addProvider` adds a provider config on the first connection.
 */
async function olderWorkspace(sql: Sql) {
  const one = async (text: string, values: unknown[] = []) => (await sql(text, values)).rows[0].id as string;
  const ws = await one(`INSERT INTO workspaces (slug, name) VALUES ('w', 'W') RETURNING id`);
  const brand = await one(`INSERT INTO brands ("workspaceId", name, "updatedAt") VALUES ($1, 'Acme', now()) RETURNING id`, [ws]);
  const connection = await one(`SELECT id FROM provider_connections ORDER BY name LIMIT 1`);
  const addProvider = (name: string) => one(`INSERT INTO provider_configs ("workspaceId", name, "connectionId", model, "updatedAt") VALUES ($1, $2, $3, 'm', now()) RETURNING id`, [ws, name, connection]);
  return { one, ws, brand, connection, addProvider };
}

describe("dashboards from rollups", () => {
  // Twelve random histories, each written, compared chart by chart four times and rebuilt: tens
  // of seconds on a quiet machine (200 s on the shared one at load 12), so the limit is a hang's,
  // not the project's 60 s.
  it("give exactly what the raw rows give, for random histories and filters, after re-analyses (every answer changed, then some, then only mentions) and after retention", { timeout: 360_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(captureSpec, { minLength: 1, maxLength: 40 }), fc.array(filterSpec, { minLength: 2, maxLength: 4 }), retagSpec, async (specs, filters, retags) => {
        const brand = await newBrand();
        await writeHistory(brand, specs);
        await expectSameAsRaw(brand.id, filters);
        await expectRollupsAsIfRebuilt(brand.id);

        await reanalyse(brand);
        await expectSameAsRaw(brand.id, filters);
        await expectRollupsAsIfRebuilt(brand.id);
        // A second edit that changes some answers and leaves the rest (those are not rewritten).
        await reanalyseSome(brand);
        await expectSameAsRaw(brand.id, filters);
        await expectRollupsAsIfRebuilt(brand.id);
        await reanalyseMentionsOnly(brand);
        await expectSameAsRaw(brand.id, filters);
        await expectRollupsAsIfRebuilt(brand.id);

        // Attempt retention deletes attempts only: the rollups (the history) stay as they were.
        const before = await rollupRows(brand.id);
        await runRetention({ attemptRetentionDays: 0, now: new Date(Date.now() + 86_400_000) });
        expect(await rollupRows(brand.id)).toEqual(before);
        await expectSameAsRaw(brand.id, filters);

        // The prompts are re-tagged, in one statement: the per-tag rollup follows (trigger prompts_tags_rollup).
        await db().$executeRaw`
          UPDATE prompts p SET tags = t.tags
          FROM (SELECT unnest(${world.promptIds}::uuid[]) AS id, unnest(${retags.map((tags) => `{${tags.join(",")}}`)}::text[])::text[] AS tags) t
          WHERE p.id = t.id`;
        await expectSameAsRaw(brand.id, filters);
        await expectRollupsAsIfRebuilt(brand.id);
      }),
      { numRuns: 12 },
    );
  });

  it("show each own page with the title of the latest answer that gave one, across days and providers", async () => {
    // writeHistory titles a citation by its answer's minute: none at minute % 5 === 0, empty at
    // % 5 === 1, "Page k (minute % 3)" otherwise. The random histories above seldom cite one own
    // page in several titled answers.
    const brand = await newBrand();
    const answer = (minute: number, provider: number): CaptureSpec => ({
      minute, provider, prompt: 0, failed: false, cost: 0, entities: null, text: [], citations: [{ domain: 0, cited: true }],
    });
    // Titled "Page 0 (2)", "Page 0 (0)" and, the latest titled, "Page 0 (1)" a day later on
    // another provider; then untitled (minute 2880, third provider) and empty (2881, first).
    await writeHistory(brand, [answer(2, 0), answer(3, 1), answer(1444, 2), answer(2880, 2), answer(2881, 0)]);
    const r = await resolved(brand.id, { fromDay: 0, days: SPAN_DAYS, providers: [], tags: [], markets: [] });
    const expected = { items: [{ url: "https://acme.com/0", domain: "acme.com", title: "Page 0 (1)", citations: 5, captures: 5 }] };
    expect(await raw.ownPagesCited(r)).toEqual(expected);
    expect(await ownPagesCited(r)).toEqual(expected);
    // Narrowed to the first two providers, the latest titled answer in scope is minute 3's.
    const narrowed = await resolved(brand.id, { fromDay: 0, days: SPAN_DAYS, providers: [0, 1], tags: [], markets: [] });
    expect(await ownPagesCited(narrowed)).toEqual({ items: [{ ...expected.items[0], title: "Page 0 (0)", citations: 3, captures: 3 }] });
  });

  it("built whole for a workspace (the benchmarks' way: workspaceRollupStatements) equal what its captures' successes and re-analysis kept", { timeout: 120_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(captureSpec, { minLength: 1, maxLength: 40 }), async (specs) => {
        const brand = await newBrand();
        await writeHistory(brand, specs);
        await reanalyse(brand);
        const { kept, rebuilt } = await rollupsAndWorkspaceBuild(world.space.workspaceId, brand.id);
        expect(rebuilt).toEqual(kept);
      }),
      { numRuns: 4 },
    );
  });

  it("are kept by each capture's success, in the transaction that records it", async () => {
    const { space } = world;
    const workerId = await liveWorker();
    const brand = await db().brand.findFirstOrThrow({ where: { workspaceId: space.workspaceId, name: "Acme" } });
    const result = fc.record({ brand: mentionSpec, domains: fc.array(fc.integer({ min: 0, max: DOMAINS.length - 1 }), { maxLength: 3 }), cost: fc.nat(9_999) });
    await fc.assert(
      fc.asyncProperty(fc.array(result, { minLength: 6, maxLength: 6 }), async (results) => {
        const { captureIds } = await startSpaceCheck(space, { prompts: 3, providers: ["ChatGPT", "Perplexity"] });
        for (const [i, captureId] of captureIds.entries()) {
          const r = results[i]!;
          const outcome = await succeedCapture(captureId, await claimed(captureId, workerId), {
            ...answer(r.cost),
            mentions: [
              {
                kind: "brand",
                brandId: brand.id,
                competitorId: null,
                name: "Acme",
                mentioned: r.brand.mentioned,
                count: r.brand.mentioned ? 1 + r.brand.count : 0,
                position: r.brand.mentioned ? r.brand.position : null,
                sentiment: r.brand.mentioned ? SENTIMENTS[r.brand.sentiment]! : null,
              },
            ],
            citations: r.domains.map((d, k) => ({ url: `https://${DOMAINS[d]}/${k}`, domain: DOMAINS[d]!, title: null, isOwnDomain: d === 0, citedInText: true })),
          });
          expect(outcome).toEqual({ kind: "written", status: "succeeded" });
        }
        const r = (await resolveFilter(space.workspaceId, analyticsFilterInput.parse({ brandId: brand.id, ...lastDays(2) })))!;
        const kpis = await overviewKpis(r.filter);
        expect(kpis.captures).toBe(await db().capture.count({ where: { brandId: brand.id, status: "succeeded" } }));
        expect(kpis).toEqual(await raw.overviewKpis(r.filter));
        expect(await positionDistribution(r)).toEqual(await raw.positionDistribution(r));
        expect(await topDomainsOverTime(r.filter)).toEqual(await raw.topDomainsOverTime(r.filter));
        expect(await ownDomainRate(r.filter)).toEqual(await raw.ownDomainRate(r.filter));
        await expectRollupsAsIfRebuilt(brand.id);
      }),
      { numRuns: 3 },
    );
  });

  it("are built from the history already there by the migration that adds them", async () => {
    await acrossMigration(
      "20261201130000_analytics_rollups",
      async (sql) => {
        const { one, ws, brand } = await olderWorkspace(sql);
        const rival = await one(`INSERT INTO competitors ("workspaceId", "brandId", name, "updatedAt") VALUES ($1, $2, 'Rival', now()) RETURNING id`, [ws, brand]);
        const prompt = await one(`INSERT INTO prompts ("workspaceId", text, "updatedAt") VALUES ($1, 'Best CRM?', now()) RETURNING id`, [ws]);
        const connection = await one(`SELECT id FROM provider_connections ORDER BY name LIMIT 1`);
        const provider = await one(`INSERT INTO provider_configs ("workspaceId", name, "connectionId", model, "updatedAt") VALUES ($1, 'P', $2, 'm', now()) RETURNING id`, [ws, connection]);
        const check = await one(`INSERT INTO checks ("workspaceId", "brandId", "totalCaptures", "updatedAt") VALUES ($1, $2, 4, now()) RETURNING id`, [ws, brand]);
        const capture = (sample: number, status: string, finishedAt: string, cost: number) =>
          one(
            `INSERT INTO captures ("workspaceId", "checkId", "brandId", "promptId", "providerConfigId", "connectionId", sample, status, "maxAttempts", model, "searchMode", "costMicros", "finishedAt", "updatedAt")
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8::"CaptureStatus", 3, 'm', 'auto', $9, $10, now()) RETURNING id`,
            [ws, check, brand, prompt, provider, connection, sample, status, cost, finishedAt],
          );
        const mention = (captureId: string, kind: string, entity: string, mentioned: boolean, count: number, position: number | null, sentiment: string | null) =>
          sql(
            `INSERT INTO mentions ("workspaceId", "captureId", kind, "brandId", "competitorId", name, mentioned, count, position, sentiment)
             VALUES ($1, $2, $3::"EntityKind", $4, $5, $6, $7, $8, $9, $10::"Sentiment")`,
            [ws, captureId, kind, kind === "brand" ? entity : null, kind === "brand" ? null : entity, kind === "brand" ? "Acme" : "Rival", mentioned, count, position, sentiment],
          );
        const cite = (captureId: string, domain: string, own: boolean, cited: boolean) =>
          sql(`INSERT INTO citations ("workspaceId", "captureId", url, domain, "isOwnDomain", "citedInText", position) VALUES ($1, $2, $3, $4, $5, $6, 1)`, [ws, captureId, `https://${domain}/`, domain, own, cited]);
        const c1 = await capture(1, "succeeded", "2025-03-01T10:00:00", 100);
        await mention(c1, "brand", brand, true, 2, 1, "positive");
        await mention(c1, "competitor", rival, true, 1, 2, "neutral");
        await cite(c1, "acme.com", true, true);
        await cite(c1, "a.com", false, true);
        await cite(c1, "b.com", false, false);
        const c2 = await capture(2, "succeeded", "2025-03-01T23:59:59.999", 200);
        await mention(c2, "brand", brand, false, 0, null, null);
        await mention(c2, "competitor", rival, true, 3, 1, "negative");
        await cite(c2, "a.com", false, true);
        await capture(3, "succeeded", "2025-03-02T00:00:00", 50);
        await capture(4, "failed", "2025-03-01T12:00:00", 0);
        return { rival };
      },
      async (sql, { rival }) => {
        const rows = async (text: string) => (await sql(text)).rows.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, typeof v === "string" && /^\d+$/.test(v) ? Number(v) : v])));
        expect(
          await rows(`SELECT to_char(day, 'YYYY-MM-DD') AS day, captures, "costMicros", answers, mentioned, "positionN", "positionSum", "positionSumSq", position1, position2, "position5Plus",
                        positive, neutral, negative, "sumY", "sumX", "sumYY", "sumXX", "sumXY", "citingOwn" FROM rollup_answers ORDER BY day`),
        ).toEqual([
          { day: "2025-03-01", captures: 2, costMicros: 300, answers: 2, mentioned: 1, positionN: 1, positionSum: 1, positionSumSq: 1, position1: 1, position2: 0, position5Plus: 0,
            positive: 1, neutral: 0, negative: 0, sumY: 2, sumX: 6, sumYY: 4, sumXX: 18, sumXY: 6, citingOwn: 1 },
          { day: "2025-03-02", captures: 1, costMicros: 50, answers: 0, mentioned: 0, positionN: 0, positionSum: 0, positionSumSq: 0, position1: 0, position2: 0, position5Plus: 0,
            positive: 0, neutral: 0, negative: 0, sumY: 0, sumX: 0, sumYY: 0, sumXX: 0, sumXY: 0, citingOwn: 0 },
        ]);
        expect(await rows(`SELECT to_char(day, 'YYYY-MM-DD') AS day, entity, name, rows, mentions, ahead, instead FROM rollup_mentions ORDER BY entity = 'brand' DESC`)).toEqual([
          { day: "2025-03-01", entity: "brand", name: "Acme", rows: 2, mentions: 2, ahead: 0, instead: 0 },
          { day: "2025-03-01", entity: rival, name: "Rival", rows: 2, mentions: 4, ahead: 1, instead: 1 },
        ]);
        expect(await rows(`SELECT to_char(day, 'YYYY-MM-DD') AS day, domain, citations, "ownCitations" FROM rollup_citations ORDER BY domain`)).toEqual([
          { day: "2025-03-01", domain: "a.com", citations: 2, ownCitations: 0 },
          { day: "2025-03-01", domain: "acme.com", citations: 1, ownCitations: 1 },
        ]);
        expect(await rows(`SELECT to_char(day, 'YYYY-MM-DD') AS day, domain, citations, "ownCitations" FROM rollup_domains ORDER BY domain`)).toEqual([
          { day: "2025-03-01", domain: "a.com", citations: 2, ownCitations: 0 },
          { day: "2025-03-01", domain: "acme.com", citations: 1, ownCitations: 1 },
        ]);
      },
    );
  });
  it("put an answer recorded while its prompt is re-tagged under the tags the re-tagging leaves", async () => {
    const { space } = world;
    const workerId = await liveWorker();
    const brand = await db().brand.findFirstOrThrow({ where: { workspaceId: space.workspaceId, name: "Acme" } });
    const promptId = space.promptIds[0]!;
    await db().prompt.update({ where: { id: promptId }, data: { tags: ["before"] } });
    const { captureIds } = await startSpaceCheck(space, { prompts: 1 });
    const runToken = await claimed(captureIds[0]!, workerId);
    // The re-tagging holds its transaction open after its trigger ran (its lock taken).
    const retagger = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await retagger.connect();
    try {
      await retagger.query("BEGIN");
      await retagger.query(`UPDATE prompts SET tags = '{after}' WHERE id = $1`, [promptId]);
      const recording = succeedCapture(captureIds[0]!, runToken, {
        ...answer(1_000),
        citations: [{ url: "https://a.com/1", domain: "a.com", title: null, isOwnDomain: false, citedInText: true }],
      });
      await waitForLockWaiter();
      await retagger.query("COMMIT");
      expect(await recording).toEqual({ kind: "written", status: "succeeded" });
    } finally {
      await retagger.end();
    }
    const tags = await db().$queryRaw<{ tag: string; citations: number }[]>`
      SELECT tag, sum(citations)::int AS citations FROM rollup_tag_domains WHERE "brandId" = ${brand.id}::uuid AND tag IN ('before', 'after') GROUP BY tag ORDER BY tag`;
    expect(tags.find((t) => t.tag === "after")?.citations ?? 0, "the answer counts under the prompt's new tag").toBeGreaterThan(0);
    expect(tags.find((t) => t.tag === "before")?.citations ?? 0, "nothing is left under the old one").toBe(0);
    await expectRollupsAsIfRebuilt(brand.id);
  });

  it("are built per tag from the history already there by the migration that adds them", async () => {
    await acrossMigration(
      "20261201150000_tag_domain_rollups",
      async (sql) => {
        const { one, ws, brand, connection, addProvider } = await olderWorkspace(sql);
        const provider = await addProvider("P");
        const check = await one(`INSERT INTO checks ("workspaceId", "brandId", "totalCaptures", "updatedAt") VALUES ($1, $2, 2, now()) RETURNING id`, [ws, brand]);
        const prompt = (tags: string) => one(`INSERT INTO prompts ("workspaceId", text, tags, "updatedAt") VALUES ($1, $2, $3::text[], now()) RETURNING id`, [ws, `Q ${tags}`, tags]);
        const [p1, p2] = [await prompt("{buying,smb}"), await prompt("{buying,buying}")];
        for (const [sample, promptId] of [[1, p1], [2, p2]] as const) {
          const capture = await one(
            `INSERT INTO captures ("workspaceId", "checkId", "brandId", "promptId", "providerConfigId", "connectionId", sample, status, "maxAttempts", model, "searchMode", "finishedAt", "updatedAt")
             VALUES ($1, $2, $3, $4, $5, $6, $7, 'succeeded', 3, 'm', 'auto', '2025-03-01T10:00:00', now()) RETURNING id`,
            [ws, check, brand, promptId, provider, connection, sample],
          );
          await sql(`INSERT INTO citations ("workspaceId", "captureId", url, domain, "isOwnDomain", "citedInText", position) VALUES ($1, $2, 'https://a.com/', 'a.com', false, true, 1)`, [ws, capture]);
          await sql(`SELECT beacon_rollup_captures(ARRAY[$1::uuid], 1)`, [capture]);
        }
        return {};
      },
      async (sql) => {
        const { rows } = await sql(`SELECT tag, domain, citations FROM rollup_tag_domains ORDER BY tag`);
        expect(rows).toEqual([
          { tag: "buying", domain: "a.com", citations: 2 },
          { tag: "smb", domain: "a.com", citations: 1 },
        ]);
      },
    );
  });

  it("are built per week and per own page from the history already there by the migration that adds them", async () => {
    await acrossMigration(
      "20261208100000_weekly_domain_and_own_page_rollups",
      async (sql) => {
        const { one, ws, brand, connection, addProvider } = await olderWorkspace(sql);
        const provider = await addProvider("P");
        const check = await one(`INSERT INTO checks ("workspaceId", "brandId", "totalCaptures", "updatedAt") VALUES ($1, $2, 3, now()) RETURNING id`, [ws, brand]);
        const prompt = await one(`INSERT INTO prompts ("workspaceId", text, tags, "updatedAt") VALUES ($1, 'Q', '{buying}', now()) RETURNING id`, [ws]);
        // Monday 3 and Sunday 9 March 2025 are one week, Monday 10 the next.
        const cites = [
          { at: "2025-03-03T10:00:00", title: "Old title" },
          { at: "2025-03-09T23:59:59.999", title: "New title" },
          { at: "2025-03-10T00:00:00", title: null },
        ];
        for (const [i, { at, title }] of cites.entries()) {
          const capture = await one(
            `INSERT INTO captures ("workspaceId", "checkId", "brandId", "promptId", "providerConfigId", "connectionId", sample, status, "maxAttempts", model, "searchMode", "finishedAt", "updatedAt")
             VALUES ($1, $2, $3, $4, $5, $6, $7, 'succeeded', 3, 'm', 'auto', $8, now()) RETURNING id`,
            [ws, check, brand, prompt, provider, connection, i + 1, at],
          );
          const cite = (url: string, domain: string, own: boolean, cited: boolean, pageTitle: string | null) =>
            sql(`INSERT INTO citations ("workspaceId", "captureId", url, domain, "isOwnDomain", "citedInText", position, title) VALUES ($1, $2, $3, $4, $5, $6, 1, $7)`, [ws, capture, url, domain, own, cited, pageTitle]);
          await cite("https://acme.com/pricing", "acme.com", true, true, title);
          await cite("https://a.com/", "a.com", false, true, null);
          await cite("https://acme.com/blog", "acme.com", true, false, "Not cited");
          await sql(`SELECT beacon_rollup_captures(ARRAY[$1::uuid], 1)`, [capture]);
        }
        return {};
      },
      async (sql) => {
        const rows = async (text: string) => (await sql(text)).rows;
        expect(await rows(`SELECT to_char(week, 'YYYY-MM-DD') AS week, domain, citations, "ownCitations" FROM rollup_domain_weeks ORDER BY week, domain`)).toEqual([
          { week: "2025-03-03", domain: "a.com", citations: 2, ownCitations: 0 },
          { week: "2025-03-03", domain: "acme.com", citations: 2, ownCitations: 2 },
          { week: "2025-03-10", domain: "a.com", citations: 1, ownCitations: 0 },
          { week: "2025-03-10", domain: "acme.com", citations: 1, ownCitations: 1 },
        ]);
        expect(await rows(`SELECT tag, to_char(week, 'YYYY-MM-DD') AS week, domain, citations FROM rollup_tag_domain_weeks ORDER BY week, domain`)).toEqual([
          { tag: "buying", week: "2025-03-03", domain: "a.com", citations: 2 },
          { tag: "buying", week: "2025-03-03", domain: "acme.com", citations: 2 },
          { tag: "buying", week: "2025-03-10", domain: "a.com", citations: 1 },
          { tag: "buying", week: "2025-03-10", domain: "acme.com", citations: 1 },
        ]);
        expect(await rows(`SELECT to_char(day, 'YYYY-MM-DD') AS day, url, domain, citations, answers, title FROM rollup_own_pages ORDER BY day`)).toEqual([
          { day: "2025-03-03", url: "https://acme.com/pricing", domain: "acme.com", citations: 1, answers: 1, title: "Old title" },
          { day: "2025-03-09", url: "https://acme.com/pricing", domain: "acme.com", citations: 1, answers: 1, title: "New title" },
          { day: "2025-03-10", url: "https://acme.com/pricing", domain: "acme.com", citations: 1, answers: 1, title: null },
        ]);
      },
    );
  });

  it("are built per cited page, per day and per week, from the history already there by the migration that adds them", async () => {
    await acrossMigration(
      "20261209140000_cited_page_rollups",
      async (sql) => {
        const { one, ws, brand, connection, addProvider } = await olderWorkspace(sql);
        const provider = await addProvider("P");
        const check = await one(`INSERT INTO checks ("workspaceId", "brandId", "totalCaptures", "updatedAt") VALUES ($1, $2, 3, now()) RETURNING id`, [ws, brand]);
        const prompt = await one(`INSERT INTO prompts ("workspaceId", text, "updatedAt") VALUES ($1, 'Q', now()) RETURNING id`, [ws]);
        // Monday 3 and Sunday 9 March 2025 are one week, Monday 10 the next.
        const answers = [
          { at: "2025-03-03T10:00:00", title: "Old title" },
          { at: "2025-03-09T23:59:59.999", title: "New title" },
          { at: "2025-03-09T08:00:00", title: "" },
          { at: "2025-03-10T00:00:00", title: null },
        ];
        for (const [i, { at, title }] of answers.entries()) {
          const capture = await one(
            `INSERT INTO captures ("workspaceId", "checkId", "brandId", "promptId", "providerConfigId", "connectionId", sample, status, "maxAttempts", model, "searchMode", "finishedAt", "updatedAt")
             VALUES ($1, $2, $3, $4, $5, $6, $7, 'succeeded', 3, 'm', 'auto', $8, now()) RETURNING id`,
            [ws, check, brand, prompt, provider, connection, i + 1, at],
          );
          const cite = (url: string, domain: string, own: boolean, cited: boolean, pageTitle: string | null) =>
            sql(`INSERT INTO citations ("workspaceId", "captureId", url, domain, "isOwnDomain", "citedInText", position, title) VALUES ($1, $2, $3, $4, $5, $6, 1, $7)`, [ws, capture, url, domain, own, cited, pageTitle]);
          await cite("https://a.com/guide", "a.com", false, true, title);
          // Cited twice in one answer: two citations, one answer.
          await cite("https://a.com/guide", "a.com", false, true, null);
          await cite("https://acme.com/pricing", "acme.com", true, true, null);
          await cite("https://b.com/", "b.com", false, false, "Only retrieved");
          await sql(`SELECT beacon_rollup_captures(ARRAY[$1::uuid], 1)`, [capture]);
        }
        return {};
      },
      async (sql) => {
        const rows = async (text: string) => (await sql(text)).rows;
        expect(await rows(`SELECT to_char(day, 'YYYY-MM-DD') AS day, url, citations, "ownCitations", answers, title, to_char("titleAt", 'HH24:MI:SS.MS') AS "titleAt" FROM rollup_cited_pages ORDER BY day, url`)).toEqual([
          { day: "2025-03-03", url: "https://a.com/guide", citations: 2, ownCitations: 0, answers: 1, title: "Old title", titleAt: "10:00:00.000" },
          { day: "2025-03-03", url: "https://acme.com/pricing", citations: 1, ownCitations: 1, answers: 1, title: null, titleAt: null },
          { day: "2025-03-09", url: "https://a.com/guide", citations: 4, ownCitations: 0, answers: 2, title: "New title", titleAt: "23:59:59.999" },
          { day: "2025-03-09", url: "https://acme.com/pricing", citations: 2, ownCitations: 2, answers: 2, title: null, titleAt: null },
          { day: "2025-03-10", url: "https://a.com/guide", citations: 2, ownCitations: 0, answers: 1, title: null, titleAt: null },
          { day: "2025-03-10", url: "https://acme.com/pricing", citations: 1, ownCitations: 1, answers: 1, title: null, titleAt: null },
        ]);
        expect(await rows(`SELECT to_char(week, 'YYYY-MM-DD') AS week, url, citations, "ownCitations", answers, to_char("titleAt", 'MM-DD HH24:MI:SS.MS') AS "titleAt" FROM rollup_cited_page_weeks ORDER BY week, url`)).toEqual([
          { week: "2025-03-03", url: "https://a.com/guide", citations: 6, ownCitations: 0, answers: 3, titleAt: "03-09 23:59:59.999" },
          { week: "2025-03-03", url: "https://acme.com/pricing", citations: 3, ownCitations: 3, answers: 3, titleAt: null },
          { week: "2025-03-10", url: "https://a.com/guide", citations: 2, ownCitations: 0, answers: 1, titleAt: null },
          { week: "2025-03-10", url: "https://acme.com/pricing", citations: 1, ownCitations: 1, answers: 1, titleAt: null },
        ]);
      },
    );
  });

  it("are built per cited domain and day (and tag) without the provider from the history already there by the migration that adds them", async () => {
    await acrossMigration(
      "20261214110000_domain_day_totals",
      async (sql) => {
        const { ws, brand, addProvider } = await olderWorkspace(sql);
        const [p1, p2] = [await addProvider("P1"), await addProvider("P2")];
        const rows: [string, string, string, number, number][] = [
          ["2025-03-30", p1, "a.com", 2, 0],
          ["2025-03-30", p2, "a.com", 1, 0],
          ["2025-03-31", p1, "a.com", 3, 0],
          ["2025-03-31", p2, "acme.com", 2, 2],
          ["2025-03-31", p1, "acme.com", 1, 1],
        ];
        for (const [day, provider, domain, citations, own] of rows) {
          await sql(`INSERT INTO rollup_domains ("workspaceId", "brandId", day, "providerConfigId", domain, citations, "ownCitations") VALUES ($1, $2, $3, $4, $5, $6, $7)`, [ws, brand, day, provider, domain, citations, own]);
          // The same rows under a tag, and the first provider's under a second one.
          for (const tag of provider === p1 ? ["buying", "brand"] : ["buying"])
            await sql(`INSERT INTO rollup_tag_domains ("workspaceId", "brandId", tag, day, "providerConfigId", domain, citations, "ownCitations") VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`, [ws, brand, tag, day, provider, domain, citations, own]);
        }
        return {};
      },
      async (sql) => {
        const rows = (await sql(`SELECT to_char(day, 'YYYY-MM-DD') AS day, domain, citations, "ownCitations" FROM rollup_domain_day_totals ORDER BY 1, 2`)).rows;
        expect(rows).toEqual([
          { day: "2025-03-30", domain: "a.com", citations: 3, ownCitations: 0 },
          { day: "2025-03-31", domain: "a.com", citations: 3, ownCitations: 0 },
          { day: "2025-03-31", domain: "acme.com", citations: 3, ownCitations: 3 },
        ]);
        const tagged = (await sql(`SELECT tag, to_char(day, 'YYYY-MM-DD') AS day, domain, citations, "ownCitations" FROM rollup_tag_domain_day_totals ORDER BY 1, 2, 3`)).rows;
        expect(tagged).toEqual([
          { tag: "brand", day: "2025-03-30", domain: "a.com", citations: 2, ownCitations: 0 },
          { tag: "brand", day: "2025-03-31", domain: "a.com", citations: 3, ownCitations: 0 },
          { tag: "brand", day: "2025-03-31", domain: "acme.com", citations: 1, ownCitations: 1 },
          ...rows.map((r) => ({ tag: "buying", ...r })),
        ]);
      },
    );
  });

  it("are built per cited page without the provider, per day, week and month, from the history already there by the migration that adds them", async () => {
    await acrossMigration(
      "20261211150000_cited_page_totals",
      async (sql) => {
        const { ws, brand, addProvider } = await olderWorkspace(sql);
        const [p1, p2] = [await addProvider("P1"), await addProvider("P2")];
        // Sunday 30 March 2025 ends a week; Monday 31 March starts the next, which ends in April.
        const rows: [string, string, string, number, number, number, string | null, string | null][] = [
          ["2025-03-30", p1, "https://a.com/guide", 2, 0, 1, "Guide", "2025-03-30T10:00:00"],
          ["2025-03-30", p2, "https://a.com/guide", 1, 0, 1, null, null],
          ["2025-03-31", p1, "https://a.com/guide", 3, 0, 2, "Guide 2", "2025-03-31T09:00:00"],
          ["2025-04-01", p2, "https://a.com/guide", 1, 0, 1, null, null],
          ["2025-04-01", p1, "https://acme.com/", 2, 2, 2, null, null],
        ];
        for (const [day, provider, url, citations, own, answers, title, titleAt] of rows) {
          await sql(
            `INSERT INTO rollup_cited_pages ("workspaceId", "brandId", day, "providerConfigId", url, domain, citations, "ownCitations", answers, title, "titleAt")
             VALUES ($1, $2, $3, $4, $5, split_part($5, '/', 3), $6, $7, $8, $9, $10)`,
            [ws, brand, day, provider, url, citations, own, answers, title, titleAt],
          );
        }
        return {};
      },
      async (sql) => {
        const rows = async (table: string, column: string) =>
          (await sql(`SELECT to_char(${column}, 'YYYY-MM-DD') AS period, url, domain, citations, "ownCitations", answers, to_char("titleAt", 'MM-DD HH24:MI') AS "titleAt" FROM ${table} ORDER BY 1, url`)).rows;
        const row = (period: string, url: string, citations: number, ownCitations: number, answers: number, titleAt: string | null) => ({ period, url, domain: url.split("/")[2], citations, ownCitations, answers, titleAt });
        expect(await rows("rollup_cited_page_day_totals", "day")).toEqual([
          row("2025-03-30", "https://a.com/guide", 3, 0, 2, "03-30 10:00"),
          row("2025-03-31", "https://a.com/guide", 3, 0, 2, "03-31 09:00"),
          row("2025-04-01", "https://a.com/guide", 1, 0, 1, null),
          row("2025-04-01", "https://acme.com/", 2, 2, 2, null),
        ]);
        expect(await rows("rollup_cited_page_week_totals", "week")).toEqual([
          row("2025-03-24", "https://a.com/guide", 3, 0, 2, "03-30 10:00"),
          row("2025-03-31", "https://a.com/guide", 4, 0, 3, "03-31 09:00"),
          row("2025-03-31", "https://acme.com/", 2, 2, 2, null),
        ]);
        expect(await rows("rollup_cited_page_month_totals", "month")).toEqual([
          row("2025-03-01", "https://a.com/guide", 6, 0, 4, "03-31 09:00"),
          row("2025-04-01", "https://a.com/guide", 1, 0, 1, null),
          row("2025-04-01", "https://acme.com/", 2, 2, 2, null),
        ]);
      },
    );
  });

  it("are built per cited page and prompt, per day, week and month, from the history already there by the migration that adds them", async () => {
    await acrossMigration(
      "20261211150100_cited_page_prompt_rollups",
      async (sql) => {
        const { one, ws, brand, connection, addProvider } = await olderWorkspace(sql);
        const providers = [await addProvider("P1"), await addProvider("P2")];
        const check = await one(`INSERT INTO checks ("workspaceId", "brandId", "totalCaptures", "updatedAt") VALUES ($1, $2, 4, now()) RETURNING id`, [ws, brand]);
        const prompts = [await one(`INSERT INTO prompts ("workspaceId", text, "updatedAt") VALUES ($1, 'Q1', now()) RETURNING id`, [ws]), await one(`INSERT INTO prompts ("workspaceId", text, "updatedAt") VALUES ($1, 'Q2', now()) RETURNING id`, [ws])];
        // Sunday 30 March 2025 ends a week; Monday 31 March starts the next, which ends in April.
        const answers = [
          { at: "2025-03-30T10:00:00", prompt: 0, provider: 0, title: "Guide" },
          { at: "2025-03-30T11:00:00", prompt: 0, provider: 1, title: null },
          { at: "2025-03-31T09:00:00", prompt: 1, provider: 0, title: "Guide 2" },
          { at: "2025-04-01T08:00:00", prompt: 0, provider: 0, title: "" },
          { at: "2025-04-01T09:00:00", prompt: 0, provider: 0, title: null, failed: true },
        ];
        for (const [i, a] of answers.entries()) {
          const capture = await one(
            `INSERT INTO captures ("workspaceId", "checkId", "brandId", "promptId", "providerConfigId", "connectionId", sample, status, "maxAttempts", model, "searchMode", "finishedAt", "updatedAt")
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 3, 'm', 'auto', $9, now()) RETURNING id`,
            [ws, check, brand, prompts[a.prompt], providers[a.provider], connection, i + 1, a.failed ? "failed" : "succeeded", a.at],
          );
          const cite = (url: string, own: boolean, cited: boolean, pageTitle: string | null) =>
            sql(`INSERT INTO citations ("workspaceId", "captureId", url, domain, "isOwnDomain", "citedInText", position, title) VALUES ($1, $2, $3, split_part($3, '/', 3), $4, $5, 1, $6)`, [ws, capture, url, own, cited, pageTitle]);
          await cite("https://a.com/guide", false, true, a.title);
          await cite("https://acme.com/", true, true, null);
          await cite("https://b.com/", false, false, "Only retrieved");
        }
        return { prompts };
      },
      async (sql, { prompts }) => {
        const rows = async (table: string, column: string, title = "") =>
          (await sql(`SELECT to_char(${column}, 'YYYY-MM-DD') AS period, "promptId" = $1 AS first, url, citations, "ownCitations", answers,${title} to_char("titleAt", 'MM-DD HH24:MI') AS "titleAt" FROM ${table} ORDER BY 1, 2 DESC, url`, [prompts[0]])).rows;
        const row = (period: string, first: boolean, url: string, citations: number, answers: number, titleAt: string | null, title?: string | null) => ({
          period, first, url, citations, ownCitations: url.includes("acme") ? citations : 0, answers, ...(title === undefined ? {} : { title }), titleAt,
        });
        expect(await rows("rollup_cited_page_prompt_days", "day", " title,")).toEqual([
          row("2025-03-30", true, "https://a.com/guide", 2, 2, "03-30 10:00", "Guide"),
          row("2025-03-30", true, "https://acme.com/", 2, 2, null, null),
          row("2025-03-31", false, "https://a.com/guide", 1, 1, "03-31 09:00", "Guide 2"),
          row("2025-03-31", false, "https://acme.com/", 1, 1, null, null),
          row("2025-04-01", true, "https://a.com/guide", 1, 1, null, null),
          row("2025-04-01", true, "https://acme.com/", 1, 1, null, null),
        ]);
        expect(await rows("rollup_cited_page_prompt_weeks", "week")).toEqual([
          row("2025-03-24", true, "https://a.com/guide", 2, 2, "03-30 10:00"),
          row("2025-03-24", true, "https://acme.com/", 2, 2, null),
          row("2025-03-31", true, "https://a.com/guide", 1, 1, null),
          row("2025-03-31", true, "https://acme.com/", 1, 1, null),
          row("2025-03-31", false, "https://a.com/guide", 1, 1, "03-31 09:00"),
          row("2025-03-31", false, "https://acme.com/", 1, 1, null),
        ]);
        expect(await rows("rollup_cited_page_prompt_months", "month")).toEqual([
          row("2025-03-01", true, "https://a.com/guide", 2, 2, "03-30 10:00"),
          row("2025-03-01", true, "https://acme.com/", 2, 2, null),
          row("2025-03-01", false, "https://a.com/guide", 1, 1, "03-31 09:00"),
          row("2025-03-01", false, "https://acme.com/", 1, 1, null),
          row("2025-04-01", true, "https://a.com/guide", 1, 1, null),
          row("2025-04-01", true, "https://acme.com/", 1, 1, null),
        ]);
      },
    );
  });

  it("are built per cited page and tag, per week and month, from the prompts' weeks and months already there by the migration that adds them", async () => {
    await acrossMigration(
      "20261213100000_tag_cited_page_rollups",
      async (sql) => {
        const { one, ws, brand } = await olderWorkspace(sql);
        const prompt = (tags: string) => one(`INSERT INTO prompts ("workspaceId", text, tags, "updatedAt") VALUES ($1, $2, $3::text[], now()) RETURNING id`, [ws, `Q ${tags}`, tags]);
        // A tag twice on a prompt counts once; a prompt without tags counts nowhere.
        const [p1, p2, p3] = [await prompt("{buying,smb}"), await prompt("{buying,buying}"), await prompt("{}")];
        const rows: [string, string, string, number, number, number][] = [
          ["2025-03-01", p1, "https://a.com/guide", 2, 0, 1],
          ["2025-03-01", p2, "https://a.com/guide", 3, 0, 2],
          ["2025-03-01", p3, "https://a.com/guide", 5, 0, 5],
          ["2025-03-01", p2, "https://acme.com/", 1, 1, 1],
          ["2025-04-01", p1, "https://acme.com/", 4, 4, 3],
        ];
        for (const [period, promptId, url, citations, own, answers] of rows) {
          for (const [table, column] of [["rollup_cited_page_prompt_weeks", "week"], ["rollup_cited_page_prompt_months", "month"]]) {
            await sql(
              `INSERT INTO ${table} ("workspaceId", "brandId", ${column}, "promptId", url, domain, citations, "ownCitations", answers, "titleAt")
               VALUES ($1, $2, $3, $4, $5, split_part($5, '/', 3), $6, $7, $8, '2025-03-01T10:00:00')`,
              [ws, brand, period, promptId, url, citations, own, answers],
            );
          }
        }
        return {};
      },
      async (sql) => {
        for (const [table, column] of [["rollup_tag_cited_page_weeks", "week"], ["rollup_tag_cited_page_months", "month"]]) {
          const { rows } = await sql(`SELECT tag, to_char(${column}, 'YYYY-MM-DD') AS period, url, domain, citations, "ownCitations", answers FROM ${table} ORDER BY tag, period, url`);
          expect(rows, table).toEqual([
            { tag: "buying", period: "2025-03-01", url: "https://a.com/guide", domain: "a.com", citations: 5, ownCitations: 0, answers: 3 },
            { tag: "buying", period: "2025-03-01", url: "https://acme.com/", domain: "acme.com", citations: 1, ownCitations: 1, answers: 1 },
            { tag: "buying", period: "2025-04-01", url: "https://acme.com/", domain: "acme.com", citations: 4, ownCitations: 4, answers: 3 },
            { tag: "smb", period: "2025-03-01", url: "https://a.com/guide", domain: "a.com", citations: 2, ownCitations: 0, answers: 1 },
            { tag: "smb", period: "2025-04-01", url: "https://acme.com/", domain: "acme.com", citations: 4, ownCitations: 4, answers: 3 },
          ]);
        }
      },
    );
  });

  it("are built for the gap sources from the history already there by the migrations that add them", async () => {
    const arrangeGap = async (sql: Sql) => {
      const { one, ws, brand, connection, addProvider } = await olderWorkspace(sql);
      const provider = await addProvider("P");
      const check = await one(`INSERT INTO checks ("workspaceId", "brandId", "totalCaptures", "updatedAt") VALUES ($1, $2, 2, now()) RETURNING id`, [ws, brand]);
      const prompt = await one(`INSERT INTO prompts ("workspaceId", text, tags, "updatedAt") VALUES ($1, 'Q', '{buying,smb}', now()) RETURNING id`, [ws]);
      // The first answer leaves the brand out and names Rival (a gap answer), the second names both.
      for (const [i, brandNamed] of [false, true].entries()) {
        const capture = await one(
          `INSERT INTO captures ("workspaceId", "checkId", "brandId", "promptId", "providerConfigId", "connectionId", sample, status, "maxAttempts", model, "searchMode", "finishedAt", "updatedAt")
           VALUES ($1, $2, $3, $4, $5, $6, $7, 'succeeded', 3, 'm', 'auto', '2025-03-03T10:00:00', now()) RETURNING id`,
          [ws, check, brand, prompt, provider, connection, i + 1],
        );
        await sql(`INSERT INTO mentions ("workspaceId", "captureId", kind, "brandId", name, mentioned) VALUES ($1, $2, 'brand', $3, 'Acme', $4)`, [ws, capture, brand, brandNamed]);
        await sql(`INSERT INTO mentions ("workspaceId", "captureId", kind, name, mentioned) VALUES ($1, $2, 'competitor', 'Rival', true)`, [ws, capture]);
        const cite = (url: string, domain: string, own: boolean, cited: boolean) =>
          sql(`INSERT INTO citations ("workspaceId", "captureId", url, domain, "isOwnDomain", "citedInText", position) VALUES ($1, $2, $3, $4, $5, $6, 1)`, [ws, capture, url, domain, own, cited]);
        await cite("https://a.com/1", "a.com", false, true);
        await cite("https://a.com/2", "a.com", false, true);
        await cite("https://acme.com/", "acme.com", true, true);
        await cite("https://b.com/", "b.com", false, false);
      }
      return {};
    };
    const expected = [
      { domain: "", name: "", answers: 1, offSite: 1 },
      { domain: "a.com", name: "", answers: 1, offSite: 1 },
      { domain: "a.com", name: "Rival", answers: 1, offSite: 1 },
      { domain: "acme.com", name: "", answers: 1, offSite: 0 },
      { domain: "acme.com", name: "Rival", answers: 1, offSite: 0 },
    ];
    const rows = async (sql: Sql, text: string) => (await sql(text)).rows;
    await acrossMigration("20261208160000_gap_source_rollups", arrangeGap, async (sql) => {
      expect(await rows(sql, `SELECT domain, name, answers, "offSite" FROM rollup_gap_sources ORDER BY domain, name`)).toEqual(expected);
      expect(await rows(sql, `SELECT domain, name, answers, "offSite" FROM rollup_gap_source_prompts ORDER BY domain, name`)).toEqual(expected);
    });
    await acrossMigration(
      "20261208160200_tag_gap_source_rollups",
      async (sql) => {
        await arrangeGap(sql);
        // The rollup per prompt, as beacon_rollup_captures would have kept it (the per-tag one is built from it).
        await sql(`INSERT INTO rollup_gap_source_prompts ("workspaceId", "brandId", day, "providerConfigId", "promptId", domain, name, answers, "offSite")
          SELECT c."workspaceId", c."brandId", '2025-03-03', c."providerConfigId", c."promptId", x.domain, x.name, x.answers, x."offSite"
          FROM (SELECT DISTINCT "workspaceId", "brandId", "providerConfigId", "promptId" FROM captures) c
          CROSS JOIN (VALUES ('', '', 1, 1), ('a.com', 'Rival', 1, 1), ('acme.com', '', 1, 0)) x(domain, name, answers, "offSite")`);
        return {};
      },
      async (sql) => {
        expect(await rows(sql, `SELECT tag, domain, name, answers, "offSite" FROM rollup_tag_gap_sources ORDER BY tag, domain, name`)).toEqual(
          ["buying", "smb"].flatMap((tag) => [
            { tag, domain: "", name: "", answers: 1, offSite: 1 },
            { tag, domain: "a.com", name: "Rival", answers: 1, offSite: 1 },
            { tag, domain: "acme.com", name: "", answers: 1, offSite: 0 },
          ]),
        );
      },
    );
  });

  it("are built for discovery per tag, per week and per prompt from the history already there by the migrations that add them", async () => {
    // The backfills read the candidates' daily rollups (kept since 20261207180000), not the raw rows.
    const arrange = async (sql: Sql, tables: string[]) => {
      const { one, ws, brand, addProvider } = await olderWorkspace(sql);
      const provider = await addProvider("P");
      // A prompt with a tag twice counts once under it.
      const both = await one(`INSERT INTO prompts ("workspaceId", text, tags, "updatedAt") VALUES ($1, 'Q1', '{buying,smb,buying}', now()) RETURNING id`, [ws]);
      const buying = await one(`INSERT INTO prompts ("workspaceId", text, tags, "updatedAt") VALUES ($1, 'Q2', '{buying}', now()) RETURNING id`, [ws]);
      // Sunday 9 March 2025 ends the week of Monday 3; Monday 10 starts the next.
      const rows = [
        { day: "2025-03-03", prompt: both, answers: 2 },
        { day: "2025-03-09", prompt: buying, answers: 3 },
        { day: "2025-03-10", prompt: both, answers: 1 },
      ];
      for (const { day, prompt, answers } of rows) {
        await sql(`INSERT INTO rollup_candidates ("workspaceId", "brandId", day, "providerConfigId", "promptId", key, name, answers) VALUES ($1, $2, $3, $4, $5, 'attio', 'Attio', $6)`, [ws, brand, day, provider, prompt, answers]);
        if (tables.includes("rollup_tag_candidates")) {
          for (const tag of prompt === both ? ["buying", "smb"] : ["buying"]) {
            await sql(
              `INSERT INTO rollup_tag_candidates ("workspaceId", "brandId", tag, day, key, name, answers) VALUES ($1, $2, $3, $4, 'attio', 'Attio', $5)
               ON CONFLICT ("workspaceId", "brandId", tag, day, key, name) DO UPDATE SET answers = rollup_tag_candidates.answers + excluded.answers`,
              [ws, brand, tag, day, answers],
            );
          }
        }
      }
      await sql(`INSERT INTO rollup_candidate_days ("workspaceId", "brandId", day, "providerConfigId", key, name, answers) SELECT "workspaceId", "brandId", day, "providerConfigId", key, name, sum(answers) FROM rollup_candidates GROUP BY 1, 2, 3, 4, 5, 6`);
      await sql(`INSERT INTO rollup_candidate_day_totals ("workspaceId", "brandId", day, key, name, answers) SELECT "workspaceId", "brandId", day, key, name, sum(answers) FROM rollup_candidates GROUP BY 1, 2, 3, 4, 5`);
      return {};
    };
    const rows = async (sql: Sql, text: string) => (await sql(text)).rows;
    await acrossMigration("20261211140000_tag_candidates", (sql) => arrange(sql, []), async (sql) => {
      expect(await rows(sql, `SELECT tag, to_char(day, 'YYYY-MM-DD') AS day, key, name, answers FROM rollup_tag_candidates ORDER BY tag, day`)).toEqual([
        { tag: "buying", day: "2025-03-03", key: "attio", name: "Attio", answers: 2 },
        { tag: "buying", day: "2025-03-09", key: "attio", name: "Attio", answers: 3 },
        { tag: "buying", day: "2025-03-10", key: "attio", name: "Attio", answers: 1 },
        { tag: "smb", day: "2025-03-03", key: "attio", name: "Attio", answers: 2 },
        { tag: "smb", day: "2025-03-10", key: "attio", name: "Attio", answers: 1 },
      ]);
    });
    await acrossMigration("20261211140100_candidate_weeks", (sql) => arrange(sql, ["rollup_tag_candidates"]), async (sql) => {
      expect(await rows(sql, `SELECT to_char(week, 'YYYY-MM-DD') AS week, answers FROM rollup_candidate_weeks ORDER BY week`)).toEqual([
        { week: "2025-03-03", answers: 5 },
        { week: "2025-03-10", answers: 1 },
      ]);
      expect(await rows(sql, `SELECT to_char(week, 'YYYY-MM-DD') AS week, answers FROM rollup_candidate_week_totals ORDER BY week`)).toEqual([
        { week: "2025-03-03", answers: 5 },
        { week: "2025-03-10", answers: 1 },
      ]);
      expect(await rows(sql, `SELECT tag, to_char(week, 'YYYY-MM-DD') AS week, answers FROM rollup_tag_candidate_weeks ORDER BY tag, week`)).toEqual([
        { tag: "buying", week: "2025-03-03", answers: 5 },
        { tag: "buying", week: "2025-03-10", answers: 1 },
        { tag: "smb", week: "2025-03-03", answers: 2 },
        { tag: "smb", week: "2025-03-10", answers: 1 },
      ]);
    });
    // Per prompt: a second provider's 4 answers to Q1 on 3 March add to its day and week without
    // the provider, and have their own week with it.
    const arrangeTwoProviders = async (sql: Sql) => {
      await arrange(sql, ["rollup_tag_candidates"]);
      await sql(`INSERT INTO provider_configs ("workspaceId", name, "connectionId", model, "updatedAt") SELECT "workspaceId", 'P2', "connectionId", 'm', now() FROM provider_configs`);
      await sql(
        `INSERT INTO rollup_candidates ("workspaceId", "brandId", day, "providerConfigId", "promptId", key, name, answers)
         SELECT p."workspaceId", b.id, '2025-03-03', p.id, q.id, 'attio', 'Attio', 4 FROM provider_configs p, brands b, prompts q WHERE p.name = 'P2' AND q.text = 'Q1'`,
      );
      return {};
    };
    await acrossMigration("20261212130000_candidate_prompt_rollups", arrangeTwoProviders, async (sql) => {
      const prompted = (table: string, period: string, provider = "") =>
        rows(
          sql,
          `SELECT q.text AS prompt, ${provider ? "p.name AS provider, " : ""}to_char(r.${period}, 'YYYY-MM-DD') AS ${period}, r.key, r.name, r.answers FROM ${table} r
           JOIN prompts q ON q.id = r."promptId" ${provider ? `JOIN provider_configs p ON p.id = r."providerConfigId"` : ""}
           ORDER BY q.text, ${provider ? "p.name, " : ""}r.${period}`,
        );
      expect(await prompted("rollup_candidate_prompt_days", "day")).toEqual([
        { prompt: "Q1", day: "2025-03-03", key: "attio", name: "Attio", answers: 6 },
        { prompt: "Q1", day: "2025-03-10", key: "attio", name: "Attio", answers: 1 },
        { prompt: "Q2", day: "2025-03-09", key: "attio", name: "Attio", answers: 3 },
      ]);
      expect(await prompted("rollup_candidate_prompt_weeks", "week")).toEqual([
        { prompt: "Q1", week: "2025-03-03", key: "attio", name: "Attio", answers: 6 },
        { prompt: "Q1", week: "2025-03-10", key: "attio", name: "Attio", answers: 1 },
        { prompt: "Q2", week: "2025-03-03", key: "attio", name: "Attio", answers: 3 },
      ]);
      expect(await prompted("rollup_candidate_prompt_provider_weeks", "week", "provider")).toEqual([
        { prompt: "Q1", provider: "P", week: "2025-03-03", key: "attio", name: "Attio", answers: 2 },
        { prompt: "Q1", provider: "P", week: "2025-03-10", key: "attio", name: "Attio", answers: 1 },
        { prompt: "Q1", provider: "P2", week: "2025-03-03", key: "attio", name: "Attio", answers: 4 },
        { prompt: "Q2", provider: "P", week: "2025-03-03", key: "attio", name: "Attio", answers: 3 },
      ]);
    });
  });
});
