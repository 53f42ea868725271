import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ESTIMATE_AFTER_MS, reanalysisProgress, runsEnded } from "@/lib/jobs/reanalysis-progress";

const started = new Date("2026-12-06T12:00:00Z");
const at = (ms: number) => started.getTime() + ms;

describe("a re-analysis' progress", () => {
  it("gives the share done and, once it has run long enough, the time left at its pace", () => {
    const run = { status: "running", total: 10_000, done: 2_500, startedAt: started };
    // A quarter done in 5 minutes: three quarters left take 15.
    expect(reanalysisProgress(run, at(5 * 60_000))).toEqual({ percent: 25, msLeft: 15 * 60_000 });
  });

  it("judges no pace too early, before any answer is done, or while the run is not running", () => {
    const running = { status: "running", total: 10_000, done: 200, startedAt: started };
    expect(reanalysisProgress(running, at(ESTIMATE_AFTER_MS - 1)).msLeft).toBeNull();
    expect(reanalysisProgress({ ...running, done: 0 }, at(60_000))).toEqual({ percent: 0, msLeft: null });
    expect(reanalysisProgress({ ...running, status: "queued", startedAt: null }, at(60_000))).toEqual({ percent: 2, msLeft: null });
    expect(reanalysisProgress({ ...running, status: "failed" }, at(60_000)).msLeft).toBeNull();
  });

  it("stays within 0–100 % and never has negative time left, answers recorded since the run was queued included", () => {
    fc.assert(
      fc.property(fc.nat({ max: 2_000_000 }), fc.nat({ max: 3_000_000 }), fc.nat({ max: 10 * 3_600_000 }), (total, done, elapsed) => {
        const { percent, msLeft } = reanalysisProgress({ status: "running", total, done, startedAt: started }, at(elapsed));
        expect(percent).toBeGreaterThanOrEqual(0);
        expect(percent).toBeLessThanOrEqual(100);
        if (msLeft !== null) {
          expect(msLeft).toBeGreaterThanOrEqual(0);
          // At the pace so far: what is left takes as long per answer as what is done took.
          expect(msLeft * done).toBeCloseTo(Math.max(0, total - done) * elapsed, -3);
        }
      }),
    );
  });
});

describe("runs that ended between two reads", () => {
  const run = (status: string) => ({ status });

  it("are the brands open at the first read and not at the second, each as read now: completed or failed", () => {
    const first = runsEnded(null, { a: run("running"), b: run("queued"), c: run("completed"), d: run("running") });
    expect(first.ended, "a page's first read ends nothing").toEqual({});
    expect([...first.open].sort()).toEqual(["a", "b", "d"]);
    const second = runsEnded(first.open, { a: run("completed"), b: run("failed"), c: run("completed"), d: run("running") });
    // The dashboards' notice toasts only a completed one; a failed one stays in the notice with its error.
    expect(second.ended).toEqual({ a: run("completed"), b: run("failed") });
    expect([...second.open]).toEqual(["d"]);
    expect(runsEnded(second.open, { d: run("running") }).ended, "nothing ends twice").toEqual({});
  });

  it("never names a brand that was not open before, nor one still open", () => {
    const statuses = fc.constantFrom("queued", "running", "completed", "failed");
    const reads = fc.array(fc.dictionary(fc.constantFrom("a", "b", "c"), statuses.map(run)), { minLength: 1, maxLength: 6 });
    fc.assert(
      fc.property(reads, (sequence) => {
        let open: Set<string> | null = null;
        for (const now of sequence) {
          const before: Set<string> | null = open;
          const result: { ended: Record<string, { status: string }>; open: Set<string> } = runsEnded(before, now);
          for (const [brandId, ended] of Object.entries(result.ended)) {
            expect(before?.has(brandId)).toBe(true);
            expect(["completed", "failed"]).toContain(ended.status);
          }
          open = result.open;
        }
      }),
    );
  });
});
