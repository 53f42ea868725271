// Where answers come from: source categories over time, the own pages cited most and gap sources,
// read over GET /api/analytics/<chart> as the Sources page reads them, against a small history
// written by hand whose expected values are worked out below, and against the raw rows; and a
// workspace's own categories (setSourceCategoryAction), which only admins change.
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { join, ok, refused, expectFieldError, signUp, type Person } from "../support/workspace-fixtures";
import { GET as chartRoute } from "@/app/api/analytics/[chart]/route";
import { setSourceCategoryAction, listSourceCategoriesAction } from "@/lib/actions/sources";
import { registrableDomain } from "@/lib/analysis/citations";
import type { ChartName } from "@/lib/analytics/charts";
import { recordRollups } from "@/lib/analytics/rollups";
import type { ChartData } from "@/lib/analytics/wire";
import { db } from "@/lib/db/prisma";
import { categorize, categoryContext, SOURCE_CATEGORIES, type SourceCategory } from "@/lib/sources/categories";

vi.mock("next/headers", () => import("../support/request-context").then((m) => m.nextHeadersMock));

// ---------------------------------------------------------------------------------------------
// The fixture. Range under test: 2025-03-01 .. 2025-03-03. The brand Acme (acme.com), competitors
// Rival (rival.com) and Other (entered as a shop subdomain of other-brand.co.uk, cited on its help
// subdomain: the registrable domain counts). "gap": names a competitor and not Acme.

type Spec = {
  key: string;
  at: string;
  provider: "P1" | "P2";
  prompt: "Q1" | "Q2";
  status?: "failed";
  acme: boolean;
  named: ("Rival" | "Other")[];
  cites?: { url: string; own?: boolean; retrievedOnly?: boolean; title?: string }[];
};

const HISTORY: Spec[] = [
  { key: "G1", at: "2025-03-01T10:00:00Z", provider: "P1", prompt: "Q1", acme: false, named: ["Rival"],
    cites: [{ url: "https://www.g2.com/a" }, { url: "https://www.g2.com/b" }, { url: "https://www.reddit.com/r/x" }, { url: "https://rival.com/" }] },
  { key: "G2", at: "2025-03-01T11:00:00Z", provider: "P2", prompt: "Q1", acme: false, named: ["Rival", "Other"],
    cites: [{ url: "https://www.g2.com/a" }, { url: "https://www.forbes.com/x" }, { url: "https://z.com/", retrievedOnly: true }] },
  { key: "G3", at: "2025-03-02T10:00:00Z", provider: "P1", prompt: "Q2", acme: false, named: ["Other"],
    cites: [{ url: "https://www.reddit.com/r/y" }, { url: "https://example.org/" }, { url: "https://help.other-brand.co.uk/faq" }] },
  { key: "N1", at: "2025-03-02T12:00:00Z", provider: "P2", prompt: "Q2", acme: true, named: ["Rival"],
    cites: [{ url: "https://www.g2.com/a" }, { url: "https://acme.com/pricing", own: true, title: "Pricing" }, { url: "https://acme.com/", own: true }] },
  { key: "N2", at: "2025-03-03T10:00:00Z", provider: "P1", prompt: "Q1", acme: false, named: [], cites: [{ url: "https://www.capterra.com/x" }] },
  { key: "N3", at: "2025-03-03T23:59:59Z", provider: "P2", prompt: "Q1", acme: true, named: [],
    cites: [{ url: "https://acme.com/", own: true, title: "Acme" }, { url: "https://en.wikipedia.org/wiki/Acme" }] },
  // Failed, and outside the range: neither counts.
  { key: "F1", at: "2025-03-02T10:00:00Z", provider: "P1", prompt: "Q1", status: "failed", acme: false, named: [] },
  { key: "L1", at: "2025-03-04T00:00:00Z", provider: "P1", prompt: "Q1", acme: false, named: ["Rival"], cites: [{ url: "https://www.g2.com/late" }] },
];

