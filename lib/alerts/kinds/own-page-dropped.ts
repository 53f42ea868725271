import { z } from "zod";
import { answerFilterRows, answerScope, periodRow, periodText, periods, scopeFor } from "@/lib/alerts/kinds/answer-scope";
import { defineKind, type Finding } from "@/lib/alerts/kinds/kind";
import { chanceOfNoCitations } from "@/lib/analytics/significance";
import { percentText } from "@/lib/format";

const params = z.object({
  ...answerScope,
  /** Only pages cited in at least this many answers in the period before are watched. */
  minCitations: z.coerce.number().int("Use a whole number").min(1, "At least 1").max(10_000).default(3),
});

export const ownPageDroppedKind = defineKind({
  name: "own_page_dropped",
  label: "One of the brand's pages stopped being cited",
  scope: "brand",
  params,
  judgedAfter: ["check"],
  async judge({ rule, params, now, read }) {
    const { current, previous, index } = periods(now, params.windowDays);
    const whole = scopeFor(rule, params, { from: previous.from, to: current.to });
    const { answersBefore, answersNow, pages } = await read.ownPagesByPeriod(whole, current.from, params.minCitations);
    if (!pages.length) {
      return { findings: [], outcome: { status: "too_few_answers", message: `No page of ${rule.brandName} was cited in ${params.minCitations} or more answers in the ${params.windowDays} days before the last ${params.windowDays}.` } };
    }
    const findings: Finding[] = [];
    for (const page of pages.filter((p) => p.now === 0)) {
      const chance = chanceOfNoCitations(page.before, answersBefore, answersNow);
      if (chance >= 1 - params.confidence) continue;
      findings.push({
        dedupeKey: `${page.url}:${params.windowDays}:${index}`,
        title: `${page.url} is no longer cited`,
        summary:
          `Cited in ${page.before} of ${answersBefore} answers in the ${params.windowDays} days before, and in none of ${answersNow} since. ` +
          `At its earlier rate, that silence had a ${percentText(chance)} chance: beyond noise at ${percentText(params.confidence)} confidence.`,
        facts: { method: "chance of no citations at the earlier rate", confidence: params.confidence, p: chance, url: page.url, n: answersNow, previous: { cited: page.before, answers: answersBefore }, current: { cited: 0, answers: answersNow } },
      });
    }
    const silent = pages.filter((p) => p.now === 0).length;
    const message = findings.length
      ? `${findings.length} page${findings.length === 1 ? "" : "s"} stopped being cited beyond noise.`
      : silent
        ? `${silent} watched page${silent === 1 ? " is" : "s are"} not cited lately, but ${answersNow} answers are too few to tell that from chance.`
        : `All ${pages.length} watched page${pages.length === 1 ? " is" : "s are"} still cited.`;
    return { findings, outcome: { status: "quiet", message } };
  },
  describe: (p, brandName) => `Pages of ${brandName} cited in ${p.minCitations}+ answers before; ${periodText(p)}`,
  form: [
    periodRow,
    { type: "number", key: "minCitations", label: "Watch pages cited in at least (answers)", hint: "In the period before; rarer pages cannot go silent beyond chance.", min: 1 },
    ...answerFilterRows,
  ],
});
