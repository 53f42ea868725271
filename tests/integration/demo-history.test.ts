// The demo seed's simulated history (lib/seed/demo-history.ts) looks like what the workers record
// for the same simulated assistants: calls that take what the simulator takes for each of them
// (seconds, within its latency settings), run a few at a time, retries after a short backoff.
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/prisma";
import { simulatorSettingsSchema } from "@/lib/providers/simulator-settings";
import { DEMO_WORKSPACE } from "@/lib/seed/demo-content";
import { seedDemo } from "@/lib/seed/demo";
import { seedDemoHistory } from "@/lib/seed/demo-history";
import { trackCompetitor } from "@/lib/brands/brands";
import { newSpace } from "../support/lifecycle-fixtures";
import { gateAt } from "../support/pause";

describe("demo history", () => {
  it("has each assistant answer within its simulator's latency range, in seconds", async () => {
    await seedDemo();
    const workspace = await db().workspace.findUniqueOrThrow({ where: { slug: DEMO_WORKSPACE.slug } });
    const { captures } = await seedDemoHistory(workspace.id, { days: 5 });
    expect(captures).toBeGreaterThan(0);

    const rows = await db().capture.findMany({
      where: { workspaceId: workspace.id },
      include: { attempts: true, providerConfig: { include: { connection: true } }, check: true },
    });
    expect(rows).toHaveLength(captures);
    const ranges = new Map<string, { min: number; max: number; seen: number[] }>();
    for (const capture of rows) {
      const settings = simulatorSettingsSchema.parse(capture.providerConfig.connection.settings);
      const range = ranges.get(capture.providerConfig.name) ?? { min: settings.latencyMinMs, max: settings.latencyMaxMs, seen: [] };
      ranges.set(capture.providerConfig.name, range);
      const accepted = capture.attempts.find((a) => a.outcome === "succeeded")!;
      range.seen.push(accepted.latencyMs!);
      expect(capture.latencyMs).toBe(accepted.latencyMs);
      expect(accepted.endedAt!.getTime() - accepted.startedAt.getTime()).toBe(accepted.latencyMs);
      expect(capture.finishedAt!.getTime()).toBe(accepted.endedAt!.getTime());
      // A retry starts after the rate-limited attempt ended, within a few seconds.
      for (const failed of capture.attempts.filter((a) => a.outcome === "failed")) {
        expect(accepted.startedAt.getTime() - failed.endedAt!.getTime()).toBeGreaterThan(0);
        expect(accepted.startedAt.getTime() - failed.endedAt!.getTime()).toBeLessThanOrEqual(2_000);
      }
      // Its retry budget counts its failed calls, as beacon_close_attempt counts them for real captures.
      expect(capture.spentAttempts).toBe(capture.attempts.filter((a) => a.outcome === "failed" || a.outcome === "unknown").length);
      expect(capture.check.finishedAt!.getTime()).toBeGreaterThanOrEqual(capture.finishedAt!.getTime());
    }
    expect(ranges.size).toBe(4);
    for (const [name, { min, max, seen }] of ranges) {
      expect(max, `${name}'s simulator answers in seconds`).toBeLessThanOrEqual(10_000);
      for (const ms of seen) {
        expect(ms, name).toBeGreaterThanOrEqual(min);
        expect(ms, name).toBeLessThanOrEqual(max);
      }
    }
    // A check of the demo's prompts on four assistants, four calls at a time, takes seconds.
    const checks = await db().check.findMany({ where: { workspaceId: workspace.id, isDemo: true } });
    for (const check of checks) expect(check.finishedAt!.getTime() - check.createdAt.getTime()).toBeLessThan(60_000);
  });

  it("analysed while the brand is edited (a competitor tracked): the history inserted after the edit queues its re-analysis", async () => {
    // A workspace with no answers yet: the edit's own re-analysis finds nothing to do.
    const space = await newSpace({ prompts: 2 });
    const brand = await db().brand.findFirstOrThrow({ where: { workspaceId: space.workspaceId } });
    const gate = gateAt("demo:before-insert");
    const seeding = seedDemoHistory(space.workspaceId, { days: 2 });
    await gate.reached;
    await trackCompetitor(space.workspaceId, brand.id, "Brand New Rival");
    expect(await db().analysisRun.count({ where: { brandId: brand.id } }), "the edit found no answers to re-analyse").toBe(0);
    gate.open();
    const { captures } = await seeding;

    const { analysisVersion } = await db().brand.findUniqueOrThrow({ where: { id: brand.id } });
    const stale = await db().capture.count({ where: { brandId: brand.id, status: "succeeded", analysisVersion: { lt: analysisVersion } } });
    expect(captures).toBeGreaterThan(0);
    expect(stale).toBe(captures);
    const queued = await db().analysisRun.findMany({ where: { brandId: brand.id, status: "queued" } });
    expect(queued, "a re-analysis waits for the answers analysed before the edit").toHaveLength(1);
    expect(queued[0]!.total).toBe(stale);
  });
});
