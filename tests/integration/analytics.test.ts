// Analytics: every number the dashboards and the export show, against a small history written by
// hand with Prisma, whose expected values are worked out by hand below. The charts are read as
// the browser reads them, over GET /api/analytics/<chart> as JSON, and the routes run for real
// (session, workspace, validation); only next/headers is simulated.
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { newBrowser, type Browser } from "../support/request-context";
import { join, signUp, snapshotWorkspace, type Person } from "../support/workspace-fixtures";
import { GET as chartRoute } from "@/app/api/analytics/[chart]/route";
import { GET as batchRoute } from "@/app/api/analytics/batch/route";
import { batchPath, BATCH_MAX_CHARTS, readBatchLines, type BatchLine } from "@/lib/analytics/batch";
import { chartPath } from "@/lib/analytics/filter-query";
import { GET as exportCaptures } from "@/app/api/exports/captures/route";
import { CHARTS, type Chart, type ChartName } from "@/lib/analytics/charts";
import { resolveFilter } from "@/lib/analytics/filter";
import { recordRollups } from "@/lib/analytics/rollups";
import { analyticsFilterInput, filterSearchParams, type AnalyticsFilterInput } from "@/lib/analytics/schemas";
import type { ChartData } from "@/lib/analytics/wire";
import { testRatios } from "@/lib/analytics/significance";
import { db } from "@/lib/db/prisma";

vi.mock("next/headers", () => import("../support/request-context").then((m) => m.nextHeadersMock));

// ---------------------------------------------------------------------------------------------
// The fixture. Range under test: 2025-03-01 .. 2025-03-10 (inclusive); the previous period of
// equal length is 2025-02-19 .. 2025-02-28. Entities: the brand Acme, competitors Rival, Other.

type M = [count: number, position: number, sentiment?: "positive" | "neutral" | "negative"] | null; // null: not mentioned
type Cite = { url: string; own?: boolean; retrievedOnly?: boolean; title?: string };
type Att = { at: string; outcome: "succeeded" | "failed" | "unknown" | "cancelled"; cost: number };
type Spec = {
  key: string;
  at: string;
  provider: "P1" | "P2";
  prompt: "Q1" | "Q2" | "Q3";
  status?: "succeeded" | "failed";
  acme?: M;
  rival?: M;
  other?: M;
  cites?: Cite[];
  attempts: Att[];
};

const domainOf = (url: string) => new URL(url).hostname;
const s = (at: string, cost: number): Att => ({ at, outcome: "succeeded", cost });
const pages = (...names: string[]) => names.map((n) => ({ url: `https://${n}/` }));

const HISTORY: Spec[] = [
  // Range: C1..C10 succeeded, C11 failed.
  { key: "C1", at: "2025-03-01T10:00:00Z", provider: "P1", prompt: "Q1", acme: [2, 1, "positive"], rival: [1, 2], other: null,
    cites: [{ url: "https://a.com/x", title: "A X" }, { url: "https://acme.com/", own: true }],
    attempts: [{ at: "2025-02-28T23:59:00Z", outcome: "failed", cost: 100 }, s("2025-03-01T00:01:00Z", 1000)] },
  { key: "C2", at: "2025-03-01T11:00:00Z", provider: "P2", prompt: "Q1", acme: null, rival: [1, 1], other: null,
    cites: [{ url: "https://a.com/x" }, { url: "https://b.com/1" }], attempts: [s("2025-03-01T11:00:00Z", 2000)] },
  { key: "C3", at: "2025-03-02T10:00:00Z", provider: "P1", prompt: "Q2", acme: [1, 2, "neutral"], rival: [2, 1], other: [1, 3],
    cites: [{ url: "https://b.com/1" }, { url: "https://b.com/1" }, { url: "https://b.com/2" }],
    attempts: [{ at: "2025-03-02T09:00:00Z", outcome: "unknown", cost: 500 }, s("2025-03-02T09:30:00Z", 1000)] },
  { key: "C4", at: "2025-03-02T12:00:00Z", provider: "P2", prompt: "Q2", acme: [3, 1, "positive"], rival: null, other: [1, 2],
    cites: [{ url: "https://acme.com/pricing", own: true }], attempts: [s("2025-03-02T12:00:00Z", 2000)] },
  { key: "C5", at: "2025-03-03T10:00:00Z", provider: "P1", prompt: "Q3", acme: null, rival: null, other: [2, 1],
    cites: pages("c.com", "d.com", "e.com", "f.com", "g.com", "h.com"), attempts: [s("2025-03-03T10:00:00Z", 1000)] },
  { key: "C6", at: "2025-03-03T12:00:00Z", provider: "P2", prompt: "Q3", acme: [1, 3, "negative"], rival: [1, 1], other: [1, 2],
    cites: [{ url: "https://a.com/y" }, { url: "https://z.com/", retrievedOnly: true }], attempts: [s("2025-03-03T12:00:00Z", 2000)] },
  { key: "C7", at: "2025-03-05T10:00:00Z", provider: "P1", prompt: "Q1", acme: [1, 1, "positive"], rival: null, other: null,
    attempts: [s("2025-03-05T10:00:00Z", 1000)] },
  { key: "C8", at: "2025-03-05T12:00:00Z", provider: "P2", prompt: "Q1", acme: [2, 2, "neutral"], rival: [1, 1], other: null,
    cites: [{ url: "https://a.com/x" }],
    attempts: [{ at: "2025-03-05T11:00:00Z", outcome: "cancelled", cost: 300 }, s("2025-03-05T11:30:00Z", 2000)] },
  { key: "C9", at: "2025-03-10T10:00:00Z", provider: "P1", prompt: "Q2", acme: null, rival: [1, 1], other: [1, 2],
    cites: [{ url: "https://b.com/1" }], attempts: [s("2025-03-10T10:00:00Z", 1000)] },
  { key: "C10", at: "2025-03-10T23:59:59Z", provider: "P2", prompt: "Q3", acme: [1, 2, "positive"], rival: null, other: [1, 1],
    cites: [{ url: "https://acme.com/", own: true }, { url: "https://a.com/x", title: "A X (new)" }], attempts: [s("2025-03-10T23:00:00Z", 2000)] },
  { key: "C11", at: "2025-03-04T10:00:00Z", provider: "P1", prompt: "Q1", status: "failed",
    attempts: [{ at: "2025-03-04T09:00:00Z", outcome: "failed", cost: 200 }, { at: "2025-03-04T09:10:00Z", outcome: "unknown", cost: 400 }, { at: "2025-03-04T09:20:00Z", outcome: "failed", cost: 0 }] },
  // Just outside the range (the end is exclusive).
  { key: "C12", at: "2025-03-11T00:00:00Z", provider: "P1", prompt: "Q1", acme: [1, 1, "positive"], rival: null, other: null, attempts: [s("2025-03-11T00:00:00Z", 1000)] },
  // The previous period.
  { key: "C13", at: "2025-02-25T10:00:00Z", provider: "P1", prompt: "Q1", acme: [1, 1, "positive"], rival: null, other: null, attempts: [s("2025-02-25T10:00:00Z", 1000)] },
  { key: "C14", at: "2025-02-26T10:00:00Z", provider: "P2", prompt: "Q2", acme: null, rival: [1, 1], other: null, attempts: [s("2025-02-26T10:00:00Z", 2000)] },
];

type World = {
  person: Person;
  workspaceId: string;
  brandId: string;
  rivalId: string;
  otherId: string;
  P1: string;
  P2: string;
  prompts: Record<"Q1" | "Q2" | "Q3", string>;
};

