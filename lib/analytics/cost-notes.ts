// What the Costs page's money tiles say under their figure. Pure, so the wording is unit-tested
// and the browser imports it. Two traps it avoids: calling attempts that failed before the
// provider did any work (no cost) "waste", and showing "$0.00 / No monthly limit" as if no limit
// were a limit of zero.
import { formatCount, formatMicros, formatPct } from "@/lib/format";

const attempts = (n: number) => `${formatCount(n)} attempt${n === 1 ? "" : "s"}`;

/** Under "Retry waste": which of the attempts not accepted cost money, and how much of the spend that is. */
export function retryWasteNote(t: { wastedAttempts: number; chargedWastedAttempts: number; retryWasteMicros: number; spentMicros: number }): string {
  if (t.wastedAttempts === 0) return "Every attempt was accepted";
  const free = t.wastedAttempts - t.chargedWastedAttempts;
  if (t.chargedWastedAttempts === 0) return `No waste: the ${attempts(t.wastedAttempts)} not accepted cost nothing`;
  const share = t.spentMicros > 0 ? ` · ${formatPct(t.retryWasteMicros / t.spentMicros)} of spend` : "";
  const freeNote = free > 0 ? `; ${formatCount(free)} more failed at no cost` : "";
  return `${attempts(t.chargedWastedAttempts)} charged without an accepted answer${share}${freeNote}`;
}

export type BudgetFigure = { limitMicros: number | null; usedMicros: number; leftMicros: number | null; month: string };

/** The "This month" tile: what was spent (the figure), and against which limit, or that there is none. */
export function budgetNote(b: BudgetFigure): { value: string; note: string } {
  if (b.limitMicros === null) return { value: formatMicros(b.usedMicros), note: `spent in ${b.month} (UTC) · no monthly budget set` };
  return { value: formatMicros(b.usedMicros), note: `of a ${formatMicros(b.limitMicros)} budget · ${formatMicros(b.leftMicros ?? 0)} left in ${b.month} (UTC)` };
}
