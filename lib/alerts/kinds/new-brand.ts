import { z } from "zod";
import { answerFilterRows, answerScope, periodRow, periods, scopeFor } from "@/lib/alerts/kinds/answer-scope";
import { defineKind, type Finding } from "@/lib/alerts/kinds/kind";
import { zFor } from "@/lib/analytics/significance";
import { wilson } from "@/lib/analytics/stats";
import { percentText } from "@/lib/format";

const params = z.object({
  ...answerScope,
  /** Fires when the name is in more than this share of answers, beyond noise (the interval's low end). */
  thresholdPercent: z.coerce.number("Enter a share").min(1, "At least 1 %").max(100, "At most 100 %").default(10),
});

export const newBrandKind = defineKind({
  name: "new_brand",
  label: "A brand not yet tracked is named often",
  scope: "brand",
  params,
  // Left to the daily pass: a share over a week that one check barely moves. It reads the
  // candidates' rollup (lib/alerts/discovery.ts), 0.1-0.8 s at a million answers under load.
  judgedAfter: [],
  async judge({ rule, params, now, read }) {
    const { current, index } = periods(now, params.windowDays);
    const f = scopeFor(rule, params, current);
    const { n, candidates } = await read.discoverUntrackedBrands(f);
    const threshold = params.thresholdPercent / 100;
    const z = zFor(params.confidence);
    // Beyond noise: the share's interval (Wilson, at the rule's confidence) lies above the threshold.
    const judged = candidates.map((c) => ({ ...c, share: wilson(c.answers, n, z) }));
    const above = judged.filter((c) => c.share.low !== null && c.share.low > threshold);
    const findings = above.map<Finding>((c) => ({
      dedupeKey: `${c.key}:${params.windowDays}:${index}`,
      title: `${c.name} is named in ${percentText(c.share.value)} of answers and is not tracked`,
      summary:
        `${c.name} appeared in ${c.answers} of ${n} answers about ${rule.brandName} in the last ${params.windowDays} days (${percentText(c.share.value)}; ` +
        `${percentText(params.confidence)} interval ${percentText(c.share.low)} to ${percentText(c.share.high)}), above the rule's ${params.thresholdPercent} % beyond noise. Track it as a competitor to follow it.`,
      facts: { method: "Wilson interval above the threshold", confidence: params.confidence, name: c.name, key: c.key, n, answers: c.answers, share: c.share, thresholdPercent: params.thresholdPercent, exampleCaptureIds: c.exampleCaptureIds },
    }));
    const top = judged[0];
    const message = findings.length
      ? `${findings.length} untracked name${findings.length === 1 ? "" : "s"} above ${params.thresholdPercent} %.`
      : top
        ? `Most named untracked brand: ${top.name}, ${top.answers} of ${n} answers (${percentText(top.share.value)}; interval from ${percentText(top.share.low)}), not beyond ${params.thresholdPercent} %.`
        : `No untracked brand in ${n} answers.`;
    return { findings, outcome: { status: n ? "quiet" : "too_few_answers", message } };
  },
  describe: (p, brandName) => `Untracked names in over ${p.thresholdPercent} % of ${brandName}'s answers; last ${p.windowDays} days`,
  form: [
    periodRow,
    { type: "number", key: "thresholdPercent", label: "Share of answers (%)", hint: "Fires when an untracked name is in more than this share of answers, beyond noise.", min: 1, max: 100 },
    ...answerFilterRows,
  ],
});