const PROMPTS = { Q1: { text: "Best anvil for a coyote?", tags: ["buying"] }, Q2: { text: "Cheapest anvil?", tags: ["pricing"] }, Q3: { text: "Anvils for small teams?", tags: ["buying", "smb"] } };

/** A workspace with brand Acme (competitors Rival and Other), providers Alpha and Beta, and HISTORY. */
async function buildWorld(workspaceName: string, brandName = "Acme"): Promise<World> {
  const person = await signUp({ name: `${workspaceName} Owner`, workspaceName });
  const workspaceId = person.workspaceId;
  const brand = await db().brand.create({
    data: { workspaceId, name: brandName, domains: ["acme.com"], competitors: { create: [{ workspaceId, name: "Rival" }, { workspaceId, name: "Other" }] } },
    include: { competitors: true },
  });
  const rivalId = brand.competitors.find((c) => c.name === "Rival")!.id;
  const otherId = brand.competitors.find((c) => c.name === "Other")!.id;
  const simulator = await db().providerConnection.findFirstOrThrow({ where: { adapter: "simulator" } });
  const provider = (name: string) => db().providerConfig.create({ data: { workspaceId, name, connectionId: simulator.id, model: `${name}-model` } });
  const [p1, p2] = [await provider("Alpha"), await provider("Beta")];
  const prompt = (key: keyof typeof PROMPTS) => db().prompt.create({ data: { workspaceId, ...PROMPTS[key] } });
  const prompts = { Q1: (await prompt("Q1")).id, Q2: (await prompt("Q2")).id, Q3: (await prompt("Q3")).id };
  const check = await db().check.create({ data: { workspaceId, brandId: brand.id, totalCaptures: HISTORY.length, status: "completed", isDemo: true } });
  const world: World = { person, workspaceId, brandId: brand.id, rivalId, otherId, P1: p1.id, P2: p2.id, prompts };

  for (const [i, spec] of HISTORY.entries()) {
    const status = spec.status ?? "succeeded";
    const capture = await db().capture.create({
      data: {
        workspaceId,
        checkId: check.id,
        brandId: brand.id,
        promptId: prompts[spec.prompt],
        providerConfigId: spec.provider === "P1" ? p1.id : p2.id,
        connectionId: simulator.id,
        sample: i + 1,
        status,
        maxAttempts: 3,
        attemptCount: spec.attempts.length,
        model: `${spec.provider}-model`,
        searchMode: "auto",
        answerText: status === "succeeded" ? `Answer ${spec.key}, "quoted", with a comma` : null,
        costMicros: status === "succeeded" ? spec.attempts.at(-1)!.cost : 0,
        finishedAt: new Date(spec.at),
        analyzedAt: status === "succeeded" ? new Date(spec.at) : null,
      },
    });
    if (status === "succeeded") {
      const mention = (m: M | undefined, entity: { kind: "brand" | "competitor"; brandId?: string; competitorId?: string; name: string }) => ({
        workspaceId,
        captureId: capture.id,
        kind: entity.kind,
        brandId: entity.brandId ?? null,
        competitorId: entity.competitorId ?? null,
        name: entity.name,
        mentioned: !!m,
        count: m?.[0] ?? 0,
        position: m?.[1] ?? null,
        sentiment: m ? (m[2] ?? "neutral") : null,
      });
      await db().mention.createMany({
        data: [
          mention(spec.acme, { kind: "brand", brandId: brand.id, name: brandName }),
          mention(spec.rival, { kind: "competitor", competitorId: rivalId, name: "Rival" }),
          mention(spec.other, { kind: "competitor", competitorId: otherId, name: "Other" }),
        ],
      });
      await db().citation.createMany({
        data: (spec.cites ?? []).map((c, position) => ({
          workspaceId,
          captureId: capture.id,
          url: c.url,
          title: c.title ?? null,
          domain: domainOf(c.url),
          isOwnDomain: !!c.own,
          citedInText: !c.retrievedOnly,
          position: position + 1,
        })),
      });
    }
    await db().attempt.createMany({
      data: spec.attempts.map((a, n) => ({
        workspaceId,
        captureId: capture.id,
        number: n + 1,
        runToken: randomUUID(),
        workerId: "fixture",
        startedAt: new Date(a.at),
        endedAt: new Date(a.at),
        outcome: a.outcome,
        costMicros: a.cost,
        costIsEstimate: a.outcome === "unknown" || a.outcome === "cancelled",
      })),
    });
  }
  // The dashboards' rollups, as every writer of analysed answers keeps them.
  await recordRollups(db(), (await db().capture.findMany({ where: { checkId: check.id }, select: { id: true } })).map((c) => c.id));
  return world;
}

let A: World; // the workspace under test
let B: World; // another workspace with the same history: must never show up in A's numbers
let otherBrandId: string;

const RANGE = { from: "2025-03-01", to: "2025-03-10" };

type Input = AnalyticsFilterInput;
const CHART_NAMES = Object.keys(CHARTS) as ChartName[];
type Problem = { error: { code: string; message: string; field?: string } };

/** GET /api/analytics/<chart>?<query> from `browser`, through the route handler itself. */
const get = (browser: Browser, chart: string, query: string) =>
  browser.run(() => chartRoute(new Request(`http://localhost:3000/api/analytics/${chart}?${query}`), { params: Promise.resolve({ chart }) }));

/** A chart as the dashboards' hooks fetch it: the filter in the query string, the answer as JSON. */
async function chart<C extends ChartName>(world: World, name: C, input: Input, extra = ""): Promise<ChartData<C>> {
  const response = await get(world.person.browser, name, `${filterSearchParams(input)}${extra}`);
  const body = await response.text();
  expect(response.status, body).toBe(200);
  expect(response.headers.get("cache-control")).toBe("no-store");
  return JSON.parse(body) as ChartData<C>;
}

/** A refusal: its status and the problem the browser shows. */
async function refusal(response: Response, status: number): Promise<Problem["error"]> {
  expect(response.status).toBe(status);
  const body = (await response.json()) as Problem;
  // Nothing but the problem: no numbers, no names.
  expect(Object.keys(body)).toEqual(["error"]);
  return body.error;
}

/** The Overview as the page loads it: one request per chart, all at once. */
async function overview(world: World, input: Input) {
  const [kpis, visibility, shareOfVoice, positions, prompts] = await Promise.all([
    chart(world, "kpis", input),
    chart(world, "visibility", input),
    chart(world, "share-of-voice", input),
    chart(world, "positions", input),
    chart(world, "prompts", input),
  ]);
  // The brand the charts are about: the first entity of share of voice.
  return { brand: { name: shareOfVoice.entities[0]!.name }, kpis, visibility, shareOfVoice, positions, prompts };
}
const costs = (world: World, input: Input) => chart(world, "costs", input);
async function sources(world: World, input: Input) {
  const [domains, ownDomain] = await Promise.all([chart(world, "top-domains", input), chart(world, "own-domain", input)]);
  return { domains, ownDomain };
}