type World = { person: Person; workspaceId: string; brandId: string; P1: string; P2: string; Q2: string };

async function buildWorld(workspaceName: string): Promise<World> {
  const person = await signUp({ name: `${workspaceName} Owner`, workspaceName });
  const workspaceId = person.workspaceId;
  const brand = await db().brand.create({
    data: {
      workspaceId, name: "Acme", domains: ["acme.com"],
      competitors: { create: [{ workspaceId, name: "Rival", domains: ["https://www.rival.com"] }, { workspaceId, name: "Other", domains: ["https://shop.other-brand.co.uk/en"] }] },
    },
    include: { competitors: true },
  });
  const competitor = (name: string) => brand.competitors.find((c) => c.name === name)!.id;
  const simulator = await db().providerConnection.findFirstOrThrow({ where: { adapter: "simulator" } });
  const provider = (name: string) => db().providerConfig.create({ data: { workspaceId, name, connectionId: simulator.id, model: `${name}-model` } });
  const [p1, p2] = [await provider("Alpha"), await provider("Beta")];
  const prompts = {
    Q1: (await db().prompt.create({ data: { workspaceId, text: "Best anvil?", tags: ["buying"] } })).id,
    Q2: (await db().prompt.create({ data: { workspaceId, text: "Cheapest anvil?", tags: ["pricing"] } })).id,
  };
  const check = await db().check.create({ data: { workspaceId, brandId: brand.id, totalCaptures: HISTORY.length, status: "completed", isDemo: true } });
  for (const [i, spec] of HISTORY.entries()) {
    const status = spec.status ?? "succeeded";
    const capture = await db().capture.create({
      data: {
        workspaceId, checkId: check.id, brandId: brand.id, promptId: prompts[spec.prompt],
        providerConfigId: spec.provider === "P1" ? p1.id : p2.id, connectionId: simulator.id, sample: i + 1, status,
        maxAttempts: 3, attemptCount: 1, model: "m", searchMode: "auto",
        answerText: status === "succeeded" ? `Answer ${spec.key}` : null,
        finishedAt: new Date(spec.at), analyzedAt: status === "succeeded" ? new Date(spec.at) : null,
      },
    });
    if (status !== "succeeded") continue;
    const mention = (kind: "brand" | "competitor", name: string, mentioned: boolean, ids: { brandId?: string; competitorId?: string }) => ({
      workspaceId, captureId: capture.id, kind, name, mentioned, count: mentioned ? 1 : 0, position: mentioned ? 1 : null,
      sentiment: mentioned ? ("neutral" as const) : null, brandId: ids.brandId ?? null, competitorId: ids.competitorId ?? null,
    });
    await db().mention.createMany({
      data: [
        mention("brand", "Acme", spec.acme, { brandId: brand.id }),
        ...(["Rival", "Other"] as const).map((n) => mention("competitor", n, spec.named.includes(n), { competitorId: competitor(n) })),
      ],
    });
    await db().citation.createMany({
      data: (spec.cites ?? []).map((c, position) => ({
        workspaceId, captureId: capture.id, url: c.url, title: c.title ?? null, domain: registrableDomain(c.url)!,
        isOwnDomain: !!c.own, citedInText: !c.retrievedOnly, position: position + 1,
      })),
    });
    await db().attempt.create({
      data: { workspaceId, captureId: capture.id, number: 1, runToken: randomUUID(), workerId: "fixture", startedAt: new Date(spec.at), endedAt: new Date(spec.at), outcome: "succeeded", costMicros: 0 },
    });
  }
  await recordRollups(db(), (await db().capture.findMany({ where: { checkId: check.id }, select: { id: true } })).map((c) => c.id));
  return { person, workspaceId, brandId: brand.id, P1: p1.id, P2: p2.id, Q2: prompts.Q2 };
}

let A: World;
let B: World; // the same history in another workspace, with its own overrides

const RANGE = "from=2025-03-01&to=2025-03-03";

