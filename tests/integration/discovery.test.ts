// Competitor discovery (issue 12): the untracked names the brand's answers present as options,
// counted once per answer over the analytics' scope (succeeded, finished in [from, to), providers,
// tags), against a small history written by hand whose counts are worked out below; a larger
// history; the same as reading every answer text again (tests/support/raw-discovery.ts, the way
// it was before issue 20 stored each answer's candidates) for random histories and filters, also
// after a re-analysis and after retention; and "track it", which adds a name as a competitor
// through the brand's own update path, refuses a name already tracked, and is refused to viewers
// and across workspaces.
//
// Histories are written as rows, then analysed as the worker would have: their rollups recorded
// (beacon_rollup_captures) and their analysis, candidates included, stored by a re-analysis (they
// have no analysis version), the path that also brings stored history up to date.
import { randomUUID } from "node:crypto";
import fc from "fast-check";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { join, ok, refused, expectFieldError, signUp, type Person } from "../support/workspace-fixtures";
import { trackCompetitorAction, updateBrandAction } from "@/lib/actions/brands";
import { discoverUntrackedBrands } from "@/lib/alerts/discovery";
import { wilson } from "@/lib/analytics/stats";
import { updateBrand } from "@/lib/brands/brands";
import { runReanalysis, startReanalysis } from "@/lib/brands/reanalysis";
import { brandInputSchema } from "@/lib/brands/schemas";
import { db } from "@/lib/db/prisma";
import { transaction } from "@/lib/db/transaction";
import { seededRandom } from "@/lib/providers/simulator-random";
import { simulateAnswer } from "@/lib/providers/simulator";
import { runRetention } from "@/lib/jobs/retention";
import { rawDiscovery } from "../support/raw-discovery";

vi.mock("next/headers", () => import("../support/request-context").then((m) => m.nextHeadersMock));

// ---------------------------------------------------------------------------------------------
// The fixture: brand Acme (alias "Acme Cloud"), competitor Rival (alias «Ривал»). Range under
// test: [2025-03-01, 2025-03-03).
const HISTORY = [
  // Attio, Folk CRM (Rival is tracked).
  { key: "A1", at: "2025-03-01T10:00:00Z", provider: "P1", prompt: "Q1", answer: "Options:\n\n1. **Attio**: flexible.\n2. **Rival**: fine.\n3. **Folk CRM** — light." },
  // ATTIO (named twice, counted once), Close.
  { key: "A2", at: "2025-03-01T11:00:00Z", provider: "P2", prompt: "Q1", answer: "- **ATTIO**: again.\n- **Attio**: twice in one answer.\n- [Close](https://close.com): calls." },
  // Attio from a table; Acme Cloud is the brand's alias.
  { key: "A3", at: "2025-03-02T10:00:00Z", provider: "P1", prompt: "Q2", answer: "| Tool | Notes |\n| --- | --- |\n| **Attio** | x |\n| **Acme Cloud** | y |" },
  // Prose only: read, names nothing.
  { key: "A4", at: "2025-03-02T11:00:00Z", provider: "P2", prompt: "Q2", answer: "Attio and Folk CRM are both mentioned in prose only." },
  // Folk CRM; «Ривала» is the tracked Rival declined; "Pros" is a label.
  { key: "A5", at: "2025-03-02T12:00:00Z", provider: "P1", prompt: "Q1", answer: "- **Ривала**: склонение.\n- **Pros:** x\n- **Folk CRM**: again." },
  // Failed, and finished at the range's end: neither is read.
  { key: "F1", at: "2025-03-02T13:00:00Z", provider: "P1", prompt: "Q1", status: "failed", answer: "- **Attio**: failed." },
  { key: "L1", at: "2025-03-03T00:00:00Z", provider: "P1", prompt: "Q1", answer: "- **Attio**: late." },
] as const;

const RANGE = { from: new Date("2025-03-01T00:00:00Z"), to: new Date("2025-03-03T00:00:00Z") };

/** What the worker would have stored for these answers: their rollups, then their analysis (a re-analysis of what has none). */
async function analyse(workspaceId: string, brandId: string, captureIds: string[]) {
  await db().$executeRaw`SELECT beacon_rollup_captures(${captureIds}::uuid[], 1)`;
  const run = await transaction((tx) => startReanalysis(tx, workspaceId, brandId));
  if (run) await runReanalysis(run);
}