beforeAll(async () => {
  A = await buildWorld("Analytics A");
  B = await buildWorld("Analytics B");
  // A second brand of A with one answer of its own in the range.
  const second = await db().brand.create({ data: { workspaceId: A.workspaceId, name: "Second" } });
  otherBrandId = second.id;
  const check = await db().check.create({ data: { workspaceId: A.workspaceId, brandId: second.id, totalCaptures: 1, status: "completed" } });
  const capture = await db().capture.create({
    data: {
      workspaceId: A.workspaceId, checkId: check.id, brandId: second.id, promptId: A.prompts.Q1, providerConfigId: A.P1,
      connectionId: (await db().providerConfig.findUniqueOrThrow({ where: { id: A.P1 } })).connectionId, sample: 1,
      status: "succeeded", maxAttempts: 3, model: "m", searchMode: "auto", finishedAt: new Date("2025-03-02T10:00:00Z"), analyzedAt: new Date(),
    },
  });
  await db().mention.create({ data: { workspaceId: A.workspaceId, captureId: capture.id, kind: "brand", brandId: second.id, name: "Second", mentioned: false, count: 0 } });
  await recordRollups(db(), [capture.id]);
  await db().attempt.create({ data: { workspaceId: A.workspaceId, captureId: capture.id, number: 1, runToken: randomUUID(), workerId: "fixture", startedAt: new Date("2025-03-02T10:00:00Z"), outcome: "succeeded", costMicros: 7777 } });
  // This month's budget of A: 50 dollars, 1 reserved, 2.5 charged.
  await db().workspace.update({ where: { id: A.workspaceId }, data: { monthlyBudgetMicros: 50_000_000 } });
  await db().$executeRaw`
    INSERT INTO budget_periods ("workspaceId", "periodStart", "reservedMicros", "chargedMicros", "updatedAt")
    VALUES (${A.workspaceId}::uuid, date_trunc('month', now() AT TIME ZONE 'UTC')::date, 1000000, 2500000, now())`;
});

describe("overview KPIs", () => {
  it("counts visibility, share of voice, average position and sentiment over the range", async () => {
    const { kpis, brand } = await overview(A, RANGE);
    expect(brand.name).toBe("Acme"); // the first brand is the default
    expect(kpis.captures).toBe(10);
    // Mentioned in C1, C3, C4, C6, C7, C8, C10.
    expect(kpis.visibility.current.value).toBe(0.7);
    expect(kpis.visibility.current.n).toBe(10);
    // Wilson for 7 of 10, by hand: centre (0.7 + z²/20) / (1 + z²/10), half-width
    // z / (1 + z²/10) * sqrt(0.7 * 0.3 / 10 + z² / 400), z = 1.96.
    const z = 1.959964;
    const centre = (0.7 + (z * z) / 20) / (1 + (z * z) / 10);
    const half = (z / (1 + (z * z) / 10)) * Math.sqrt(0.021 + (z * z) / 400);
    expect(kpis.visibility.current.low).toBeCloseTo(centre - half, 5);
    expect(kpis.visibility.current.high).toBeCloseTo(centre + half, 5);
    expect(kpis.visibility.current.low).toBeCloseTo(0.3968, 4);
    expect(kpis.visibility.current.high).toBeCloseTo(0.8922, 4);

    // Brand mentions 2+1+3+1+1+2+1 = 11 of all tracked mentions 3+1+4+4+2+3+1+3+2+2 = 25.
    expect(kpis.shareOfVoice.current.value).toBeCloseTo(11 / 25, 10);
    expect(kpis.shareOfVoice.current.n).toBe(10);
    const ys = [2, 0, 1, 3, 0, 1, 1, 2, 0, 1];
    const xs = [3, 1, 4, 4, 2, 3, 1, 3, 2, 2];
    const residuals = ys.reduce((sum, y, i) => sum + (y - 0.44 * xs[i]!) ** 2, 0);
    const sovHalf = z * Math.sqrt(residuals / (9 * 10 * 2.5 * 2.5));
    expect(kpis.shareOfVoice.current.low).toBeCloseTo(0.44 - sovHalf, 5);
    expect(kpis.shareOfVoice.current.high).toBeCloseTo(0.44 + sovHalf, 5);

    // Positions where mentioned: 1, 2, 1, 3, 1, 2, 2.
    const positions = [1, 2, 1, 3, 1, 2, 2];
    const mean = 12 / 7;
    const sd = Math.sqrt(positions.reduce((sum, p) => sum + (p - mean) ** 2, 0) / 6);
    expect(kpis.averagePosition.current.value).toBeCloseTo(mean, 10);
    expect(kpis.averagePosition.current.n).toBe(7);
    expect(kpis.averagePosition.current.low).toBeCloseTo(mean - (z * sd) / Math.sqrt(7), 5);
    expect(kpis.averagePosition.current.high).toBeCloseTo(mean + (z * sd) / Math.sqrt(7), 5);

    // Among the 7 captures that mention Acme: 4 positive, 2 neutral, 1 negative.
    expect(kpis.sentiment.positive.current).toMatchObject({ value: 4 / 7, n: 7 });
    expect(kpis.sentiment.neutral.current).toMatchObject({ value: 2 / 7, n: 7 });
    expect(kpis.sentiment.negative.current).toMatchObject({ value: 1 / 7, n: 7 });
  });

  it("compares with the previous period of equal length", async () => {
    const { kpis } = await overview(A, RANGE);
    // 2025-02-19 .. 2025-02-28: C13 (Acme first, positive, 1 of 1 mentions) and C14 (Rival only).
    expect(kpis.previousFrom).toBe("2025-02-19T00:00:00.000Z");
    expect(kpis.previousCaptures).toBe(2);
    expect(kpis.visibility.previous).toMatchObject({ value: 0.5, n: 2 });
    expect(kpis.shareOfVoice.previous.value).toBe(0.5);
    expect(kpis.averagePosition.previous).toMatchObject({ value: 1, n: 1, low: null, high: null });
    // The change is like with like: Q1 and Q2 were answered in both periods; Q3 (C5, C6, C10) only
    // in this one, so it is left out of the change (not of this period's level: 7 of 10, 0.44).
    expect(kpis).toMatchObject({ comparedPrompts: 2, promptsInOnePeriod: 1 });
    // Visibility on Q1 and Q2: C1, C3, C4, C7, C8 of C1..C4, C7..C9 (5 of 7) against 1 of 2.
    expect(kpis.visibility.current).toMatchObject({ value: 0.7, n: 10 });
    expect(kpis.visibility.compared.current).toMatchObject({ value: 5 / 7, n: 7 });
    expect(kpis.visibility.change).toBeCloseTo(5 / 7 - 0.5, 10);
    // Share of voice on them: 9 of 18 mentions against 1 of 2; over all answers 11 of 25 (0.44).
    expect(kpis.shareOfVoice.current.value).toBeCloseTo(0.44, 10);
    expect(kpis.shareOfVoice.change).toBeCloseTo(0, 10);
    // Positions 1, 2, 1, 1, 2 against 1; sentiment 3 of 5 positive against 1 of 1.
    expect(kpis.averagePosition.change).toBeCloseTo(7 / 5 - 1, 10);
    expect(kpis.sentiment.positive.change).toBeCloseTo(3 / 5 - 1, 10);
  });

  it("says whether each change is beyond noise, with the alerts' test", async () => {
    const { kpis } = await overview(A, RANGE);
    // Visibility on the prompts answered in both periods, 5 of 7 against 1 of 2, pooled
    // two-proportion z-test, by hand: pooled 6/9, se = sqrt(p(1-p)(1/2 + 1/7)), z = (5/7 - 1/2) / se.
    const pooled = 6 / 9;
    const z = (5 / 7 - 1 / 2) / Math.sqrt(pooled * (1 - pooled) * (1 / 2 + 1 / 7));
    expect(z).toBeCloseTo(0.5669, 4);
    expect(kpis.visibility.test).toMatchObject({ method: "two-proportion z-test (pooled)", confidence: 0.95, beyondNoise: false });
    expect(kpis.visibility.test!.p).toBeCloseTo(0.5708, 3); // 2 (1 - Φ(0.5669))
    expect(kpis.visibility.test!.low).toBeLessThan(0);
    expect(kpis.visibility.test!.high).toBeGreaterThan(5 / 7 - 1 / 2);
    // One position before (n = 1): no variance, so no test, rather than a verdict on nothing.
    expect(kpis.averagePosition.test).toBeNull();
    // Positive sentiment: 3 of 5 mentions against 1 of 1.
    expect(kpis.sentiment.positive.test).toMatchObject({ method: "two-proportion z-test (pooled)", beyondNoise: false });
    // No earlier answers at all: no test either.
    const { kpis: first } = await overview(A, { from: "2025-03-01", to: "2025-03-02" });
    expect(first.visibility.test).toBeNull();
  });

  it("has nothing to compare with when the previous period is empty", async () => {
    const { kpis } = await overview(A, { from: "2025-03-01", to: "2025-03-02" });
    // C1..C4; previous period 2025-02-27 .. 2025-02-28 has no answer.
    expect(kpis.visibility.current).toMatchObject({ value: 0.75, n: 4 });
    expect(kpis.visibility.previous).toEqual({ value: null, n: 0, low: null, high: null });
    expect(kpis.visibility.change).toBeNull();
  });
});