async function chart<C extends ChartName>(person: Person, name: C, query = RANGE): Promise<ChartData<C>> {
  const response = await person.browser.run(() => chartRoute(new Request(`http://localhost:3000/api/analytics/${name}?${query}`), { params: Promise.resolve({ chart: name }) }));
  const body = await response.text();
  expect(response.status, body).toBe(200);
  return JSON.parse(body) as ChartData<C>;
}

const zero = () => Object.fromEntries(SOURCE_CATEGORIES.map((c) => [c, 0])) as Record<SourceCategory, number>;
const counts = (partial: Partial<Record<SourceCategory, number>>) => ({ ...zero(), ...partial });

beforeAll(async () => {
  A = await buildWorld("Sources A");
  B = await buildWorld("Sources B");
}, 120_000);

describe("source categories over time", () => {
  it("counts cited sources per category and day, by hand", async () => {
    const data = await chart(A.person, "source-categories");
    expect(data.unit).toBe("day");
    expect(data.points.map((p) => p.bucket)).toEqual(["2025-03-01", "2025-03-02", "2025-03-03"]);
    // 03-01: G1 g2 x2, reddit, rival.com; G2 g2, forbes (z.com only retrieved).
    expect(data.points[0]!.counts).toEqual(counts({ review: 3, forum: 1, competitor: 1, news: 1 }));
    // 03-02: G3 reddit, example.org, other-brand.co.uk; N1 g2, acme.com x2.
    expect(data.points[1]!.counts).toEqual(counts({ forum: 1, other: 1, review: 1, own: 2, competitor: 1 }));
    // 03-03: N2 capterra; N3 acme.com, wikipedia.org.
    expect(data.points[2]!.counts).toEqual(counts({ review: 1, own: 1, reference: 1 }));
    const totals = Object.fromEntries(data.categories.map((c) => [c.category, c.citations]));
    expect(totals).toEqual(counts({ review: 5, forum: 2, competitor: 2, news: 1, other: 1, own: 3, reference: 1 }));
    expect(data.categories.find((c) => c.category === "review")!.share).toBeCloseTo(5 / 15, 10);
  });

  it("agrees with the raw citations categorized one by one, with any filter", async () => {
    for (const query of [RANGE, `${RANGE}&providers=${A.P1}`, `${RANGE}&tags=pricing`, `${RANGE}&tags=pricing,buying`]) {
      const data = await chart(A.person, "source-categories", query);
      const params = new URLSearchParams(query);
      const providers = params.get("providers")?.split(",");
      const tags = params.get("tags")?.split(",");
      const raw = await db().citation.findMany({
        where: {
          workspaceId: A.workspaceId, citedInText: true,
          capture: {
            status: "succeeded", finishedAt: { gte: new Date("2025-03-01"), lt: new Date("2025-03-04") },
            ...(providers ? { providerConfigId: { in: providers } } : {}),
            ...(tags ? { prompt: { tags: { hasSome: tags } } } : {}),
          },
        },
        select: { domain: true },
      });
      const ctx = categoryContext({ ownDomains: ["acme.com"], competitorDomains: ["rival.com", "other-brand.co.uk"] });
      const expected = zero();
      for (const c of raw) expected[categorize(c.domain, ctx)] += 1;
      expect(Object.fromEntries(data.categories.map((c) => [c.category, c.citations])), query).toEqual(expected);
    }
  });
});

describe("own pages cited most", () => {
  it("lists the brand's pages by citations, with the answers citing them", async () => {
    const data = await chart(A.person, "own-pages");
    expect(data.items).toEqual([
      { url: "https://acme.com/", domain: "acme.com", title: "Acme", citations: 2, captures: 2 },
      { url: "https://acme.com/pricing", domain: "acme.com", title: "Pricing", citations: 1, captures: 1 },
    ]);
    expect((await chart(A.person, "own-pages", `${RANGE}&providers=${A.P1}`)).items).toEqual([]);
  });
});

