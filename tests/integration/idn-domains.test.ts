// A brand whose site has an international name ("bücher.de"): citations, crawler hits and visits
// carry the name's ASCII form ("xn--bcher-kva.de"), so the brand's domains are stored in that form
// too (lib/sources/host.ts), and brands stored earlier as typed are rewritten by the repair pass
// and re-analysed (canonicalizeStoredDomains).
import { beforeAll, describe, expect, it } from "vitest";
import { createTenant, type Tenant } from "../support/api-fixtures";
import { rollupsAndRebuild } from "../support/rollup-rebuild";
import { canonicalizeStoredDomains, updateBrand } from "@/lib/brands/brands";
import { runReanalysis } from "@/lib/brands/reanalysis";
import { brandInputSchema } from "@/lib/brands/schemas";
import { db } from "@/lib/db/prisma";
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

    expect(await canonicalizeStoredDomains()).toEqual({ rewritten: [T.brandId], refused: [] });
    const brand = await db().brand.findUniqueOrThrow({ where: { id: T.brandId }, include: { competitors: true } });
    expect(brand.domains).toEqual(["xn--bcher-kva.de"]);
    expect(brand.competitors.map((c) => c.domains)).toEqual([["xn--rival-bcher-zhb.at"]]);
    expect(brand.analysisVersion).toBe(before.analysisVersion + 1);
    // Nothing left to rewrite: a second pass (another worker's) changes nothing.
    expect(await canonicalizeStoredDomains()).toEqual({ rewritten: [], refused: [] });

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

  it("leaves a brand the form would refuse as it is, and says so", async () => {
    const other = await createTenant("Refused");
    await db().brand.update({ where: { id: other.brandId }, data: { domains: ["bü cher.de"] } });
    const result = await canonicalizeStoredDomains();
    expect(result).toEqual({ rewritten: [], refused: [other.brandId] });
    expect((await db().brand.findUniqueOrThrow({ where: { id: other.brandId } })).domains).toEqual(["bü cher.de"]);
  });
});
