// A brand whose site has an international name ("bücher.de"): citations, crawler hits and visits
// carry the name's ASCII form ("xn--bcher-kva.de"), so the brand's domains are stored in that form
// too (lib/analysis/host.ts), and brands stored earlier as typed are rewritten by the workers' maintenance
// and re-analysed (canonicalizeStoredDomains).
import { beforeAll, describe, expect, it } from "vitest";
import { createTenant, type Tenant } from "../support/api-fixtures";
import { gateAt, lockWaiters } from "../support/pause";
import { waitFor } from "../support/wait-for";
import { rollupsAndRebuild } from "../support/rollup-rebuild";
import { analyzeAnswer } from "@/lib/analysis/analyze";
import { canonicalizeStoredDomains, updateBrand } from "@/lib/brands/brands";
import { runReanalysis } from "@/lib/brands/reanalysis";
import { brandInputSchema } from "@/lib/brands/schemas";
import { db } from "@/lib/db/prisma";
import { canonicalizeStoredOverrides, setSourceCategory } from "@/lib/sources/overrides";
import { recordVisit, rotateSiteKey } from "@/lib/traffic/visits";

let T: Tenant;

async function addAnsweredCapture(answer: string) {
  const provider = await db().providerConfig.findFirstOrThrow({ where: { workspaceId: T.workspaceId } });
  const check = await db().check.create({ data: { workspaceId: T.workspaceId, brandId: T.brandId, totalCaptures: 1, status: "completed" } });
  return db().capture.create({
    data: {
      workspaceId: T.workspaceId, checkId: check.id, brandId: T.brandId, promptId: T.promptIds[0]!, providerConfigId: provider.id, connectionId: provider.connectionId,
      sample: 1, status: "succeeded", maxAttempts: 3, model: "m", searchMode: "off", answerText: answer, finishedAt: new Date(),
    },
  });
}

/** Runs the brand's queued re-analysis, as its job would. */
async function reanalyse() {
  const run = await db().analysisRun.findFirstOrThrow({ where: { brandId: T.brandId, status: "queued" }, orderBy: { createdAt: "desc" } });
  await runReanalysis(run.id);
}

beforeAll(async () => {
  T = await createTenant("Bücherwelt");
});

