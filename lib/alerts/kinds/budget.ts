import { z } from "zod";
import { defineKind, type Finding } from "@/lib/alerts/kinds/kind";
import { formatMicros, percentText } from "@/lib/format";

const params = z.object({
  thresholds: z
    .array(z.coerce.number().int("Use whole percentages").min(1, "A threshold is at least 1 %").max(500, "A threshold is at most 500 %"))
    .min(1, "Give at least one threshold")
    .max(5, "At most 5 thresholds")
    .default([80, 100])
    .transform((t) => [...new Set(t)].sort((a, b) => a - b)),
});

export const budgetKind = defineKind({
  name: "budget",
  label: "The month's spend passed a share of the budget",
  scope: "workspace",
  params,
  needsBudget: true,
  judgedAfter: ["check", "watch"],
  async judge({ rule, params, read }) {
    const status = await read.budgetStatus(rule.workspaceId);
    if (status.limitMicros === null || status.limitMicros <= 0) return { findings: [], outcome: { status: "quiet", message: "The workspace has no monthly budget." } };
    const share = status.chargedMicros / status.limitMicros;
    const month = status.period.toISOString().slice(0, 7);
    const spent = `${formatMicros(status.chargedMicros)} of ${formatMicros(status.limitMicros)} (${percentText(share)})`;
    const findings = params.thresholds
      .filter((t) => share * 100 >= t)
      .map<Finding>((t) => ({
        // Once per month and limit: a raised budget is watched afresh (its spent mark would otherwise never be told).
        dedupeKey: `${month}:${status.limitMicros}:${t}`,
        title: t >= 100 ? `The month's budget is spent: ${spent}` : `The month's spend passed ${t} % of the budget`,
        summary: `${month}: ${spent} charged${t >= 100 ? "; new captures wait for budget until next month or a higher limit." : "."}`,
        facts: { month, thresholdPercent: t, chargedMicros: status.chargedMicros, limitMicros: status.limitMicros, share },
      }));
    return { findings, outcome: { status: "quiet", message: `${month}: ${spent} charged.` } };
  },
  describe: (p) => `At ${p.thresholds.join(" % and ")} % of the monthly budget`,
  form: [{ type: "numbers", key: "thresholds", label: "Thresholds (% of the monthly budget)", hint: "Comma-separated, e.g. 80, 100. Each fires once a month, and again after the budget is changed." }],
});