type World = { owner: Person; workspaceId: string; brandId: string; P1: string; P2: string; captures: Record<string, string> };

async function buildWorld(workspaceName: string): Promise<World> {
  const owner = await signUp({ name: `${workspaceName} Owner`, workspaceName });
  const workspaceId = owner.workspaceId;
  const brand = await db().brand.create({
    data: { workspaceId, name: "Acme", aliases: ["Acme Cloud"], competitors: { create: [{ workspaceId, name: "Rival", aliases: ["Ривал"] }] } },
  });
  const simulator = await db().providerConnection.findFirstOrThrow({ where: { adapter: "simulator" } });
  const provider = (name: string) => db().providerConfig.create({ data: { workspaceId, name, connectionId: simulator.id, model: `${name}-model` } });
  const [p1, p2] = [await provider("Alpha"), await provider("Beta")];
  const prompts = {
    Q1: (await db().prompt.create({ data: { workspaceId, text: "Best anvil?", tags: ["buying"] } })).id,
    Q2: (await db().prompt.create({ data: { workspaceId, text: "Cheapest anvil?", tags: ["pricing"] } })).id,
  };
  const check = await db().check.create({ data: { workspaceId, brandId: brand.id, totalCaptures: HISTORY.length, status: "completed" } });
  const captures: Record<string, string> = {};
  for (const [i, spec] of HISTORY.entries()) {
    const capture = await db().capture.create({
      data: {
        workspaceId, checkId: check.id, brandId: brand.id, promptId: prompts[spec.prompt], providerConfigId: spec.provider === "P1" ? p1.id : p2.id,
        connectionId: simulator.id, sample: i + 1, status: "status" in spec ? spec.status : "succeeded", maxAttempts: 3, attemptCount: 1, model: "m",
        searchMode: "off", answerText: spec.answer, finishedAt: new Date(spec.at),
      },
    });
    captures[spec.key] = capture.id;
  }
  await analyse(workspaceId, brand.id, Object.values(captures));
  return { owner, workspaceId, brandId: brand.id, P1: p1.id, P2: p2.id, captures };
}

let A: World;
let B: World; // the same history in another workspace, plus answers that name Copper

beforeAll(async () => {
  A = await buildWorld("Discovery A");
  B = await buildWorld("Discovery B");
  const check = await db().check.findFirstOrThrow({ where: { workspaceId: B.workspaceId } });
  const prompt = await db().prompt.findFirstOrThrow({ where: { workspaceId: B.workspaceId } });
  const connection = await db().providerConnection.findFirstOrThrow({ where: { adapter: "simulator" } });
  const copper = await db().capture.createManyAndReturn({
    data: Array.from({ length: 5 }, (_, i) => ({
      workspaceId: B.workspaceId, checkId: check.id, brandId: B.brandId, promptId: prompt.id, providerConfigId: B.P1, connectionId: connection.id,
      sample: 100 + i, status: "succeeded" as const, maxAttempts: 3, model: "m", searchMode: "off" as const, answerText: "- **Copper**: lives in Gmail.", finishedAt: new Date("2025-03-02T09:00:00Z"),
    })),
    select: { id: true },
  });
  await analyse(B.workspaceId, B.brandId, copper.map((c) => c.id));
}, 120_000);