describe("international domain names", () => {
  it("a brand stored with its domain as typed is rewritten once, re-analysed, and its citations and visits become its own", async () => {
    // Recorded while the brand had no domains: neither citation is its own.
    const capture = await addAnsweredCapture("See https://bücher.de/preise and https://www.rival-bücher.at/test for prices.");
    await db().citation.createMany({
      data: [
        { workspaceId: T.workspaceId, captureId: capture.id, url: "https://xn--bcher-kva.de/preise", domain: "xn--bcher-kva.de", position: 1 },
        { workspaceId: T.workspaceId, captureId: capture.id, url: "https://www.xn--rival-bcher-zhb.at/test", domain: "xn--rival-bcher-zhb.at", position: 2 },
      ],
    });
    await db().$executeRaw`SELECT beacon_rollup_captures(${[capture.id]}::uuid[], 1)`;
    await updateBrand(T.workspaceId, T.brandId, brandInputSchema.parse({ name: "Bücherwelt Brand", competitors: [{ name: "Rival" }] }));
    await reanalyse();
    const citations = () => db().citation.findMany({ where: { captureId: capture.id }, orderBy: { position: "asc" }, select: { domain: true, isOwnDomain: true } });
    expect(await citations()).toEqual([
      { domain: "xn--bcher-kva.de", isOwnDomain: false },
      { domain: "xn--rival-bcher-zhb.at", isOwnDomain: false },
    ]);

    // As a server before 2026-12-05 stored them: as typed.
    await db().brand.update({ where: { id: T.brandId }, data: { domains: ["bücher.de"] } });
    await db().competitor.updateMany({ where: { brandId: T.brandId }, data: { domains: ["Rival-Bücher.at"] } });
    const { key } = await rotateSiteKey(T.workspaceId, null);
    const before = await db().brand.findUniqueOrThrow({ where: { id: T.brandId }, select: { analysisVersion: true } });

    expect(await canonicalizeStoredDomains()).toEqual({ rewritten: [T.brandId], refused: [], failed: [] });
    const brand = await db().brand.findUniqueOrThrow({ where: { id: T.brandId }, include: { competitors: true } });
    expect(brand.domains).toEqual(["xn--bcher-kva.de"]);
    expect(brand.competitors.map((c) => c.domains)).toEqual([["xn--rival-bcher-zhb.at"]]);
    expect(brand.analysisVersion).toBe(before.analysisVersion + 1);
    // Nothing left to rewrite: a second pass (another worker's) changes nothing.
    expect(await canonicalizeStoredDomains()).toEqual({ rewritten: [], refused: [], failed: [] });

    await reanalyse();
    expect(await citations()).toEqual([
      { domain: "xn--bcher-kva.de", isOwnDomain: true },
      { domain: "xn--rival-bcher-zhb.at", isOwnDomain: false },
    ]);
    const { kept, rebuilt } = await rollupsAndRebuild(T.brandId);
    expect(kept).toEqual(rebuilt);
    // A browser reports the landing page in ASCII form; the brand's site takes the visit.
    expect(await recordVisit({ key, url: "https://www.xn--bcher-kva.de/preise", referrer: "https://chatgpt.com/" }, 100)).toBe("recorded");
  });

  it("leaves alone a brand that an edit rewrote between reading it and locking it: one new analysis version, not two", async () => {
    const E = await createTenant("Edited meanwhile");
    await db().brand.update({ where: { id: E.brandId }, data: { domains: ["bücher-edit.de"] } });
    const gate = gateAt("domains:candidates-read");
    const pass = canonicalizeStoredDomains();
    await gate.reached;
    // The admin saves the brand meanwhile (its form stores the ASCII form) and starts its re-analysis.
    await updateBrand(E.workspaceId, E.brandId, brandInputSchema.parse({ name: "Edited meanwhile Brand", domains: ["bücher-edit.de"] }));
    const edited = await db().brand.findUniqueOrThrow({ where: { id: E.brandId } });
    gate.open();
    expect(await pass).toEqual({ rewritten: [], refused: [], failed: [] });
    expect(await db().brand.findUniqueOrThrow({ where: { id: E.brandId } })).toMatchObject({ domains: ["xn--bcher-edit-9db.de"], analysisVersion: edited.analysisVersion });
  });

  it("leaves a domain the form refuses as it is, without locking the brand, and rewrites the others", async () => {
    const other = await createTenant("Refused");
    await db().brand.update({ where: { id: other.brandId }, data: { domains: ["bü cher.de"] } });
    const version = (await db().brand.findUniqueOrThrow({ where: { id: other.brandId } })).analysisVersion;
    expect(await canonicalizeStoredDomains()).toEqual({ rewritten: [], refused: [other.brandId], failed: [] });
    expect(await db().brand.findUniqueOrThrow({ where: { id: other.brandId } })).toMatchObject({ domains: ["bü cher.de"], analysisVersion: version });

    await db().brand.update({ where: { id: other.brandId }, data: { domains: ["bü cher.de", "müller.de"] } });
    expect(await canonicalizeStoredDomains()).toEqual({ rewritten: [other.brandId], refused: [], failed: [] });
    expect((await db().brand.findUniqueOrThrow({ where: { id: other.brandId } })).domains).toEqual(["bü cher.de", "xn--mller-kva.de"]);
    await db().brand.delete({ where: { id: other.brandId } });
  });

  it("changes only the domains: a name the form would now write otherwise does not clash with another brand's", async () => {
    const W = await createTenant("Clash");
    // Stored before names were NFKC-normalised: "Ａｃｍｅ" would be written "Acme", another brand's name.
    await db().brand.update({ where: { id: W.brandId }, data: { name: "Ａｃｍｅ", domains: ["ａｃｍｅ-shop.de"] } });
    await db().brand.create({ data: { workspaceId: W.workspaceId, name: "Acme", domains: ["acme.de"] } });
    expect(await canonicalizeStoredDomains()).toEqual({ rewritten: [W.brandId], refused: [], failed: [] });
    expect(await db().brand.findUniqueOrThrow({ where: { id: W.brandId } })).toMatchObject({ name: "Ａｃｍｅ", domains: ["acme-shop.de"] });
  });

  it("rewrites a source override stored as typed, the one set last winning over its ASCII form's", async () => {
    const O = await createTenant("Overrides");
    await db().sourceCategoryOverride.createMany({
      data: [
        { workspaceId: O.workspaceId, domain: "bücher.de", category: "review", updatedAt: new Date("2026-11-02T00:00:00Z") },
        { workspaceId: O.workspaceId, domain: "xn--bcher-kva.de", category: "news", updatedAt: new Date("2026-11-01T00:00:00Z") },
        { workspaceId: O.workspaceId, domain: "пример.рф", category: "forum", updatedAt: new Date("2026-11-01T00:00:00Z") },
      ],
    });
    expect(await canonicalizeStoredOverrides()).toBe(2);
    expect(await canonicalizeStoredOverrides()).toBe(0);
    const rows = await db().sourceCategoryOverride.findMany({ where: { workspaceId: O.workspaceId }, orderBy: { domain: "asc" }, select: { domain: true, category: true } });
    expect(rows).toEqual([
      { domain: "xn--bcher-kva.de", category: "review" },
      { domain: "xn--e1afmkfd.xn--p1ai", category: "forum" },
    ]);
  });

  /** Until the admin's write has finished, or queued behind the rewrite (a lock wait): it is given every chance to go first. */
  async function finishedOrQueued(write: Promise<unknown>) {
    let settled = false;
    void write.then(() => (settled = true), () => (settled = true));
    await waitFor(async () => settled || (await lockWaiters()) > 0, { what: "the admin's write to finish or queue", timeoutMs: 30_000, intervalMs: 10 });
  }

  const overridesOf = async (workspaceId: string) =>
    db().sourceCategoryOverride.findMany({ where: { workspaceId }, orderBy: { domain: "asc" }, select: { domain: true, category: true } });

  it("resets and sets a domain's category in every spelling stored, before the rewrite has run", async () => {
    const O = await createTenant("Overrides reset");
    await db().sourceCategoryOverride.createMany({
      data: [
        { workspaceId: O.workspaceId, domain: "bücher.de", category: "review" },
        { workspaceId: O.workspaceId, domain: "ＢÜＣＨＥＲ.de", category: "news" },
        { workspaceId: O.workspaceId, domain: "пример.рф", category: "forum" },
      ],
    });
    // Reset on the Sources page sends the domain as shown; the form writes it in ASCII.
    await setSourceCategory(O.workspaceId, null, "xn--bcher-kva.de", null);
    expect(await overridesOf(O.workspaceId)).toEqual([{ domain: "пример.рф", category: "forum" }]);
    await setSourceCategory(O.workspaceId, null, "xn--e1afmkfd.xn--p1ai", "news");
    expect(await overridesOf(O.workspaceId)).toEqual([{ domain: "xn--e1afmkfd.xn--p1ai", category: "news" }]);
    expect(await canonicalizeStoredOverrides()).toBe(0);
  });

  it("keeps an admin's reset made while the rewrite holds the legacy row: the rewrite does not bring the category back", async () => {
    const O = await createTenant("Overrides race");
    await db().sourceCategoryOverride.create({ data: { workspaceId: O.workspaceId, domain: "bücher.de", category: "review" } });
    const gate = gateAt("overrides:legacy-read", (c) => c.workspaceId === O.workspaceId);
    const pass = canonicalizeStoredOverrides();
    await gate.reached;
    const reset = setSourceCategory(O.workspaceId, null, "xn--bcher-kva.de", null);
    await finishedOrQueued(reset);
    gate.open();
    await Promise.all([pass, reset]);
    expect(await overridesOf(O.workspaceId)).toEqual([]);
  });

  it("keeps an admin's category set while the rewrite holds the legacy row: the one set last wins", async () => {
    const O = await createTenant("Overrides set race");
    await db().sourceCategoryOverride.create({ data: { workspaceId: O.workspaceId, domain: "bücher.de", category: "review" } });
    const gate = gateAt("overrides:legacy-read", (c) => c.workspaceId === O.workspaceId);
    const pass = canonicalizeStoredOverrides();
    await gate.reached;
    const set = setSourceCategory(O.workspaceId, null, "xn--bcher-kva.de", "news");
    await finishedOrQueued(set);
    gate.open();
    await Promise.all([pass, set]);
    expect(await overridesOf(O.workspaceId)).toEqual([{ domain: "xn--bcher-kva.de", category: "news" }]);
  });
});

describe("an international domain in an answer", () => {
  it("is a sign that a brand named like a common word is meant, written in either form", () => {
    const brand = { name: "Линия", aliases: [], domains: ["xn----jtbhanndi7a5a0i.xn--p1ai"] };
    const answer = "Прямая линия проходит через центр. Линия продаёт ноутбуки, подробности на линия-техно.рф.";
    const mention = (text: string) => analyzeAnswer({ answer: text, brand, competitors: [], language: "ru" }).entities.find((m) => m.name === "Линия");
    expect(mention(answer)).toMatchObject({ mentioned: true, count: 1 });
    expect(mention(answer.replace("линия-техно.рф", "xn----jtbhanndi7a5a0i.xn--p1ai"))).toMatchObject({ mentioned: true, count: 1 });
    expect(mention("Прямая линия проходит через центр. Линия продаёт ноутбуки.")).toMatchObject({ mentioned: false });
  });
});
