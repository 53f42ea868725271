// What a headline number's change vs the previous period means, for the tile that shows it: no
// earlier data, too few answers to test, within sampling noise, or beyond it (and then whether
// that is good news). Pure, so the browser and its unit tests share it.
import { beyondNoise } from "@/lib/analytics/significance";

/** Which direction of the number is good news. */
export type Better = "up" | "down" | "neither";

export type DeltaVerdict =
  | { kind: "no-comparison" }
  | { kind: "untested" }
  | { kind: "noise"; p: number }
  | { kind: "beyond"; p: number; good: boolean | null };

/**
 * Only a change its test calls beyond noise (at the test's own confidence) is good or bad news;
 * however big it looks, one within noise is not, and one with no test (a period with too few
 * answers) is not judged either.
 */
export function judgeDelta(change: number | null, test: { p: number; confidence: number } | null, better: Better): DeltaVerdict {
  if (change === null) return { kind: "no-comparison" };
  if (!test) return { kind: "untested" };
  if (!beyondNoise(test)) return { kind: "noise", p: test.p };
  const good = better === "neither" || change === 0 ? null : (change > 0) === (better === "up");
  return { kind: "beyond", p: test.p, good };
}