describe("discoverUntrackedBrands", () => {
  it("counts each untracked name once per answer over the succeeded answers of the range, by hand", async () => {
    const result = await discoverUntrackedBrands({ workspaceId: A.workspaceId, brandId: A.brandId, ...RANGE });
    // A1..A5 are read; F1 failed, L1 finished at `to`.
    expect(result.n).toBe(5);
    expect(result.candidates).toEqual([
      // A1, A2, A3: spelled "Attio" twice and "ATTIO" once. Latest example first.
      { name: "Attio", key: "attio", answers: 3, share: wilson(3, 5), exampleCaptureIds: [A.captures.A3, A.captures.A2, A.captures.A1] },
      { name: "Folk CRM", key: "folk crm", answers: 2, share: wilson(2, 5), exampleCaptureIds: [A.captures.A5, A.captures.A1] },
      { name: "Close", key: "close", answers: 1, share: wilson(1, 5), exampleCaptureIds: [A.captures.A2] },
    ]);
    expect(result.candidates[0]!.share.value).toBeCloseTo(0.6);
  });

  it("applies the provider and tag filters, and never counts another workspace's answers", async () => {
    const p2 = await discoverUntrackedBrands({ workspaceId: A.workspaceId, brandId: A.brandId, ...RANGE, providerConfigIds: [A.P2] });
    expect(p2.n).toBe(2); // A2, A4
    expect(p2.candidates.map((c) => [c.name, c.answers])).toEqual([["ATTIO", 1], ["Close", 1]]);
    const pricing = await discoverUntrackedBrands({ workspaceId: A.workspaceId, brandId: A.brandId, ...RANGE, tags: ["pricing"] });
    expect(pricing.n).toBe(2); // A3, A4
    expect(pricing.candidates.map((c) => [c.name, c.answers])).toEqual([["Attio", 1]]);
    // B's history holds five more answers naming Copper: A sees none of them, B sees them all.
    const b = await discoverUntrackedBrands({ workspaceId: B.workspaceId, brandId: B.brandId, ...RANGE });
    expect(b.n).toBe(10);
    expect(b.candidates[0]).toMatchObject({ name: "Copper", answers: 5 });
    // A's workspace with B's brand (or provider) finds nothing of B's.
    await expect(discoverUntrackedBrands({ workspaceId: A.workspaceId, brandId: B.brandId, ...RANGE })).rejects.toMatchObject({ code: "not_found" });
    expect((await discoverUntrackedBrands({ workspaceId: A.workspaceId, brandId: A.brandId, ...RANGE, providerConfigIds: [B.P1] })).n).toBe(0);
  });

  it("counts a larger history with equal finish times, each answer exactly once", async () => {
    const owner = await signUp({ name: "Bulk Owner", workspaceName: "Discovery bulk" });
    const workspaceId = owner.workspaceId;
    const brand = await db().brand.create({ data: { workspaceId, name: "Lumen CRM", aliases: ["Lumen"], competitors: { create: [{ workspaceId, name: "HubSpot" }, { workspaceId, name: "Pipedrive" }] } } });
    const provider = await db().providerConfig.findFirstOrThrow({ where: { workspaceId } });
    const prompt = await db().prompt.create({ data: { workspaceId, text: "Best CRM?" } });
    const check = await db().check.create({ data: { workspaceId, brandId: brand.id, totalCaptures: 0, status: "completed" } });
    const total = Number(process.env.DISCOVERY_BENCH ?? 1_234);
    // Simulated answers (a third of them naming untracked CRMs), a hundred to each millisecond.
    const random = seededRandom("discovery-bulk");
    const untracked = seededRandom("discovery-bulk:untracked");
    const subject = { brand: { name: brand.name, aliases: brand.aliases, domains: [] }, competitors: [{ name: "HubSpot", domains: [] }, { name: "Pipedrive", domains: [] }] };
    const texts = Array.from({ length: total }, () =>
      simulateAnswer({ prompt: prompt.text, searchMode: "off", limits: { maxOutputTokens: 2048, maxSearchCalls: 0 }, subject, style: "chatgpt", random, untracked }).text,
    );
    const ids: string[] = [];
    for (let start = 0; start < total; start += 5_000) {
      const created = await db().capture.createManyAndReturn({
        data: texts.slice(start, start + 5_000).map((answerText, j) => ({
          workspaceId, checkId: check.id, brandId: brand.id, promptId: prompt.id, providerConfigId: provider.id, connectionId: provider.connectionId,
          sample: start + j + 1, status: "succeeded" as const, maxAttempts: 3, model: "m", searchMode: "off" as const, answerText,
          finishedAt: new Date(Date.UTC(2025, 2, 1) + Math.floor((start + j) / 100)),
        })),
        select: { id: true },
      });
      ids.push(...created.map((c) => c.id));
    }
    await analyse(workspaceId, brand.id, ids);
    const expected = new Map<string, number>();
    for (const text of texts) for (const name of new Set(text.match(/\*\*(Attio|Folk|Close|Zoho CRM|Freshsales|Copper)\*\*/g))) expected.set(name.slice(2, -2), (expected.get(name.slice(2, -2)) ?? 0) + 1);
    expect(expected.size).toBeGreaterThan(3);

    const started = performance.now();
    const result = await discoverUntrackedBrands({ workspaceId, brandId: brand.id, from: new Date("2025-03-01T00:00:00Z"), to: new Date("2025-03-02T00:00:00Z") });
    const ms = performance.now() - started;
    if (process.env.DISCOVERY_BENCH) console.log(`[discovery] ${total} answers in ${Math.round(ms)} ms (${Math.round(texts.reduce((s, t) => s + t.length, 0) / total)} chars each)`);
    expect(result.n).toBe(total);
    expect(new Map(result.candidates.map((c) => [c.name, c.answers]))).toEqual(expected);
    const answers = result.candidates.map((c) => c.answers);
    expect(answers).toEqual([...answers].sort((a, b) => b - a));
  }, 600_000);
});