describe("overview series and tables", () => {
  it("gives visibility per provider per day when asked, with n per point and empty days kept", async () => {
    const visibility = await chart(A, "visibility", RANGE, "&bucket=day");
    expect(visibility.unit).toBe("day");
    expect(visibility.bucketRule).toEqual({ chosenBy: "asked", medianN: 1, minMedianN: 30 });
    expect(visibility.providers.map((p) => p.name)).toEqual(["Alpha", "Beta"]);
    expect(visibility.points.map((p) => p.bucket)).toEqual([
      "2025-03-01", "2025-03-02", "2025-03-03", "2025-03-04", "2025-03-05", "2025-03-06", "2025-03-07", "2025-03-08", "2025-03-09", "2025-03-10",
    ]);
    const at = (day: string, provider: string) => visibility.points.find((p) => p.bucket === day)!.byProvider[provider];
    expect(at("2025-03-01", A.P1)).toMatchObject({ value: 1, n: 1, mentioned: 1 });
    expect(at("2025-03-01", A.P2)).toMatchObject({ value: 0, n: 1, mentioned: 0 });
    expect(at("2025-03-03", A.P1)).toMatchObject({ value: 0, n: 1 });
    expect(at("2025-03-03", A.P2)).toMatchObject({ value: 1, n: 1 });
    expect(at("2025-03-10", A.P1)).toMatchObject({ value: 0, n: 1 });
    expect(at("2025-03-10", A.P2)).toMatchObject({ value: 1, n: 1 }); // 23:59:59 is still the 10th
    expect(at("2025-03-04", A.P1)).toBeUndefined(); // C11 failed: not counted
    expect(visibility.points.find((p) => p.bucket === "2025-03-02")!.all).toMatchObject({ value: 1, n: 2 });
    expect(visibility.points.find((p) => p.bucket === "2025-03-06")!.all).toMatchObject({ value: null, n: 0 });
  });

  it("chooses the bucket from the data: days only where each point rests on a median of 30 answers, else weeks, months for long ranges", async () => {
    // One or two answers a day per provider: no unit reaches 30, so the coarsest the range allows.
    const tenDays = (await overview(A, RANGE)).visibility;
    expect(tenDays.unit).toBe("week");
    // Weeks of 2025-02-24 (C1..C4: 2 per provider), 2025-03-03 (C5..C8: 2 each), 2025-03-10 (C9, C10: 1 each).
    expect(tenDays.points.map((p) => p.bucket)).toEqual(["2025-02-24", "2025-03-03", "2025-03-10"]);
    expect(tenDays.bucketRule).toEqual({ chosenBy: "data", medianN: 2, minMedianN: 30 });
    expect(tenDays.points[0]!.byProvider[A.P1]).toMatchObject({ n: 2, mentioned: 2 });
    const long = (await overview(A, { from: "2024-11-01", to: "2025-03-10" })).visibility;
    expect(long.unit).toBe("month");
    expect(long.points.map((p) => p.bucket)).toEqual(["2024-11-01", "2024-12-01", "2025-01-01", "2025-02-01", "2025-03-01"]);
    expect(long.points.find((p) => p.bucket === "2025-02-01")!.all).toMatchObject({ n: 2, mentioned: 1 });
    expect(await refusal(await get(A.person.browser, "visibility", `${filterSearchParams(RANGE)}&bucket=hour`), 400)).toMatchObject({ code: "validation_error", field: "bucket" });
  });

  it("buckets by ISO week when asked", async () => {
    const visibility = await chart(A, "visibility", { from: "2024-11-01", to: "2025-03-10" }, "&bucket=week");
    expect(visibility.unit).toBe("week");
    expect(visibility.points[0]!.bucket).toBe("2024-10-28"); // the Monday of 2024-11-01's week
    // Week of Monday 2025-03-03: C5 (Alpha, no), C7 (Alpha, yes), C6 and C8 (Beta, yes).
    const week = visibility.points.find((p) => p.bucket === "2025-03-03")!;
    expect(week.byProvider[A.P1]).toMatchObject({ value: 0.5, n: 2 });
    expect(week.byProvider[A.P2]).toMatchObject({ value: 1, n: 2 });
    // Week of 2025-02-24 holds C13, C14 and the weekend's C1..C4.
    expect(visibility.points.find((p) => p.bucket === "2025-02-24")!.all).toMatchObject({ n: 6, mentioned: 4 });
  });

  it("gives share of voice per entity per day, each share with its interval", async () => {
    const shareOfVoice = await chart(A, "share-of-voice", RANGE, "&bucket=day");
    expect(shareOfVoice.entities).toEqual([
      { id: "brand", name: "Acme" },
      { id: A.rivalId, name: "Rival" },
      { id: A.otherId, name: "Other" },
    ]);
    expect(shareOfVoice.bucketRule).toMatchObject({ chosenBy: "asked" });
    // 2025-03-02: Acme 1 + 3, Rival 2, Other 1 + 1, in two answers (C3: x = 4, C4: x = 4).
    const day = shareOfVoice.points.find((p) => p.bucket === "2025-03-02")!;
    expect(day).toMatchObject({ total: 8, answers: 2 });
    expect(Object.fromEntries(Object.entries(day.shares).map(([id, e]) => [id, e.value]))).toEqual({ brand: 0.5, [A.rivalId]: 0.25, [A.otherId]: 0.25 });
    // Rival: y = 2 and 0 against x = 4 and 4, r = 1/4: Σ(y - r x)² = 1 + 1 = 2, over (n - 1) n x̄² = 1 · 2 · 16.
    const half = 1.959964 * Math.sqrt(2 / 32);
    expect(day.shares[A.rivalId]!.low).toBeCloseTo(Math.max(0, 0.25 - half), 5);
    expect(day.shares[A.rivalId]!.high).toBeCloseTo(0.25 + half, 5);
    // 2025-03-03: Acme 1, Rival 1, Other 2 + 1.
    expect(shareOfVoice.points.find((p) => p.bucket === "2025-03-03")!.mentions).toEqual({ brand: 1, [A.rivalId]: 1, [A.otherId]: 3 });
    expect(shareOfVoice.points.find((p) => p.bucket === "2025-03-04")!.shares.brand).toMatchObject({ value: null, n: 0 });
  });

  it("chooses the share of voice bucket from the data and tests each entity's change", async () => {
    const [shareOfVoice, kpis] = await Promise.all([chart(A, "share-of-voice", RANGE), chart(A, "kpis", RANGE)]);
    // About one answer a day: no unit of a 10-day range reaches 30 answers a point, so the coarsest, weeks.
    expect(shareOfVoice.unit).toBe("week");
    expect(shareOfVoice.bucketRule).toMatchObject({ chosenBy: "data", minMedianN: 30 });
    // The brand's whole-period share and its test are the headline tile's.
    expect(shareOfVoice.period.brand).toEqual(JSON.parse(JSON.stringify(kpis.shareOfVoice)));
    // Rival: 7 of 25 mentions now, 1 of 2 before (C13: 0 of 1, C14: 1 of 1); its change on the
    // prompts answered in both (Q1, Q2: y per answer C1..C4, C7..C9 below), 6 of 18.
    const ys = [1, 1, 2, 0, 0, 1, 1];
    const xs = [3, 1, 4, 4, 1, 3, 2];
    const sums = (y: number[], x: number[]) => ({
      n: y.length, sumY: y.reduce((a, b) => a + b, 0), sumX: x.reduce((a, b) => a + b, 0),
      sumYY: y.reduce((a, b) => a + b * b, 0), sumXX: x.reduce((a, b) => a + b * b, 0), sumXY: y.reduce((a, b, i) => a + b * x[i]!, 0),
    });
    const expected = testRatios(sums([0, 1], [1, 1]), sums(ys, xs), 0.95)!;
    const rival = shareOfVoice.period[A.rivalId]!;
    expect(rival.current.value).toBeCloseTo(0.28, 10);
    expect(rival.previous.value).toBe(0.5);
    expect(rival.compared.current.value).toBeCloseTo(1 / 3, 10);
    expect(rival.change).toBeCloseTo(1 / 3 - 0.5, 10);
    expect(rival.test!.p).toBeCloseTo(expected.p, 10);
    expect(rival.test!.beyondNoise).toBe(expected.p < 0.05);
  });

  it("distributes the brand's positions", async () => {
    const { positions } = await overview(A, RANGE);
    expect(positions.n).toBe(10);
    expect(positions.buckets.map((b) => [b.bucket, b.captures])).toEqual([
      ["1", 3], ["2", 3], ["3", 1], ["4", 0], ["5+", 0], ["not mentioned", 3],
    ]);
    expect(positions.buckets[0]!.value).toBeCloseTo(0.3, 10);
  });

  it("tells per prompt where the brand loses, and to whom", async () => {
    const { prompts } = await overview(A, RANGE);
    const row = (key: keyof typeof PROMPTS) => prompts.find((p) => p.promptId === A.prompts[key])!;
    expect(prompts).toHaveLength(3);
    // Q1: C1 (1st), C2 (absent, Rival there), C7 (1st), C8 (2nd behind Rival).
    expect(row("Q1")).toMatchObject({ text: PROMPTS.Q1.text, n: 4, visibility: { value: 0.75 }, averagePosition: { value: 4 / 3, n: 3 } });
    expect(row("Q1").losesTo).toEqual({ key: A.rivalId, name: "Rival", captures: 2, instead: 1, ahead: 1 });
    // Q2: C3 (2nd behind Rival), C4 (1st), C9 (absent; Rival and Other there).
    expect(row("Q2")).toMatchObject({ n: 3, visibility: { value: 2 / 3 }, averagePosition: { value: 1.5 } });
    expect(row("Q2").losesTo).toMatchObject({ name: "Rival", captures: 2, instead: 1 });
    // Q3: C5 (absent, Other there), C6 (3rd behind both), C10 (2nd behind Other).
    expect(row("Q3")).toMatchObject({ n: 3, visibility: { value: 2 / 3 }, averagePosition: { value: 2.5 } });
    expect(row("Q3").losesTo).toMatchObject({ key: A.otherId, name: "Other", captures: 3, instead: 1, ahead: 2 });
  });
});

