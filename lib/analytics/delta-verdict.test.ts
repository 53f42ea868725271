import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { judgeDelta } from "@/lib/analytics/delta-verdict";
import { testMeans, testProportions } from "@/lib/analytics/significance";

describe("judgeDelta", () => {
  it("calls a big-looking change on few answers noise: 40 % of 10 -> 60 % of 10 (p ≈ 0.37)", () => {
    const test = testProportions({ x: 4, n: 10 }, { x: 6, n: 10 }, 0.95)!;
    expect(judgeDelta(test.change, test, "up")).toEqual({ kind: "noise", p: test.p });
    expect(test.p).toBeCloseTo(0.3711, 3);
  });

  it("calls the same change on 1,000 answers each good news, and bad news for a number where lower is better", () => {
    const test = testProportions({ x: 400, n: 1000 }, { x: 600, n: 1000 }, 0.95)!;
    expect(judgeDelta(test.change, test, "up")).toMatchObject({ kind: "beyond", good: true });
    expect(judgeDelta(test.change, test, "down")).toMatchObject({ kind: "beyond", good: false });
    expect(judgeDelta(test.change, test, "neither")).toMatchObject({ kind: "beyond", good: null });
  });

  it("does not paint a -0.03 position change inside its interval red", () => {
    const before = { n: 40, sum: 40 * 2.03, sumSq: 40 * 2.03 ** 2 + 39 * 0.8 };
    const after = { n: 40, sum: 40 * 2.0, sumSq: 40 * 2.0 ** 2 + 39 * 0.8 };
    const test = testMeans(before, after, 0.95)!;
    expect(test.change).toBeCloseTo(-0.03, 10);
    expect(judgeDelta(test.change, test, "down").kind).toBe("noise");
  });

  it("has no verdict without an earlier value or without a test", () => {
    expect(judgeDelta(null, null, "up")).toEqual({ kind: "no-comparison" });
    expect(judgeDelta(0.2, null, "up")).toEqual({ kind: "untested" });
  });

  it("judges beyond noise exactly when p < 1 - confidence, and never by the size of the change", () => {
    fc.assert(
      fc.property(
        fc.double({ min: -1, max: 1, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.constantFrom(0.9, 0.95, 0.99),
        fc.constantFrom("up" as const, "down" as const, "neither" as const),
        (change, p, confidence, better) => {
          const verdict = judgeDelta(change, { p, confidence }, better);
          expect(verdict.kind).toBe(p < 1 - confidence ? "beyond" : "noise");
          if (verdict.kind === "beyond" && better !== "neither" && change !== 0) expect(verdict.good).toBe(change > 0 === (better === "up"));
        },
      ),
    );
  });
});
