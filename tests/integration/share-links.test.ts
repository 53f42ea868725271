// Reports to share (issue 12): a read-only link to one brand's Overview for a period. A link
// opens exactly the numbers the dashboard shows for that brand, period and filter (read over
// GET /api/analytics/<chart> as the browser reads them), and nothing once it is expired,
// revoked, unknown, or its brand is gone. Only admins create and revoke links and set the
// agency name and logo; bad input changes nothing. Actions, routes and the database run for
// real; only next/headers is simulated.
import { createHash, randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { expectFieldError, join, ok, refused, signUp, type Person } from "../support/workspace-fixtures";
import { GET as chartRoute } from "@/app/api/analytics/[chart]/route";
import { GET as sharedLogoRoute } from "@/app/share/[token]/logo/route";
import { createShareLinkAction, listShareLinksAction, revokeShareLinkAction, setBrandingAction } from "@/lib/actions/share-links";
import { recordRollups } from "@/lib/analytics/rollups";
import { filterSearchParams, lastDays } from "@/lib/analytics/schemas";
import { db } from "@/lib/db/prisma";
import { openSharedReport, withoutInternalIds } from "@/lib/share-links/report";
import { SHARED_CHARTS, type CreateShareLinkInput } from "@/lib/share-links/schemas";

vi.mock("next/headers", () => import("../support/request-context").then((m) => m.nextHeadersMock));

// ---------------------------------------------------------------------------------------------
// The fixture: per workspace, the brand Acme (competitor Rival) and the brand Zeta, two providers
// and one prompt. Range under test 2025-03-01 .. 2025-03-03.

type Spec = { at: string; brand: "Acme" | "Zeta"; provider: "P1" | "P2"; mentioned: boolean; rival: boolean; cites?: string[] };

const HISTORY: Spec[] = [
  { at: "2025-03-01T10:00:00Z", brand: "Acme", provider: "P1", mentioned: true, rival: true, cites: ["https://g2.com/a", "https://acme.com/"] },
  { at: "2025-03-01T12:00:00Z", brand: "Acme", provider: "P2", mentioned: false, rival: true, cites: ["https://g2.com/a"] },
  { at: "2025-03-02T10:00:00Z", brand: "Acme", provider: "P1", mentioned: false, rival: false },
  { at: "2025-03-03T10:00:00Z", brand: "Acme", provider: "P1", mentioned: true, rival: false, cites: ["https://reddit.com/r/x"] },
  { at: "2025-03-03T11:00:00Z", brand: "Acme", provider: "P2", mentioned: true, rival: true },
  // Outside the range, and another brand: neither is in Acme's report.
  { at: "2025-03-05T10:00:00Z", brand: "Acme", provider: "P1", mentioned: false, rival: true },
  { at: "2025-03-02T10:00:00Z", brand: "Zeta", provider: "P1", mentioned: true, rival: false },
  { at: "2025-03-02T11:00:00Z", brand: "Zeta", provider: "P1", mentioned: true, rival: false },
];

type World = { owner: Person; workspaceId: string; acme: string; zeta: string; P1: string; P2: string };

async function buildWorld(workspaceName: string): Promise<World> {
  const owner = await signUp({ name: `${workspaceName} Owner`, workspaceName });
  const workspaceId = owner.workspaceId;
  const acme = await db().brand.create({
    data: { workspaceId, name: "Acme", domains: ["acme.com"], competitors: { create: [{ workspaceId, name: "Rival" }] } },
    include: { competitors: true },
  });
  const zeta = await db().brand.create({ data: { workspaceId, name: "Zeta" } });
  const simulator = await db().providerConnection.findFirstOrThrow({ where: { adapter: "simulator" } });
  const provider = (name: string) => db().providerConfig.create({ data: { workspaceId, name, connectionId: simulator.id, model: `${name}-model` } });
  const [p1, p2] = [await provider("Alpha"), await provider("Beta")];
  const prompt = await db().prompt.create({ data: { workspaceId, text: "Best anvil?", tags: ["buying"] } });
  const ids: string[] = [];
  for (const brandName of ["Acme", "Zeta"] as const) {
    const brandId = brandName === "Acme" ? acme.id : zeta.id;
    const specs = HISTORY.filter((s) => s.brand === brandName);
    const check = await db().check.create({ data: { workspaceId, brandId, totalCaptures: specs.length, status: "completed", isDemo: true } });
    for (const [i, spec] of specs.entries()) {
      const capture = await db().capture.create({
        data: {
          workspaceId, checkId: check.id, brandId, promptId: prompt.id, providerConfigId: spec.provider === "P1" ? p1.id : p2.id,
          connectionId: simulator.id, sample: i + 1, status: "succeeded", maxAttempts: 3, attemptCount: 1, model: "m", searchMode: "auto",
          answerText: "An answer", finishedAt: new Date(spec.at), analyzedAt: new Date(spec.at),
        },
      });
      ids.push(capture.id);
      const row = (kind: "brand" | "competitor", name: string, mentioned: boolean, ref: { brandId?: string; competitorId?: string }) => ({
        workspaceId, captureId: capture.id, kind, name, mentioned, count: mentioned ? 1 : 0, position: mentioned ? (kind === "brand" ? 1 : 2) : null,
        sentiment: mentioned ? ("positive" as const) : null, brandId: ref.brandId ?? null, competitorId: ref.competitorId ?? null,
      });
      await db().mention.createMany({
        data: [
          row("brand", brandName, spec.mentioned, { brandId }),
          ...(brandName === "Acme" ? [row("competitor", "Rival", spec.rival, { competitorId: acme.competitors[0]!.id })] : []),
        ],
      });
      await db().citation.createMany({
        data: (spec.cites ?? []).map((url, position) => ({
          workspaceId, captureId: capture.id, url, domain: new URL(url).hostname, isOwnDomain: url.includes("acme.com"), citedInText: true, position: position + 1,
        })),
      });
    }
  }
  await recordRollups(db(), ids);
  return { owner, workspaceId, acme: acme.id, zeta: zeta.id, P1: p1.id, P2: p2.id };
}

let A: World;
let B: World;
let member: Person;

const FIXED = { kind: "fixed", from: "2025-03-01", to: "2025-03-03" } as const;
const linkFor = (world: World, changes: Partial<CreateShareLinkInput> = {}): CreateShareLinkInput => ({
  brandId: world.acme, label: "Client report", providers: [], tags: [], markets: [], period: FIXED, expiresInDays: 30, ...changes,
});

async function createLink(person: Person, input: CreateShareLinkInput) {
  return ok(await person.browser.run(() => createShareLinkAction(input)));
}

/** A chart as the signed-in dashboard reads it. */
async function dashboardChart(person: Person, chart: string, query: URLSearchParams): Promise<unknown> {
  const response = await person.browser.run(() => chartRoute(new Request(`http://localhost:3000/api/analytics/${chart}?${query}`), { params: Promise.resolve({ chart }) }));
  const body = await response.text();
  expect(response.status, body).toBe(200);
  return JSON.parse(body);
}

const shareLinkCount = (workspaceId: string) => db().shareLink.count({ where: { workspaceId } });

beforeAll(async () => {
  A = await buildWorld("Share A");
  B = await buildWorld("Share B");
  member = await join(A.owner, "member", "Mo Member");
}, 120_000);

describe("a share link's report", () => {
  it("shows exactly the dashboard's numbers for that brand, period and filter", async () => {
    for (const providers of [[], [A.P1]]) {
      const link = await createLink(A.owner, linkFor(A, { providers }));
      const report = await openSharedReport(link.token);
      expect(report).not.toBeNull();
      expect(report!.brandName).toBe("Acme");
      const filter = { brandId: A.acme, providers, tags: [], markets: [], from: "2025-03-01", to: "2025-03-03" };
      const query = filterSearchParams(filter);
      const dashboard = Object.fromEntries(await Promise.all(SHARED_CHARTS.map(async (chart) => [chart, await dashboardChart(A.owner, chart, query)] as const)));
      // The same numbers, the ids aliased the same way in the filter and the charts.
      const shown = withoutInternalIds({ filter, charts: dashboard });
      expect(report!.filter).toEqual(shown.filter);
      expect(report!.filter.brandId).toBe("ref1");
      for (const chart of SHARED_CHARTS) expect(report!.charts[chart], `${chart} with providers ${providers}`).toEqual(shown.charts[chart]);
    }
  });

  it("carries no internal id: no workspace, brand, competitor, provider, prompt, check, capture or link id reaches the page", async () => {
    const link = await createLink(A.owner, linkFor(A, { providers: [A.P1, A.P2], tags: ["buying"] }));
    const report = await openSharedReport(link.token);
    expect(report).not.toBeNull();
    // Everything the page is rendered from (the server component's props, serialised into the HTML).
    const props = JSON.stringify({ report, token: link.token });
    const ids = new Set<string>([A.workspaceId, link.id]);
    const rows = await db().$queryRaw<{ id: string }[]>`
      SELECT id::text FROM brands WHERE "workspaceId" = ${A.workspaceId}::uuid
      UNION ALL SELECT id::text FROM competitors WHERE "workspaceId" = ${A.workspaceId}::uuid
      UNION ALL SELECT id::text FROM provider_configs WHERE "workspaceId" = ${A.workspaceId}::uuid
      UNION ALL SELECT "connectionId"::text FROM provider_configs WHERE "workspaceId" = ${A.workspaceId}::uuid
      UNION ALL SELECT id::text FROM prompts WHERE "workspaceId" = ${A.workspaceId}::uuid
      UNION ALL SELECT id::text FROM checks WHERE "workspaceId" = ${A.workspaceId}::uuid
      UNION ALL SELECT id::text FROM captures WHERE "workspaceId" = ${A.workspaceId}::uuid
      UNION ALL SELECT "userId"::text FROM memberships WHERE "workspaceId" = ${A.workspaceId}::uuid`;
    for (const r of rows) ids.add(r.id);
    expect(ids.size).toBeGreaterThan(10);
    expect([...ids].filter((id) => props.includes(id))).toEqual([]);
    // Nor any other UUID-shaped string.
    expect(props.match(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi)).toBeNull();
    // What it shows stays: the brand, its competitor, the providers' names and the numbers.
    expect(report!.brandName).toBe("Acme");
    expect(report!.providers).toEqual(["Alpha", "Beta"]);
    expect(props).toContain("Rival");
  });

  it("counts the brand's answers of the period only, by hand", async () => {
    const link = await createLink(A.owner, linkFor(A));
    const kpis = (await openSharedReport(link.token))!.charts.kpis as { visibility: { current: { n: number; value: number; low: number; high: number } } };
    // Acme in range: 5 answers, mentioned in 3 (not the 03-05 one, not Zeta's).
    expect(kpis.visibility.current.n).toBe(5);
    expect(kpis.visibility.current.value).toBeCloseTo(3 / 5, 10);
    expect(kpis.visibility.current.low).toBeLessThan(0.6);
    expect(kpis.visibility.current.high).toBeGreaterThan(0.6);
    const p1 = await createLink(A.owner, linkFor(A, { providers: [A.P1] }));
    const p1Kpis = (await openSharedReport(p1.token))!.charts.kpis as typeof kpis;
    expect(p1Kpis.visibility.current.n).toBe(3);
    expect(p1Kpis.visibility.current.value).toBeCloseTo(2 / 3, 10);
  });

  it("keeps a rolling period rolling: the last N days up to the day it is opened", async () => {
    const link = await createLink(A.owner, linkFor(A, { period: { kind: "rolling", days: 7 } }));
    const report = await openSharedReport(link.token);
    expect(report!.rolling).toBe(7);
    expect({ from: report!.filter.from, to: report!.filter.to }).toEqual(lastDays(7));
  });

  it("says while the brand's past answers are re-analysed (or that failed), and nothing of the run itself", async () => {
    const link = await createLink(A.owner, linkFor(A, {}));
    expect((await openSharedReport(link.token))!.reanalysing).toBe(false);
    const run = await db().analysisRun.create({ data: { workspaceId: A.workspaceId, brandId: A.acme, status: "running", total: 40, done: 12, startedAt: new Date() } });
    try {
      const report = (await openSharedReport(link.token))!;
      expect(report.reanalysing).toBe(true);
      expect(JSON.stringify(report)).not.toContain(run.id);
      await db().analysisRun.update({ where: { id: run.id }, data: { status: "failed", error: "connection lost", finishedAt: new Date() } });
      expect(JSON.stringify(await openSharedReport(link.token))).not.toContain("connection lost");
      expect((await openSharedReport(link.token))!.reanalysing, "a failed run: the numbers stay mixed").toBe(true);
      await db().analysisRun.update({ where: { id: run.id }, data: { status: "completed" } });
      expect((await openSharedReport(link.token))!.reanalysing).toBe(false);
    } finally {
      await db().analysisRun.delete({ where: { id: run.id } });
    }
  });

  it("stores only a hash of the token, and counts views", async () => {
    const link = await createLink(A.owner, linkFor(A));
    expect(link.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const row = await db().shareLink.findUniqueOrThrow({ where: { id: link.id } });
    expect(row.tokenHash).toBe(createHash("sha256").update(link.token).digest("hex"));
    expect(JSON.stringify(row)).not.toContain(link.token);
    expect(row.viewCount).toBe(0);
    await openSharedReport(link.token);
    await openSharedReport(link.token);
    const seen = await db().shareLink.findUniqueOrThrow({ where: { id: link.id } });
    expect(seen.viewCount).toBe(2);
    expect(seen.lastViewedAt).not.toBeNull();
  });
});

describe("links that do not open", () => {
  it("an expired link opens nothing", async () => {
    const link = await createLink(A.owner, linkFor(A));
    expect(await openSharedReport(link.token)).not.toBeNull();
    await db().$executeRaw`UPDATE share_links SET "expiresAt" = now() - interval '1 second' WHERE id = ${link.id}::uuid`;
    expect(await openSharedReport(link.token)).toBeNull();
    const listed = ok(await A.owner.browser.run(() => listShareLinksAction())).find((l) => l.id === link.id);
    expect(listed?.status).toBe("expired");
  });

  it("a revoked link opens nothing, at once", async () => {
    const link = await createLink(A.owner, linkFor(A));
    expect(await openSharedReport(link.token)).not.toBeNull();
    ok(await A.owner.browser.run(() => revokeShareLinkAction({ shareLinkId: link.id })));
    expect(await openSharedReport(link.token)).toBeNull();
    expect(ok(await A.owner.browser.run(() => listShareLinksAction())).find((l) => l.id === link.id)?.status).toBe("revoked");
    // Revoking twice is "not found", not a second write.
    refused(await A.owner.browser.run(() => revokeShareLinkAction({ shareLinkId: link.id })), "not_found");
  });

  it("unknown, malformed and near-miss tokens open nothing", async () => {
    const link = await createLink(A.owner, linkFor(A));
    const nearMiss = `${link.token.slice(0, -1)}${link.token.endsWith("A") ? "B" : "A"}`;
    for (const token of [nearMiss, "x".repeat(43), "", "../../api/analytics/kpis", createHash("sha256").update(link.token).digest("hex")]) {
      expect(await openSharedReport(token), token).toBeNull();
    }
  });

  it("a link whose brand was deleted opens nothing", async () => {
    const brand = await db().brand.create({ data: { workspaceId: A.workspaceId, name: `Gone ${randomUUID().slice(0, 6)}` } });
    const link = await createLink(A.owner, linkFor(A, { brandId: brand.id }));
    expect(await openSharedReport(link.token)).not.toBeNull();
    await db().brand.delete({ where: { id: brand.id } });
    expect(await openSharedReport(link.token)).toBeNull();
  });

  it("a link whose provider was deleted opens nothing (its filter no longer means what it did)", async () => {
    const simulator = await db().providerConnection.findFirstOrThrow({ where: { adapter: "simulator" } });
    const provider = await db().providerConfig.create({ data: { workspaceId: A.workspaceId, name: "Temporary", connectionId: simulator.id, model: "t" } });
    const link = await createLink(A.owner, linkFor(A, { providers: [provider.id] }));
    expect(await openSharedReport(link.token)).not.toBeNull();
    await db().providerConfig.delete({ where: { id: provider.id } });
    expect(await openSharedReport(link.token)).toBeNull();
  });
});

describe("workspaces stay apart", () => {
  it("another workspace's link shows only its own data, and cannot revoke or list this one's", async () => {
    const linkA = await createLink(A.owner, linkFor(A));
    const linkB = await createLink(B.owner, linkFor(B));
    const reportB = await openSharedReport(linkB.token);
    // B's report is B's dashboard (ids aliased); nothing of A's is in it.
    const filter = { brandId: B.acme, providers: [], tags: [], markets: [], from: FIXED.from, to: FIXED.to };
    const query = filterSearchParams(filter);
    const dashboard = Object.fromEntries(await Promise.all(SHARED_CHARTS.map(async (chart) => [chart, await dashboardChart(B.owner, chart, query)] as const)));
    expect({ filter: reportB!.filter, charts: reportB!.charts }).toEqual(withoutInternalIds({ filter, charts: dashboard }));
    expect(JSON.stringify(reportB)).not.toContain(A.acme);
    expect(JSON.stringify(reportB)).not.toContain(A.workspaceId);

    refused(await B.owner.browser.run(() => revokeShareLinkAction({ shareLinkId: linkA.id })), "not_found");
    expect(await openSharedReport(linkA.token)).not.toBeNull();
    const listedByB = ok(await B.owner.browser.run(() => listShareLinksAction()));
    expect(listedByB.map((l) => l.id)).not.toContain(linkA.id);
  });

  it("a brand or provider of another workspace is refused, and nothing is created", async () => {
    const before = await shareLinkCount(A.workspaceId);
    refused(await A.owner.browser.run(() => createShareLinkAction(linkFor(A, { brandId: B.acme }))), "not_found");
    refused(await A.owner.browser.run(() => createShareLinkAction(linkFor(A, { providers: [B.P1] }))), "not_found");
    expect(await shareLinkCount(A.workspaceId)).toBe(before);
    expect(await shareLinkCount(B.workspaceId)).toBeGreaterThan(0);
  });
});

describe("who may share", () => {
  it("members may not create, list or revoke links, nor set the branding", async () => {
    const link = await createLink(A.owner, linkFor(A));
    const before = await shareLinkCount(A.workspaceId);
    refused(await member.browser.run(() => createShareLinkAction(linkFor(A))), "forbidden");
    refused(await member.browser.run(() => listShareLinksAction()), "forbidden");
    refused(await member.browser.run(() => revokeShareLinkAction({ shareLinkId: link.id })), "forbidden");
    refused(await member.browser.run(() => setBrandingAction({ agencyName: "Sneaky" })), "forbidden");
    expect(await shareLinkCount(A.workspaceId)).toBe(before);
    expect(await openSharedReport(link.token)).not.toBeNull();
    expect(await db().workspaceBranding.findUnique({ where: { workspaceId: A.workspaceId } })).toBeNull();
  });

  it("an admin may", async () => {
    const admin = await join(A.owner, "admin", "Ada Admin");
    const link = ok(await admin.browser.run(() => createShareLinkAction(linkFor(A))));
    ok(await admin.browser.run(() => revokeShareLinkAction({ shareLinkId: link.id })));
  });
});

describe("bad input is refused with a clear message and creates nothing", () => {
  it.each([
    ["an expiry past 90 days", { expiresInDays: 91 }, "expiresInDays", /at most 90 days/],
    ["no expiry", { expiresInDays: 0 }, "expiresInDays", /at least 1 day/],
    ["a rolling period the dashboard does not offer", { period: { kind: "rolling", days: 14 } }, "period", /last 7, 30, 90 days/],
    ["a start after the end", { period: { kind: "fixed", from: "2025-03-05", to: "2025-03-01" } }, "period", /start date must not be after the end date/],
    ["more than 400 days", { period: { kind: "fixed", from: "2023-01-01", to: "2025-03-01" } }, "period", /at most 400 days/],
    ["a label with a line break", { label: "a\nb" }, "label", /line break/],
  ] as const)("%s", async (_name, changes, field, message) => {
    const before = await shareLinkCount(A.workspaceId);
    expectFieldError(await A.owner.browser.run(() => createShareLinkAction(linkFor(A, changes as Partial<CreateShareLinkInput>))), field, message);
    expect(await shareLinkCount(A.workspaceId)).toBe(before);
  });
});

describe("agency branding", () => {
  const png = (size: number) => Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(size - 8, 1)]);

  it("refuses an SVG, a file posing as PNG and a file over 200 KB, changing nothing", async () => {
    ok(await A.owner.browser.run(() => setBrandingAction({ agencyName: "North Agency", logo: png(1024).toString("base64") })));
    const before = await db().workspaceBranding.findUniqueOrThrow({ where: { workspaceId: A.workspaceId } });
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    const fakePng = Buffer.concat([Buffer.from("GIF89a"), Buffer.alloc(100)]);
    for (const [bytes, message] of [[svg, /PNG, JPEG or WebP/], [fakePng, /PNG, JPEG or WebP/], [png(200 * 1024 + 1), /at most 200 KB/]] as const) {
      expectFieldError(await A.owner.browser.run(() => setBrandingAction({ agencyName: "Changed", logo: bytes.toString("base64") })), "logo", message);
    }
    expectFieldError(await A.owner.browser.run(() => setBrandingAction({ agencyName: "Changed", logo: "not base64!" })), "logo", /base64/);
    const after = await db().workspaceBranding.findUniqueOrThrow({ where: { workspaceId: A.workspaceId } });
    expect(after).toEqual(before);
  });

  it("puts the name on the report and serves the logo by the link's token only, as an image that cannot run", async () => {
    const logo = png(2048);
    ok(await A.owner.browser.run(() => setBrandingAction({ agencyName: "North Agency", logo: logo.toString("base64") })));
    const link = await createLink(A.owner, linkFor(A));
    const report = await openSharedReport(link.token);
    expect(report!.agency).toEqual({ name: "North Agency", hasLogo: true });
    const get = (token: string) => sharedLogoRoute(new Request(`http://localhost:3000/share/${token}/logo`), { params: Promise.resolve({ token }) });
    const response = await get(link.token);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("image/png");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("content-security-policy")).toBe("default-src 'none'");
    expect(Buffer.from(await response.arrayBuffer()).equals(logo)).toBe(true);
    // B has no logo; a revoked link serves none.
    const linkB = await createLink(B.owner, linkFor(B));
    expect((await get(linkB.token)).status).toBe(404);
    ok(await A.owner.browser.run(() => revokeShareLinkAction({ shareLinkId: link.id })));
    expect((await get(link.token)).status).toBe(404);
    // Removing the logo; the name stays.
    ok(await A.owner.browser.run(() => setBrandingAction({ agencyName: "North Agency", logo: null })));
    const fresh = await createLink(A.owner, linkFor(A));
    expect((await openSharedReport(fresh.token))!.agency).toEqual({ name: "North Agency", hasLogo: false });
  });
});