describe("filters", () => {
  it("narrows to providers", async () => {
    const { kpis, visibility } = await overview(A, { ...RANGE, providers: [A.P1] });
    // Alpha: C1 (yes), C3 (yes), C5, C7 (yes), C9.
    expect(kpis.visibility.current).toMatchObject({ value: 0.6, n: 5 });
    expect(visibility.providers.map((p) => p.name)).toEqual(["Alpha"]);
  });

  it("narrows to prompts that carry any of the tags", async () => {
    expect((await overview(A, { ...RANGE, tags: ["pricing"] })).kpis.visibility.current).toMatchObject({ value: 2 / 3, n: 3 });
    // pricing (Q2) or smb (Q3): C3, C4, C9, C5, C6, C10 - mentioned in C3, C4, C6, C10.
    expect((await overview(A, { ...RANGE, tags: ["smb", "pricing"] })).kpis.visibility.current).toMatchObject({ value: 4 / 6, n: 6 });
  });

  it("narrows to the chosen brand", async () => {
    const second = await overview(A, { ...RANGE, brandId: otherBrandId });
    expect(second.brand.name).toBe("Second");
    expect(second.kpis.visibility.current).toMatchObject({ value: 0, n: 1 });
    expect((await costs(A, { ...RANGE, brandId: otherBrandId })).totals.spentMicros).toBe(7777);
  });

  it("defaults to the last 30 days and refuses reversed or too long ranges", async () => {
    const recent = await overview(A, {});
    expect((await chart(A, "visibility", {}, "&bucket=day")).points).toHaveLength(30);
    expect(recent.visibility.unit).toBe("week"); // no answers: the coarsest unit 30 days allow
    expect(recent.kpis.captures).toBe(0);
    for (const name of CHART_NAMES) {
      const reversed = await refusal(await get(A.person.browser, name, "from=2025-03-10&to=2025-03-01"), 400);
      expect(reversed).toMatchObject({ code: "validation_error", field: "from" });
      const tooLong = await refusal(await get(A.person.browser, name, "from=2024-01-01&to=2025-03-01"), 400);
      expect(tooLong).toMatchObject({ field: "from", message: "from: Choose at most 400 days" });
    }
  });
});

describe("provider coverage", () => {
  it("counts answers per provider in the period whatever providers are chosen, zero for one without", async () => {
    // Besides Alpha and Beta, the workspace has the providers a new workspace starts with: no answers.
    const answers = async (input: Input) => Object.fromEntries((await chart(A, "provider-coverage", input)).providers.map((p) => [p.name, p.answers]));
    const both = await answers({ ...RANGE, providers: [A.P1] });
    expect(both).toMatchObject({ Alpha: 5, Beta: 5 });
    expect(Object.entries(both).filter(([name]) => name !== "Alpha" && name !== "Beta").every(([, n]) => n === 0)).toBe(true);
    // 2025-02-25 holds C13 (Alpha) only; tags still narrow (Q3 carries smb).
    expect(await answers({ from: "2025-02-25", to: "2025-02-25" })).toMatchObject({ Alpha: 1, Beta: 0 });
    expect(await answers({ ...RANGE, tags: ["smb"] })).toMatchObject({ Alpha: 1, Beta: 2 });
  });
});

describe("workspace scoping", () => {
  it("never counts another workspace's answers, though B has the very same history", async () => {
    const a = await overview(A, RANGE);
    const b = await overview(B, RANGE);
    expect(a.kpis.captures).toBe(10);
    expect(b.kpis.captures).toBe(10);
    expect((await costs(A, RANGE)).totals.spentMicros).toBe(16_400);
  });

  it("treats another workspace's brand or provider as not found", async () => {
    for (const name of CHART_NAMES) {
      const foreign = (input: Input) => get(A.person.browser, name, filterSearchParams({ ...RANGE, ...input }).toString());
      expect(await refusal(await foreign({ brandId: B.brandId }), 404)).toEqual({ code: "not_found", message: "That brand does not exist in this workspace.", field: "brand" });
      expect(await refusal(await foreign({ providers: [B.P1] }), 404)).toMatchObject({ code: "not_found", field: "providers" });
      expect(await refusal(await foreign({ providers: [A.P1, B.P2] }), 404)).toMatchObject({ code: "not_found", field: "providers" });
    }
  });
});

