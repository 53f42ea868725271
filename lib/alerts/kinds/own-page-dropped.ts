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
    const { num } = read;
    const { current, previous, index } = periods(now, params.windowDays);
    const whole = scopeFor(rule, params, { from: previous.from, to: current.to });
    const [totals] = await read.readDb().$queryRaw<{ before: number; now: number }[]>`
      SELECT count(*) FILTER (WHERE c."finishedAt" < ${current.from}::timestamp)::int AS before,
             count(*) FILTER (WHERE c."finishedAt" >= ${current.from}::timestamp)::int AS now
      FROM captures c WHERE ${read.captureScope(whole)}`;
    const pages = await read.readDb().$queryRaw<{ url: string; before: number; now: number }[]>`
      SELECT ci.url,
        count(DISTINCT ci."captureId") FILTER (WHERE c."finishedAt" < ${current.from}::timestamp)::int AS before,
        count(DISTINCT ci."captureId") FILTER (WHERE c."finishedAt" >= ${current.from}::timestamp)::int AS now
      FROM captures c JOIN citations ci ON ci."captureId" = c.id AND ci."citedInText" AND ci."isOwnDomain"
      WHERE ${read.captureScope(whole)}
      GROUP BY ci.url
      HAVING count(DISTINCT ci."captureId") FILTER (WHERE c."finishedAt" < ${current.from}::timestamp) >= ${params.minCitations}
      ORDER BY 2 DESC, 1`;
    const answersBefore = num(totals?.before ?? 0);
    const answersNow = num(totals?.now ?? 0);
    if (!pages.length) {
      return { findings: [], outcome: { status: "too_few_answers", message: `No page of ${rule.brandName} was cited in ${params.minCitations} or more answers in the ${params.windowDays} days before the last ${params.windowDays}.` } };
    }
    const findings: Finding[] = [];
    for (const page of pages.filter((p) => num(p.now) === 0)) {
      const chance = chanceOfNoCitations(num(page.before), answersBefore, answersNow);
      if (chance >= 1 - params.confidence) continue;
      findings.push({
        dedupeKey: `${page.url}:${params.windowDays}:${index}`,
        title: `${page.url} is no longer cited`,
        summary:
          `Cited in ${num(page.before)} of ${answersBefore} answers in the ${params.windowDays} days before, and in none of ${answersNow} since. ` +
          `At its earlier rate, that silence had a ${percentText(chance)} chance: beyond noise at ${percentText(params.confidence)} confidence.`,
        facts: { method: "chance of no citations at the earlier rate", confidence: params.confidence, p: chance, url: page.url, n: answersNow, previous: { cited: num(page.before), answers: answersBefore }, current: { cited: 0, answers: answersNow } },
      });
    }
    const silent = pages.filter((p) => num(p.now) === 0).length;
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