// ---------------------------------------------------------------------------------------------
// Random histories: answers listing names from a small pool (tracked ones, their inflected and
// other spellings, labels, names only in prose), over two weeks (most in the first five days, so
// that finish times meet), two providers and two prompts. 1 March 2025 is a Saturday: a range
// holds the whole week from 3 March (read from the weekly rollups) or none.
const POOL = ["Attio", "ATTIO", "Folk CRM", "FOLK  CRM", "Close", "Copper", "Zoho CRM", "Newco", "Rival", "Ривала", "Acme Cloud", "Pros", "Åttio"];
const DAY = 86_400_000;
const START = Date.UTC(2025, 2, 1);
type AnswerSpec = { day: number; minute: number; provider: number; prompt: number; failed: boolean; names: number[]; style: "bold" | "link" | "table" | "prose" };
const answerSpec: fc.Arbitrary<AnswerSpec> = fc.record({
  day: fc.oneof(fc.integer({ min: 0, max: 4 }), fc.integer({ min: 0, max: 13 })),
  // Few distinct minutes: equal finish times, ordered by id.
  minute: fc.integer({ min: 0, max: 3 }),
  provider: fc.integer({ min: 0, max: 1 }),
  prompt: fc.integer({ min: 0, max: 1 }),
  failed: fc.integer({ min: 0, max: 9 }).map((n) => n === 0),
  names: fc.array(fc.integer({ min: 0, max: POOL.length - 1 }), { maxLength: 5 }),
  style: fc.constantFrom("bold", "link", "table", "prose"),
});
type FilterSpec = { fromDay: number; days: number; providers: number[]; tags: string[]; limit: number | undefined };
const filterSpec: fc.Arbitrary<FilterSpec> = fc.record({
  fromDay: fc.integer({ min: -1, max: 4 }),
  days: fc.oneof(fc.integer({ min: 1, max: 6 }), fc.integer({ min: 7, max: 14 })),
  providers: fc.subarray([0, 1]),
  tags: fc.subarray(["buying", "pricing"]),
  limit: fc.option(fc.integer({ min: 1, max: 5 }), { nil: undefined }),
});

function text(spec: AnswerSpec): string {
  const names = spec.names.map((i) => POOL[i]!);
  if (spec.style === "prose") return `${names.join(" and ") || "Nothing"} are worth a look.`;
  if (spec.style === "table") return `| Tool | Notes |\n| --- | --- |\n${names.map((n) => `| **${n}** | fine |`).join("\n")}`;
  return names.map((n, i) => (spec.style === "bold" ? `- **${n}**: fine.` : `${i + 1}. [${n}](https://example.com/${i}): ok`)).join("\n");
}