describe("sources", () => {
  it("lists the 8 most cited domains with their daily citations, retrieved-only sources left out", async () => {
    const { domains } = await sources(A, RANGE);
    // a.com: C1, C2, C6, C8, C10 = 5; b.com: C2, C3 x3, C9 = 5; acme.com: 3; c.com .. h.com: 1 each (h.com is ninth).
    expect(domains.domains.map((d) => [d.domain, d.citations])).toEqual([
      ["a.com", 5], ["b.com", 5], ["acme.com", 3], ["c.com", 1], ["d.com", 1], ["e.com", 1], ["f.com", 1], ["g.com", 1],
    ]);
    expect(domains.domains.find((d) => d.domain === "acme.com")!.own).toBe(true);
    const aDaily = domains.points.map((p) => p.counts["a.com"]);
    expect(aDaily).toEqual([2, 0, 1, 0, 1, 0, 0, 0, 0, 1]);
    expect(domains.points.find((p) => p.bucket === "2025-03-02")!.counts["b.com"]).toBe(3);
  });

  it("rates captures that cite an own domain", async () => {
    const { ownDomain } = await sources(A, RANGE);
    // C1, C4, C10 of 10.
    expect(ownDomain).toMatchObject({ value: 0.3, n: 10, citing: 3 });
  });

  it("pages through cited pages, most cited first, with the latest title", async () => {
    const first = await chart(A, "cited-pages", RANGE, "&page=1&pageSize=2");
    // 12 pages: a.com/x, b.com/1, acme.com/, a.com/y, b.com/2, acme.com/pricing, c.com .. h.com.
    expect(first.total).toBe(12);
    expect(first.items).toEqual([
      { url: "https://a.com/x", domain: "a.com", title: "A X (new)", own: false, citations: 4, captures: 4 },
      { url: "https://b.com/1", domain: "b.com", title: null, own: false, citations: 4, captures: 3 },
    ]);
    const second = await chart(A, "cited-pages", RANGE, "&page=2&pageSize=2");
    expect(second.items.map((p) => [p.url, p.citations])).toEqual([["https://acme.com/", 2], ["https://a.com/y", 1]]);
    // Past the last page (a link kept while the list shrank): no rows, and still how many there are.
    expect(await chart(A, "cited-pages", RANGE, "&page=7&pageSize=2")).toMatchObject({ items: [], total: 12 });
  });

  it("narrows cited pages to one domain, the gap sources' link to them", async () => {
    const b = await chart(A, "cited-pages", RANGE, "&domain=B.com");
    expect(b).toMatchObject({ total: 2, domain: "b.com" });
    expect(b.items.map((p) => [p.url, p.citations])).toEqual([["https://b.com/1", 4], ["https://b.com/2", 1]]);
    expect((await chart(A, "cited-pages", RANGE, "&domain=nowhere.example")).total).toBe(0);
    expect(await refusal(await get(A.person.browser, "cited-pages", `${filterSearchParams(RANGE)}&domain=not%20a%20domain`), 400)).toMatchObject({ code: "validation_error", field: "domain" });
  });
});

describe("costs", () => {
  it("sums attempt costs per provider per day by the attempt's start", async () => {
    const result = await costs(A, RANGE);
    const daily = (provider: string) => result.daily.points.map((p) => p.spentMicros[provider]);
    // Alpha: C1's first attempt started on 02-28 (outside); C3 500 + 1000 on 03-02; C11 200 + 400 + 0 on 03-04.
    expect(daily(A.P1)).toEqual([1000, 1500, 1000, 600, 1000, 0, 0, 0, 0, 1000]);
    // Beta: C8 300 (cancelled) + 2000 on 03-05.
    expect(daily(A.P2)).toEqual([2000, 2000, 2000, 0, 2300, 0, 0, 0, 0, 2000]);
  });

  it("computes cost per accepted capture, retry waste and unknown outcomes", async () => {
    const { byProvider, totals } = await costs(A, RANGE);
    const alpha = byProvider.find((p) => p.id === A.P1)!;
    const beta = byProvider.find((p) => p.id === A.P2)!;
    expect(alpha).toMatchObject({ name: "Alpha", spentMicros: 6100, acceptedCaptures: 5, costPerAcceptedMicros: 1220, retryWasteMicros: 1100, unknownOutcomes: 2, unknownCostMicros: 900 });
    // Not accepted on 03-02 and 03-04: C3's unknown (500), C11's three; its last failed at no cost.
    expect(alpha).toMatchObject({ wastedAttempts: 4, chargedWastedAttempts: 3 });
    expect(beta).toMatchObject({ name: "Beta", spentMicros: 10_300, acceptedCaptures: 5, costPerAcceptedMicros: 2060, retryWasteMicros: 300, unknownOutcomes: 0 });
    expect(totals).toMatchObject({ spentMicros: 16_400, acceptedCaptures: 10, costPerAcceptedMicros: 1640, retryWasteMicros: 1400, unknownOutcomes: 2, unknownCostMicros: 900, estimatedCostMicros: 1200 });
    expect(totals).toMatchObject({ wastedAttempts: 5, chargedWastedAttempts: 4 });
  });

  it("applies the provider and tag filters to attempts through their captures", async () => {
    expect((await costs(A, { ...RANGE, providers: [A.P2] })).totals.spentMicros).toBe(10_300);
    // pricing (Q2): C3 1500, C4 2000, C9 1000.
    expect((await costs(A, { ...RANGE, tags: ["pricing"] })).totals).toMatchObject({ spentMicros: 4500, acceptedCaptures: 3, unknownOutcomes: 1 });
  });

  it("shows this month's budget", async () => {
    const { budget } = await costs(A, RANGE);
    expect(budget).toMatchObject({ limitMicros: 50_000_000, usedMicros: 3_500_000, leftMicros: 46_500_000 });
  });
});