describe("gap sources", () => {
  it("ranks the domains of answers naming a competitor and not the brand, by hand", async () => {
    const data = await chart(A.person, "gap-sources", `${RANGE}&includeEntityDomains=true`);
    // Gap answers: G1, G2, G3 (N2 names no competitor; L1 is outside the range; F1 failed).
    expect(data.gapAnswers).toBe(3);
    expect(data.items.map(({ domain, category, answers, competitors }) => ({ domain, category, answers, competitors }))).toEqual([
      { domain: "g2.com", category: "review", answers: 2, competitors: [{ name: "Rival", answers: 2 }, { name: "Other", answers: 1 }] },
      { domain: "reddit.com", category: "forum", answers: 2, competitors: [{ name: "Other", answers: 1 }, { name: "Rival", answers: 1 }] },
      { domain: "example.org", category: "other", answers: 1, competitors: [{ name: "Other", answers: 1 }] },
      { domain: "forbes.com", category: "news", answers: 1, competitors: [{ name: "Other", answers: 1 }, { name: "Rival", answers: 1 }] },
      { domain: "other-brand.co.uk", category: "competitor", answers: 1, competitors: [{ name: "Other", answers: 1 }] },
      { domain: "rival.com", category: "competitor", answers: 1, competitors: [{ name: "Rival", answers: 1 }] },
    ]);
    const g2 = data.items[0]!;
    expect(g2.value).toBeCloseTo(2 / 3, 10);
    expect(g2.n).toBe(3);
    expect(g2.low).toBeLessThan(2 / 3);
    expect(g2.high).toBeGreaterThan(2 / 3);
  });

  it("leaves out the brand's and the competitors' own sites by default, subdomains included, and nothing else changes", async () => {
    const all = await chart(A.person, "gap-sources", `${RANGE}&includeEntityDomains=true`);
    const data = await chart(A.person, "gap-sources");
    // rival.com (Rival's site) and other-brand.co.uk (Other's, entered as shop.other-brand.co.uk and
    // cited on help.other-brand.co.uk) go; every other row keeps its numbers.
    expect(data.gapAnswers).toBe(all.gapAnswers);
    expect(data.items).toEqual(all.items.filter((i) => !["rival.com", "other-brand.co.uk"].includes(i.domain)));
    expect(data.items.map((i) => i.domain)).toEqual(["g2.com", "reddit.com", "example.org", "forbes.com"]);
    expect(await chart(A.person, "gap-sources", `${RANGE}&includeEntityDomains=false`)).toEqual(data);
  });

  it("refuses an includeEntityDomains that is not true or false", async () => {
    const response = await A.person.browser.run(() =>
      chartRoute(new Request(`http://localhost:3000/api/analytics/gap-sources?${RANGE}&includeEntityDomains=yes`), { params: Promise.resolve({ chart: "gap-sources" }) }),
    );
    expect(response.status).toBe(400);
    expect(await response.text()).toMatch(/includeEntityDomains.*true or false/);
  });

  it("follows the filters", async () => {
    const p1 = await chart(A.person, "gap-sources", `${RANGE}&providers=${A.P1}`);
    expect(p1.gapAnswers).toBe(2);
    expect(p1.items.map((i) => [i.domain, i.answers])).toEqual([["reddit.com", 2], ["example.org", 1], ["g2.com", 1]]);
    const p1All = await chart(A.person, "gap-sources", `${RANGE}&providers=${A.P1}&includeEntityDomains=true`);
    expect(p1All.items.map((i) => [i.domain, i.answers])).toEqual([["reddit.com", 2], ["example.org", 1], ["g2.com", 1], ["other-brand.co.uk", 1], ["rival.com", 1]]);
    const pricing = await chart(A.person, "gap-sources", `${RANGE}&tags=pricing`);
    expect(pricing.gapAnswers).toBe(1);
    expect(pricing.items.map((i) => [i.domain, i.answers])).toEqual([["example.org", 1], ["reddit.com", 1]]);
    const empty = await chart(A.person, "gap-sources", "from=2025-01-01&to=2025-01-31");
    expect(empty).toEqual({ gapAnswers: 0, items: [] });
  });

  it("agrees with the raw rows", async () => {
    const captures = await db().capture.findMany({
      where: { workspaceId: A.workspaceId, status: "succeeded", finishedAt: { gte: new Date("2025-03-01"), lt: new Date("2025-03-04") } },
      select: { mentions: true, citations: true },
    });
    const gap = captures.filter((c) => c.mentions.some((m) => m.kind === "brand" && !m.mentioned) && c.mentions.some((m) => m.kind === "competitor" && m.mentioned));
    const byDomain = new Map<string, number>();
    const entity = new Set(["acme.com", "rival.com", "other-brand.co.uk"]);
    for (const c of gap) for (const d of new Set(c.citations.filter((ci) => ci.citedInText && !ci.isOwnDomain && !entity.has(ci.domain)).map((ci) => ci.domain))) byDomain.set(d, (byDomain.get(d) ?? 0) + 1);
    const expected = [...byDomain].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
    const data = await chart(A.person, "gap-sources");
    expect(data.gapAnswers).toBe(gap.length);
    expect(data.items.map((i) => [i.domain, i.answers])).toEqual(expected);
  });
});

