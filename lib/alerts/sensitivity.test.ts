import { describe, expect, it } from "vitest";
import type { SampleSizeHint } from "@/lib/alerts/kinds/kind";
import { sensitivityNote } from "@/lib/alerts/sensitivity";

const hint = (answersLastPeriod: number): SampleSizeHint => ({
  metric: "visibility",
  change: 0.05,
  confidence: 0.95,
  power: 0.8,
  answersPerPeriod: 1500,
  answersLastPeriod,
  prompts: 5,
  providers: 3,
  samplesPerPromptAndProvider: 100,
});

describe("sensitivityNote", () => {
  it("never tells a rule that fired that a change 'will pass as noise'", () => {
    const note = sensitivityNote(hint(200), true);
    expect(note.enough).toBe(false);
    expect(note.text).not.toMatch(/pass as noise/);
    expect(note.text).toMatch(/fired on was larger, and beyond noise/);
  });

  it("tells a quiet rule with too few answers to ask more, and one with enough how often it catches a change", () => {
    expect(sensitivityNote(hint(200), false).text).toMatch(/ask more samples/);
    expect(sensitivityNote(hint(1500), false)).toEqual({ enough: true, text: "Enough to catch a real change that size about 8 times in 10." });
    expect(sensitivityNote(hint(1500), true).enough).toBe(true);
  });
});