describe("chart routes", () => {
  it("answer each chart's query function for the same filter, as JSON", async () => {
    // Costs say since when attempts are kept, counted from now: one clock for both sides.
    vi.useFakeTimers({ toFake: ["Date"], now: new Date() });
    try {
      const filters: [Input, string][] = [
        [{ ...RANGE, providers: [A.P1], tags: ["buying"] }, "&page=1&pageSize=3"],
        [{ from: "2024-11-01", to: "2025-03-10" }, "&page=2&pageSize=5"],
        [{ ...RANGE, brandId: otherBrandId }, ""],
      ];
      for (const [input, pageParams] of filters) {
        const resolved = (await resolveFilter(A.workspaceId, analyticsFilterInput.parse(input)))!;
        for (const name of CHART_NAMES) {
          const entry: Chart = CHARTS[name];
          const page = Object.fromEntries(new URLSearchParams(pageParams));
          const direct = await entry.query(resolved, entry.params.parse(name === "cited-pages" ? page : {}));
          const routed = await chart(A, name, input, name === "cited-pages" ? pageParams : "");
          expect(routed, `${name} ${JSON.stringify(input)}`).toEqual(JSON.parse(JSON.stringify(direct)));
        }
      }
      // Dates travel as ISO strings, money as numbers.
      const kpis = await chart(A, "kpis", RANGE);
      expect(kpis.captures).toBe(10);
      expect(kpis.previousFrom).toBe("2025-02-19T00:00:00.000Z");
      const spend = await costs(A, RANGE);
      expect(spend.budget.period).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect(spend.totals.spentMicros).toBe(16_400);
    } finally {
      vi.useRealTimers();
    }
  });

  it("answer 401 when signed out, whatever the chart", async () => {
    const signedOut = newBrowser();
    for (const name of [...CHART_NAMES, "no-such-chart"]) {
      expect(await refusal(await get(signedOut, name, filterSearchParams(RANGE).toString()), 401)).toMatchObject({ code: "unauthorized" });
    }
  });

  it("let a viewer read every chart", async () => {
    const viewer = await join(A.person, "viewer", "Vera Viewer");
    expect(viewer.workspaceId).toBe(A.workspaceId);
    const world = { ...A, person: viewer };
    for (const name of CHART_NAMES) await chart(world, name, RANGE);
    expect((await chart(world, "kpis", RANGE)).captures).toBe(10);
    expect((await chart(world, "cited-pages", RANGE)).total).toBe(12);
  });

  it("answer 404 for a chart that does not exist", async () => {
    const error = await refusal(await get(A.person.browser, "funnel", ""), 404);
    expect(error.code).toBe("not_found");
    expect(error.message).toContain("kpis, markets, visibility, share-of-voice, positions, prompts, top-domains, own-domain, costs, cited-pages");
  });

  it.each<[string, ChartName, string, string, RegExp]>([
    ["a brand that is not an id", "kpis", "brand=acme", "brand", /^brand: Unknown brand/],
    ["a provider that is not an id", "visibility", "providers=alpha", "providers.0", /Unknown provider/],
    ["a day that does not exist", "positions", "from=2025-02-30&to=2025-03-01", "from", /date like 2025-01-31/],
    ["a tag with a control character", "prompts", "tags=smb%07", "tags.0", /control character/],
    ["a market that is not country:language", "markets", "markets=Germany", "markets.0", /market like DE:de/],
    ["a range the filter bar does not offer", "top-domains", "range=14", "range", /7, 30, 90/],
    ["a range and dates together", "own-domain", "range=7&from=2025-03-01", "range", /either range or from and to/],
    ["a parameter no chart takes", "costs", "brnad=x", "brnad", /unknown parameter/],
    ["a page on a chart without pages", "kpis", "page=2", "page", /unknown parameter/],
    ["a brand given twice", "share-of-voice", "brand=a&brand=b", "brand", /once/],
    ["page 0", "cited-pages", "page=0", "page", /page starts at 1/],
    ["a page that is not a number", "cited-pages", "page=two", "page", /page must be a number/],
    ["a page size over 100", "cited-pages", "pageSize=500", "pageSize", /at most 100/],
  ])("refuse %s with a 400 on the field, and change nothing", async (_, name, query, field, message) => {
    const before = await snapshotWorkspace(A.workspaceId);
    const error = await refusal(await get(A.person.browser, name, query), 400);
    expect(error).toMatchObject({ code: "validation_error", field });
    expect(error.message).toMatch(message);
    expect(await snapshotWorkspace(A.workspaceId)).toEqual(before);
  });
});

/** GET /api/analytics/batch for these chart addresses, through the route handler; `lines` as they arrived. */
async function batch(browser: Browser, addresses: string[], onLine?: (line: BatchLine) => void): Promise<{ response: Response; lines: BatchLine[] }> {
  const response = await browser.run(() => batchRoute(new Request(`http://localhost:3000${batchPath(addresses)}`)));
  const lines: BatchLine[] = [];
  if (response.status !== 200) return { response, lines };
  // The browser's reader (lib/browser/chart-batch.ts uses it): it throws on a broken or cut line.
  await readBatchLines(response.body!, (line) => {
    lines.push(line);
    onLine?.(line);
  });
  return { response, lines };
}

