import { describe, expect, it } from "vitest";
import { budgetNote, retryWasteNote } from "@/lib/analytics/cost-notes";

describe("retryWasteNote", () => {
  it("does not call attempts that cost nothing waste", () => {
    expect(retryWasteNote({ wastedAttempts: 96, chargedWastedAttempts: 0, retryWasteMicros: 0, spentMicros: 5_000_000 })).toBe("No waste: the 96 attempts not accepted cost nothing");
  });

  it("counts the charged ones, their share of spend, and the free ones apart", () => {
    expect(retryWasteNote({ wastedAttempts: 5, chargedWastedAttempts: 4, retryWasteMicros: 1400, spentMicros: 16_400 })).toBe(
      "4 attempts charged without an accepted answer · 8.5% of spend; 1 more failed at no cost",
    );
    expect(retryWasteNote({ wastedAttempts: 1, chargedWastedAttempts: 1, retryWasteMicros: 300, spentMicros: 300 })).toBe("1 attempt charged without an accepted answer · 100% of spend");
  });

  it("says when every attempt was accepted", () => {
    expect(retryWasteNote({ wastedAttempts: 0, chargedWastedAttempts: 0, retryWasteMicros: 0, spentMicros: 0 })).toBe("Every attempt was accepted");
  });
});

describe("budgetNote", () => {
  it("shows the month's spend, not a limit, when there is none", () => {
    expect(budgetNote({ limitMicros: null, usedMicros: 0, leftMicros: null, month: "2026-12" })).toEqual({ value: "$0.00", note: "spent in 2026-12 (UTC) · no monthly budget set" });
  });

  it("puts the spend against the limit when there is one", () => {
    expect(budgetNote({ limitMicros: 50_000_000, usedMicros: 3_500_000, leftMicros: 46_500_000, month: "2026-12" })).toEqual({
      value: "$3.50",
      note: "of a $50.00 budget · $46.50 left in 2026-12 (UTC)",
    });
  });
});