describe("discovery from stored candidates", () => {
  let world: { workspaceId: string; providers: string[]; prompts: string[]; connectionId: string };
  let run = 0;

  beforeAll(async () => {
    const owner = await signUp({ name: "Random Owner", workspaceName: "Discovery random" });
    const workspaceId = owner.workspaceId;
    const simulator = await db().providerConnection.findFirstOrThrow({ where: { adapter: "simulator" } });
    const providers = [];
    for (const name of ["One", "Two"]) providers.push((await db().providerConfig.create({ data: { workspaceId, name, connectionId: simulator.id, model: `${name}-model` } })).id);
    const prompts = [
      (await db().prompt.create({ data: { workspaceId, text: "Best CRM?", tags: ["buying"] } })).id,
      // Russian: «Ривала» is the tracked «Ривал» declined.
      (await db().prompt.create({ data: { workspaceId, text: "Лучшая CRM?", tags: ["pricing", "buying"], language: "ru" } })).id,
    ];
    world = { workspaceId, providers, prompts, connectionId: simulator.id };
  });

  async function history(specs: AnswerSpec[]) {
    const { workspaceId } = world;
    const brand = await db().brand.create({
      data: { workspaceId, name: `Acme ${++run}`, aliases: ["Acme Cloud"], competitors: { create: [{ workspaceId, name: "Rival", aliases: ["Ривал"] }] } },
      include: { competitors: true },
    });
    const check = await db().check.create({ data: { workspaceId, brandId: brand.id, totalCaptures: specs.length, status: "completed" } });
    const created = await db().capture.createManyAndReturn({
      data: specs.map((spec, i) => ({
        workspaceId, checkId: check.id, brandId: brand.id, promptId: world.prompts[spec.prompt]!, providerConfigId: world.providers[spec.provider]!, connectionId: world.connectionId,
        sample: i + 1, status: spec.failed ? ("failed" as const) : ("succeeded" as const), maxAttempts: 3, model: "m", searchMode: "off" as const,
        answerText: text(spec), finishedAt: new Date(START + spec.day * DAY + spec.minute * 60_000),
      })),
      select: { id: true },
    });
    await analyse(workspaceId, brand.id, created.map((c) => c.id));
    return brand;
  }

  async function expectSameAsRaw(brandId: string, filters: FilterSpec[]) {
    for (const f of filters) {
      const input = {
        workspaceId: world.workspaceId, brandId, from: new Date(START + f.fromDay * DAY), to: new Date(START + (f.fromDay + f.days) * DAY),
        providerConfigIds: f.providers.length ? f.providers.map((i) => world.providers[i]!) : undefined, tags: f.tags.length ? f.tags : undefined, limit: f.limit,
      };
      expect(await discoverUntrackedBrands(input), JSON.stringify(f)).toEqual(await rawDiscovery(input));
    }
  }

  it("equals reading every answer text again, for random histories and filters, after re-analysis, retention and re-tagging", async () => {
    const retagSpec = fc.array(fc.subarray(["buying", "pricing"]), { minLength: 2, maxLength: 2 });
    await fc.assert(
      fc.asyncProperty(fc.array(answerSpec, { minLength: 1, maxLength: 30 }), fc.array(filterSpec, { minLength: 2, maxLength: 4 }), retagSpec, async (specs, filters, retags) => {
        const brand = await history(specs);
        await expectSameAsRaw(brand.id, filters);

        // Attio is tracked and Rival no longer is: a re-analysis rewrites the stored candidates.
        const input = brandInputSchema.parse({ name: brand.name, aliases: brand.aliases, domains: [], competitors: [{ name: "Attio" }, { name: "Copper", aliases: ["Newco"] }] });
        await updateBrand(world.workspaceId, brand.id, input);
        const queued = await db().analysisRun.findFirst({ where: { brandId: brand.id, status: "queued" } });
        if (queued) await runReanalysis(queued.id);
        await expectSameAsRaw(brand.id, filters);

        // Attempt retention deletes attempts only: nothing discovery reads.
        await runRetention({ attemptRetentionDays: 0, now: new Date(Date.now() + DAY) });
        await expectSameAsRaw(brand.id, filters);

        // The prompts are re-tagged: one tag is read per tag (rollup_tag_candidates), which follows.
        for (const [i, tags] of retags.entries()) await db().prompt.update({ where: { id: world.prompts[i]! }, data: { tags } });
        await expectSameAsRaw(brand.id, filters);
      }),
      { numRuns: 15 },
    );
  }, 600_000);

  it("equals it for a tag with a provider filter and for tags that share a prompt, over ranges read as weeks less days", async () => {
    // Read per prompt (rollup_candidate_prompt_*): these ranges are covered by whole weeks from
    // which days are subtracted (rollupSpans), e.g. Tuesday 4 to Sunday 9 March as the week of 3 March less its Monday.
    const shapes = [
      { fromDay: 3, days: 6 },
      { fromDay: 3, days: 13 },
      { fromDay: 2, days: 12 },
    ];
    const scopes = [
      { providers: [0], tags: ["buying"] },
      { providers: [], tags: ["buying", "pricing"] },
      { providers: [1], tags: ["pricing", "buying"] },
    ];
    const filters = shapes.flatMap((range) => scopes.map((scope) => ({ ...range, ...scope, limit: undefined })));
    await fc.assert(
      fc.asyncProperty(fc.array(answerSpec, { minLength: 5, maxLength: 30 }), async (specs) => {
        const brand = await history(specs);
        await expectSameAsRaw(brand.id, filters);
      }),
      { numRuns: 6 },
    );
  }, 600_000);

  it("keeps counting answers whose captures are gone: counts, shares and names from the rollup, examples from the captures kept", async () => {
    const C = await buildWorld("Discovery C");
    const before = await discoverUntrackedBrands({ workspaceId: C.workspaceId, brandId: C.brandId, ...RANGE });
    // The answers of 1 March (A1, A2) go, as a retention of raw rows by age would take them.
    await db().$executeRaw`DELETE FROM captures WHERE "brandId" = ${C.brandId}::uuid AND "finishedAt" < '2025-03-02'`;
    const after = await discoverUntrackedBrands({ workspaceId: C.workspaceId, brandId: C.brandId, ...RANGE });
    expect(after.n).toBe(5);
    expect(after.candidates).toEqual([
      { ...before.candidates[0]!, exampleCaptureIds: [C.captures.A3] },
      { ...before.candidates[1]!, exampleCaptureIds: [C.captures.A5] },
      { ...before.candidates[2]!, exampleCaptureIds: [] },
    ]);
    expect(after.candidates.map((c) => [c.name, c.answers])).toEqual([["Attio", 3], ["Folk CRM", 2], ["Close", 1]]);
  });
});