describe("the dashboards' batch of first charts", () => {
  /** What a chart's own GET answers: status and body. */
  const single = async (world: World, address: string) => {
    const response = await world.person.browser.run(() => chartRoute(new Request(`http://localhost:3000${address}`), { params: Promise.resolve({ chart: /^\/api\/analytics\/([^?]+)/.exec(address)![1]! }) }));
    return { status: response.status, body: await response.json() };
  };

  it("answers each chart with what its own GET answers, one line each, as NDJSON", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: new Date() });
    try {
      const filter = { ...RANGE, providers: [A.P1], tags: ["buying"] };
      // Every chart, in two batches of at most BATCH_MAX_CHARTS; cited pages paged, coverage without providers, as the Sources page asks.
      const addresses = [
        ...CHART_NAMES.filter((name) => name !== "cited-pages").map((name) => chartPath(name, filter)),
        chartPath("cited-pages", filter, { page: 2, pageSize: 5 }),
        chartPath("provider-coverage", { ...filter, providers: [] }),
      ];
      for (let at = 0; at < addresses.length; at += BATCH_MAX_CHARTS) {
        const part = addresses.slice(at, at + BATCH_MAX_CHARTS);
        const { response, lines } = await batch(A.person.browser, part);
        expect(response.status).toBe(200);
        expect(response.headers.get("content-type")).toBe("text/x-ndjson; charset=utf-8");
        expect(response.headers.get("cache-control")).toBe("no-store");
        expect(lines.map((l) => l.chart).sort()).toEqual([...part].sort());
        for (const line of lines) expect({ status: line.status, body: line.body }, line.chart).toEqual(await single(A, line.chart));
      }
      const [kpis] = (await batch(A.person.browser, [chartPath("kpis", RANGE)])).lines;
      expect((kpis!.body as ChartData<"kpis">).captures).toBe(10);
    } finally {
      vi.useRealTimers();
    }
  });

  it("refuses one chart as its GET would and still answers the others", async () => {
    const before = await snapshotWorkspace(A.workspaceId);
    const good = chartPath("kpis", RANGE);
    const refused = {
      [chartPath("positions", { ...RANGE, brandId: B.brandId })]: { status: 404, field: "brand", code: "not_found" },
      [chartPath("visibility", { ...RANGE, providers: [B.P1] })]: { status: 404, field: "providers", code: "not_found" },
      ["/api/analytics/top-domains?range=14"]: { status: 400, field: "range", code: "validation_error" },
      ["/api/analytics/costs?brnad=x"]: { status: 400, field: "brnad", code: "validation_error" },
      ["/api/analytics/funnel?range=30"]: { status: 404, field: undefined, code: "not_found" },
    };
    const { response, lines } = await batch(A.person.browser, [good, ...Object.keys(refused)]);
    expect(response.status).toBe(200);
    expect(lines).toHaveLength(6);
    for (const line of lines) {
      if (line.chart === good) {
        expect(line.status).toBe(200);
        expect((line.body as ChartData<"kpis">).captures).toBe(10);
        continue;
      }
      const want = refused[line.chart]!;
      expect(line.status, line.chart).toBe(want.status);
      expect(Object.keys(line.body as object)).toEqual(["error"]);
      expect((line.body as Problem).error).toMatchObject({ code: want.code, ...(want.field ? { field: want.field } : {}) });
      expect({ status: line.status, body: line.body }).toEqual(await single(A, line.chart));
    }
    expect(await snapshotWorkspace(A.workspaceId)).toEqual(before);
  });

  it("answers each member with their own workspace's numbers", async () => {
    const address = chartPath("kpis", RANGE);
    const fromB = (await batch(B.person.browser, [address, chartPath("kpis", { ...RANGE, brandId: A.brandId })])).lines;
    expect(fromB.find((l) => l.chart === address)).toMatchObject({ status: 200, body: { captures: 10 } });
    // A's brand, asked for from B's workspace: not found, no numbers.
    expect(fromB.find((l) => l.chart !== address)).toEqual({ chart: chartPath("kpis", { ...RANGE, brandId: A.brandId }), ...(await single(B, chartPath("kpis", { ...RANGE, brandId: A.brandId }))) });
    expect(fromB.find((l) => l.chart !== address)!.status).toBe(404);
  });

  it.each<[string, string[] | null, number, string, RegExp]>([
    ["signed out", null, 401, "unauthorized", /Sign in/],
    ["no chart", [], 400, "validation_error", /name a chart's address/],
    ["too many charts", Array.from({ length: BATCH_MAX_CHARTS + 1 }, (_, i) => `/api/analytics/kpis?range=30&x${i}=1`), 400, "validation_error", /at most 12/],
    ["an address twice", ["/api/analytics/kpis?range=30", "/api/analytics/kpis?range=30"], 400, "validation_error", /each address once/],
    ["an address of another API", ["/api/v1/analytics/kpis?range=30"], 400, "validation_error", /not a chart's address/],
    ["an address of another site", ["https://example.com/api/analytics/kpis"], 400, "validation_error", /not a chart's address/],
    ["a path below a chart", ["/api/analytics/kpis/x?range=30"], 400, "validation_error", /not a chart's address/],
    ["the batch inside itself", ["/api/analytics/batch?chart=%2Fapi%2Fanalytics%2Fkpis"], 404, "not_found", /no chart "batch"/],
  ])("refuses %s", async (_, addresses, status, code, message) => {
    const browser = addresses ? A.person.browser : newBrowser();
    const { response, lines } = await batch(browser, addresses ?? [chartPath("kpis", RANGE)]);
    if (status === 404) {
      // The batch itself is fine; its one chart is not one.
      expect(response.status).toBe(200);
      expect(lines).toHaveLength(1);
      expect(lines[0]!.status).toBe(404);
      expect((lines[0]!.body as Problem).error.message).toMatch(message);
      return;
    }
    const error = await refusal(response, status);
    expect(error.code).toBe(code);
    expect(error.message).toMatch(message);
  });

  it("answers a chart that fails with a 500 and its request id, the others as usual", async () => {
    const entry = CHARTS["top-domains"] as { query: (...args: never[]) => Promise<unknown> };
    const query = entry.query;
    entry.query = () => Promise.reject(new Error("the database went away"));
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      const failing = chartPath("top-domains", RANGE);
      const { lines } = await batch(A.person.browser, [failing, chartPath("kpis", RANGE)]);
      const failed = lines.find((l) => l.chart === failing)!;
      expect(failed.status).toBe(500);
      const message = (failed.body as Problem).error.message;
      expect(message).toMatch(/^Something went wrong on our side \(request [0-9a-f]{8}\)/);
      // No detail of the failure reaches the browser; the log has it under the same id.
      expect(message).not.toContain("database");
      expect(String(logged.mock.calls[0]?.[0])).toContain(message.match(/request ([0-9a-f]{8})/)![1]);
      expect(lines.find((l) => l.chart !== failing)).toMatchObject({ status: 200, body: { captures: 10 } });
    } finally {
      entry.query = query;
      logged.mockRestore();
    }
  });

  it("sends each chart's line when it is ready: a slow chart holds no other", async () => {
    // Hold cited pages' query until every other line has arrived (the injected hook is the chart's own query).
    const entry = CHARTS["cited-pages"] as { query: (...args: never[]) => Promise<unknown> };
    const query = entry.query;
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    entry.query = async (...args) => {
      await held;
      return query(...args);
    };
    try {
      const others = [chartPath("kpis", RANGE), chartPath("top-domains", RANGE), chartPath("own-domain", RANGE)];
      const slow = chartPath("cited-pages", RANGE, { page: 1, pageSize: 20 });
      const arrived: string[] = [];
      let releasedBy = "";
      // Without streaming no line would come while cited pages is held: let it go after a while, and fail.
      const giveUp = setTimeout(() => ((releasedBy ||= "the timer"), release()), 10_000);
      const { lines } = await batch(A.person.browser, [slow, ...others], (line) => {
        arrived.push(line.chart);
        if (arrived.length === others.length) {
          releasedBy ||= "the other lines";
          release();
        }
      });
      clearTimeout(giveUp);
      expect(releasedBy).toBe("the other lines");
      expect(arrived.slice(0, others.length).sort()).toEqual([...others].sort());
      expect(arrived.at(-1)).toBe(slow);
      expect(lines.find((l) => l.chart === slow)).toMatchObject({ status: 200, body: { total: 12 } });
    } finally {
      entry.query = query;
    }
  });
});

describe("captures export", () => {
  const getExport = (world: World, query: string) =>
    world.person.browser.run(() => exportCaptures(new Request(`http://localhost:3000/api/exports/captures?${query}`)));

  it("streams the captures in scope as CSV with quoted cells", async () => {
    const response = await getExport(A, `format=csv&from=${RANGE.from}&to=${RANGE.to}&providers=${A.P1}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/csv");
    expect(response.headers.get("content-disposition")).toContain('filename="beacon-captures-acme-2025-03-01-to-2025-03-10.csv"');
    expect(response.headers.get("x-total-count")).toBe("5");
    const lines = (await response.text()).trimEnd().split("\r\n");
    expect(lines[0]).toBe("capture_id,finished_at,prompt,prompt_tags,market,asked_market,provider,model,sample,brand_mentioned,position,sentiment,competitors,cited_domains,cost_usd,cited_urls,answer");
    expect(lines).toHaveLength(6);
    expect(lines[1]).toMatch(/^[0-9a-f-]{36},2025-03-01T10:00:00.000Z,Best anvil for a coyote\?,buying,,,Alpha,P1-model,1,true,1,positive,Rival #2,a.com; acme.com,0.001000,https:\/\/a.com\/x; https:\/\/acme.com\/,"Answer C1, ""quoted"", with a comma"$/);
  });

  it("streams JSON with whole answers and costs in micro-dollars", async () => {
    const response = await getExport(A, `format=json&from=${RANGE.from}&to=${RANGE.to}&tags=smb`);
    const rows = (await response.json()) as { prompt: string; brandMentioned: boolean; costMicros: number; answer: string; finishedAt: string }[];
    expect(rows.map((r) => r.finishedAt)).toEqual(["2025-03-03T10:00:00.000Z", "2025-03-03T12:00:00.000Z", "2025-03-10T23:59:59.000Z"]);
    expect(rows[1]).toMatchObject({ prompt: PROMPTS.Q3.text, brandMentioned: true, costMicros: 2000, answer: 'Answer C6, "quoted", with a comma' });
  });

  it("answers 401 when signed out, 400 for a bad format, 404 for another workspace's brand", async () => {
    const signedOut = await newBrowser().run(() => exportCaptures(new Request("http://localhost:3000/api/exports/captures?format=csv")));
    expect(signedOut.status).toBe(401);
    expect((await signedOut.json()).error.code).toBe("unauthorized");
    expect((await getExport(A, "format=xml")).status).toBe(400);
    expect((await getExport(A, `format=csv&brand=${B.brandId}`)).status).toBe(404);
  });

  it.each([
    ["an unknown parameter", "format=csv&brnad=x", "brnad"],
    ["a range that is not a preset", "format=csv&range=45", "range"],
    ["a range together with dates", `format=csv&range=7&from=${RANGE.from}`, "range"],
    ["a format given twice", "format=csv&format=json", "format"],
    ["a brand that is not an id", "format=csv&brand=acme", "brand"],
    ["a market in lower case", "format=csv&markets=de:de", "markets.0"],
  ])("refuses %s with a 400 on the field, as the chart routes do, instead of exporting another range", async (_, query, field) => {
    const response = await getExport(A, query);
    expect(response.status).toBe(400);
    expect((await response.json()).error).toMatchObject({ code: "validation_error", field });
  });
});
