// What a metric rule's sample-size hint means beside its verdict. The hint is about sensitivity
// (would a change of the rule's size be caught?), the verdict about the change that did happen
// (was it beyond noise?). A rule can fire on a large change while changes of its own size still
// slip by at that volume; the texts say which is which so they never read as a contradiction.
import type { SampleSizeHint } from "@/lib/alerts/kinds/kind";

/**
 * The closing sentence of the hint. `fired`: the rule has fired (its last result or any firing).
 * Power is the hint's: the chance a real change of that size is caught.
 */
export function sensitivityNote(hint: SampleSizeHint, fired: boolean): { enough: boolean; text: string } {
  const caught = `${Math.round(hint.power * 10)} times in 10`;
  if (hint.answersPerPeriod !== null && hint.answersLastPeriod >= hint.answersPerPeriod) {
    return { enough: true, text: `Enough to catch a real change that size about ${caught}.` };
  }
  return {
    enough: false,
    text: fired
      ? "At that volume a change only that size can slip by unseen; what this rule fired on was larger, and beyond noise: the firing stands."
      : "At that volume a change only that size can slip by unseen (larger ones still show): ask more samples or watch a longer period.",
  };
}