describe("trackCompetitorAction", () => {
  it("adds the name as a competitor, starts the re-analysis, and then discovery no longer lists it", async () => {
    const before = await db().competitor.count({ where: { brandId: A.brandId } });
    const brand = ok(await A.owner.browser.run(() => trackCompetitorAction({ brandId: A.brandId, name: " Attio " })));
    expect(brand.competitors.map((c) => c.name)).toEqual(["Rival", "Attio"]);
    expect(await db().competitor.count({ where: { brandId: A.brandId } })).toBe(before + 1);
    // History is analysed again, so the new competitor's mentions appear in the dashboards.
    const run = await db().analysisRun.findFirstOrThrow({ where: { brandId: A.brandId }, orderBy: { createdAt: "desc" } });
    expect(run).toMatchObject({ status: "queued", total: 6, workspaceId: A.workspaceId });
    const result = await discoverUntrackedBrands({ workspaceId: A.workspaceId, brandId: A.brandId, ...RANGE });
    expect(result.candidates.map((c) => c.name)).toEqual(["Folk CRM", "Close"]);
  });

  it("refuses a name already tracked, in any spelling, changing nothing; a double click adds one", async () => {
    const snapshot = async () => db().competitor.findMany({ where: { workspaceId: A.workspaceId }, orderBy: { id: "asc" } });
    const before = await snapshot();
    for (const name of ["Attio", "ATTIO", "Acme Cloud", "Ривала", "Rival"]) {
      const error = refused(await A.owner.browser.run(() => trackCompetitorAction({ brandId: A.brandId, name })), "conflict");
      expect(error.message).toMatch(/already tracked/);
    }
    expect(await snapshot()).toEqual(before);

    const clicks = await Promise.all([0, 1].map(() => A.owner.browser.run(() => trackCompetitorAction({ brandId: A.brandId, name: "Folk CRM" }))));
    expect(clicks.filter((r) => r?.data).length).toBe(1);
    expect(clicks.filter((r) => r?.serverError?.code === "conflict").length).toBe(1);
    expect(await db().competitor.count({ where: { brandId: A.brandId, name: "Folk CRM" } })).toBe(1);
  });

  it("is refused to viewers, across workspaces and for bad input, changing nothing", async () => {
    const countA = await db().competitor.count({ where: { workspaceId: A.workspaceId } });
    const countB = await db().competitor.count({ where: { workspaceId: B.workspaceId } });
    const viewer = await join(A.owner, "viewer");
    refused(await viewer.browser.run(() => trackCompetitorAction({ brandId: A.brandId, name: "Close" })), "forbidden");
    // A's owner cannot add to B's brand: it does not exist in A's workspace.
    refused(await A.owner.browser.run(() => trackCompetitorAction({ brandId: B.brandId, name: "Close" })), "not_found");
    expectFieldError(await A.owner.browser.run(() => trackCompetitorAction({ brandId: A.brandId, name: "   " })), "name", /Enter a name/);
    expectFieldError(await A.owner.browser.run(() => trackCompetitorAction({ brandId: A.brandId, name: "x".repeat(101) })), "name", /at most 100/);
    expect(await db().competitor.count({ where: { workspaceId: A.workspaceId } })).toBe(countA);
    expect(await db().competitor.count({ where: { workspaceId: B.workspaceId } })).toBe(countB);
    // A member may: the same right as editing brands.
    const member = await join(A.owner, "member");
    ok(await member.browser.run(() => trackCompetitorAction({ brandId: A.brandId, name: "Close" })));
  });

  it("a brand form opened before a 'track it' cannot save over it: the competitor it added is not removed", async () => {
    const owner = await signUp({ name: "Stale Owner", workspaceName: "Discovery stale form" });
    const brand = await db().brand.create({ data: { workspaceId: owner.workspaceId, name: "Stale", competitors: { create: [{ workspaceId: owner.workspaceId, name: "Rival" }] } }, include: { competitors: true } });
    // The Brands page's Edit dialog opens: it holds the brand as it was, and the version it read.
    const opened = { version: brand.analysisVersion, competitors: brand.competitors.map((c) => ({ id: c.id, name: c.name })) };
    // Meanwhile a member tracks a name from discovery.
    ok(await owner.browser.run(() => trackCompetitorAction({ brandId: brand.id, name: "Attio" })));
    // The dialog saves an alias: refused, nothing changed, Attio kept.
    const stale = refused(
      await owner.browser.run(() => updateBrandAction({ brandId: brand.id, version: opened.version, brand: { name: "Stale", aliases: ["Stale Inc"], competitors: opened.competitors } })),
      "conflict",
    );
    expect(stale.message).toMatch(/changed since .* opened/);
    const after = await db().brand.findUniqueOrThrow({ where: { id: brand.id }, include: { competitors: { orderBy: { createdAt: "asc" } } } });
    expect([after.aliases, after.competitors.map((c) => c.name)]).toEqual([[], ["Rival", "Attio"]]);
    // Opened again (the version now), it saves.
    const saved = ok(
      await owner.browser.run(() =>
        updateBrandAction({ brandId: brand.id, version: after.analysisVersion, brand: { name: "Stale", aliases: ["Stale Inc"], competitors: after.competitors.map((c) => ({ id: c.id, name: c.name })) } }),
      ),
    );
    expect([saved.aliases, saved.competitors.map((c) => c.name)]).toEqual([["Stale Inc"], ["Rival", "Attio"]]);
  });

  it("keeps the brand's limit of 25 competitors", async () => {
    const owner = await signUp({ name: "Full Owner", workspaceName: "Discovery full" });
    const brand = await db().brand.create({
      data: { workspaceId: owner.workspaceId, name: "Full", competitors: { create: Array.from({ length: 25 }, (_, i) => ({ workspaceId: owner.workspaceId, name: `Rival ${i}-${randomUUID().slice(0, 4)}` })) } },
    });
    const error = refused(await owner.browser.run(() => trackCompetitorAction({ brandId: brand.id, name: "Attio" })), "bad_request");
    expect(error.message).toMatch(/at most 25 competitors/);
    expect(await db().competitor.count({ where: { brandId: brand.id } })).toBe(25);
  });
});