describe("a workspace's own categories", () => {
  it("an admin's override applies to its workspace's charts alone, and can be undone", async () => {
    const saved = ok(await A.person.browser.run(() => setSourceCategoryAction({ domain: " WWW.Example.org ", category: "news" })));
    expect(saved.map(({ domain, category, shipped }) => ({ domain, category, shipped }))).toEqual([{ domain: "example.org", category: "news", shipped: "other" }]);
    ok(await B.person.browser.run(() => setSourceCategoryAction({ domain: "example.org", category: "forum" })));

    const gapA = await chart(A.person, "gap-sources");
    expect(gapA.items.find((i) => i.domain === "example.org")!.category).toBe("news");
    const categoriesA = await chart(A.person, "source-categories");
    expect(categoriesA.points[1]!.counts).toEqual(counts({ forum: 1, news: 1, review: 1, own: 2, competitor: 1 }));
    expect((await chart(B.person, "gap-sources")).items.find((i) => i.domain === "example.org")!.category).toBe("forum");

    // Own and competitor follow the brand: an override of a competitor's domain changes nothing.
    ok(await A.person.browser.run(() => setSourceCategoryAction({ domain: "rival.com", category: "review" })));
    expect((await chart(A.person, "gap-sources", `${RANGE}&includeEntityDomains=true`)).items.find((i) => i.domain === "rival.com")!.category).toBe("competitor");

    ok(await A.person.browser.run(() => setSourceCategoryAction({ domain: "example.org", category: null })));
    ok(await A.person.browser.run(() => setSourceCategoryAction({ domain: "rival.com", category: null })));
    expect(ok(await A.person.browser.run(() => listSourceCategoriesAction()))).toEqual([]);
    expect((await chart(A.person, "gap-sources")).items.find((i) => i.domain === "example.org")!.category).toBe("other");
    expect(await db().sourceCategoryOverride.count({ where: { workspaceId: B.workspaceId } })).toBe(1);
  });

  it("refuses members and bad input, changing nothing", async () => {
    const member = await join(A.person, "member");
    refused(await member.browser.run(() => setSourceCategoryAction({ domain: "g2.com", category: "news" })), "forbidden");
    expectFieldError(await A.person.browser.run(() => setSourceCategoryAction({ domain: "https://docs.g2.com/x", category: "news" })), "domain", /registrable domain/);
    expectFieldError(await A.person.browser.run(() => setSourceCategoryAction({ domain: "g2.com", category: "own" as "news" })), "category", /./);
    expect(await db().sourceCategoryOverride.count({ where: { workspaceId: A.workspaceId } })).toBe(0);
  });
});
