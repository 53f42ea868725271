import { z } from "zod";
import { answerFilterRows, answerScope, isoDay, periodRow, periodText, periods, scopeFor } from "@/lib/alerts/kinds/answer-scope";
import { defineKind, type Finding } from "@/lib/alerts/kinds/kind";
import { testLead } from "@/lib/analytics/significance";
import { formatPValue, percentText } from "@/lib/format";

const params = z.object({
  ...answerScope,
  /** Empty: any of the brand's competitors. */
  competitorIds: z.array(z.uuid("Unknown competitor")).max(50).default([]),
});

type LeadRow = { promptId: string; text: string; competitorId: string; competitor: string; current: boolean; answers: number; brand: number; ahead: number; instead: number };

export const competitorOvertookKind = defineKind({
  name: "competitor_overtook",
  label: "A competitor overtook the brand on a prompt",
  scope: "brand",
  params,
  judgedAfter: ["check"],
  async judge({ rule, params, now, read }) {
    const { num, sql } = read;
    if (params.competitorIds.length) {
      // Watching only competitors that are gone (removed while the rule was being saved, which the
      // brand edit's cleanup could not see) compares nothing: said so, not "still comes first".
      const [left] = await read.readDb().$queryRaw<{ n: number }[]>`
        SELECT count(*)::int AS n FROM competitors WHERE id = ANY(${params.competitorIds}::uuid[]) AND "brandId" = ${rule.brandId}::uuid`;
      // (Thrown: the evaluation records it as the rule's error.)
      if (!left?.n) throw new Error("The competitors it watches were removed from the brand: edit the rule to pick others.");
    }
    const { current, previous, index } = periods(now, params.windowDays);
    const whole = scopeFor(rule, params, { from: previous.from, to: current.to });
    const only = params.competitorIds.length ? sql`AND r.entity = ANY(${params.competitorIds}::text[])` : read.empty;
    // Per prompt and period: answers naming the brand, and per competitor the answers that put it
    // first (named, with the brand absent or after it: "ahead") and those that leave the brand out.
    const rows = await read.readDb().$queryRaw<LeadRow[]>`
      WITH answers AS (
        SELECT r."promptId", r.day >= ${current.from}::date AS current, sum(r.answers)::int AS answers, sum(r.mentioned)::int AS brand
        FROM rollup_answers r WHERE ${read.rollupScope(whole)} GROUP BY 1, 2
      ), rivals AS (
        SELECT r."promptId", r.day >= ${current.from}::date AS current, r.entity, sum(r.ahead)::int AS ahead, sum(r.instead)::int AS instead
        FROM rollup_mentions r WHERE ${read.rollupScope(whole)} AND r.entity <> 'brand' AND r.entity NOT LIKE 'name:%' ${only}
        GROUP BY 1, 2, 3
      )
      SELECT a."promptId", p.text, co.id AS "competitorId", co.name AS competitor, a.current, a.answers, a.brand,
        coalesce(rv.ahead, 0) AS ahead, coalesce(rv.instead, 0) AS instead
      FROM answers a
      JOIN prompts p ON p.id = a."promptId"
      JOIN competitors co ON co."brandId" = ${rule.brandId}::uuid AND co."workspaceId" = ${rule.workspaceId}::uuid
      LEFT JOIN rivals rv ON rv."promptId" = a."promptId" AND rv.current = a.current AND rv.entity = co.id::text
      WHERE ${params.competitorIds.length ? sql`co.id = ANY(${params.competitorIds}::uuid[])` : sql`TRUE`}
      ORDER BY p.text, co.name`;
    const pairs = new Map<string, { prev?: LeadRow; cur?: LeadRow }>();
    for (const row of rows) {
      const key = `${row.promptId}:${row.competitorId}`;
      const pair = pairs.get(key) ?? {};
      pair[row.current ? "cur" : "prev"] = row;
      pairs.set(key, pair);
    }
    // brandFirst: answers naming the brand minus those naming the competitor ahead of it.
    const lead = (r: LeadRow) => ({ brandFirst: num(r.brand) - (num(r.ahead) - num(r.instead)), rivalFirst: num(r.ahead), answers: num(r.answers) });
    const findings: Finding[] = [];
    let closest: { p: number; text: string } | null = null;
    for (const [key, { prev, cur }] of pairs) {
      if (!prev || !cur) continue;
      const before = lead(prev);
      const after = lead(cur);
      if (after.rivalFirst <= after.brandFirst || before.brandFirst < before.rivalFirst) continue;
      const test = testLead(after.brandFirst, after.rivalFirst);
      const numbers = `${cur.competitor} came first in ${after.rivalFirst} answers and ${rule.brandName} in ${after.brandFirst} (of ${after.answers}); the ${params.windowDays} days before, ${rule.brandName} ${before.brandFirst} and ${cur.competitor} ${before.rivalFirst}`;
      if (!closest || test.p < closest.p) closest = { p: test.p, text: `“${cur.text}”: ${numbers} (${formatPValue(test.p)})` };
      if (test.p >= 1 - params.confidence) continue;
      findings.push({
        dedupeKey: `${key}:${params.windowDays}:${index}`,
        title: `${cur.competitor} overtook ${rule.brandName} on “${cur.text}”`,
        summary: `${numbers}. Exact sign test over the ${test.informative} answers where one of them came first: ${formatPValue(test.p)}, beyond noise at ${percentText(params.confidence)} confidence.`,
        facts: {
          method: "exact sign test (McNemar) on who comes first",
          confidence: params.confidence,
          p: test.p,
          n: after.answers,
          promptId: cur.promptId,
          competitorId: cur.competitorId,
          previous: { ...before, from: isoDay(previous.from), to: isoDay(previous.to) },
          current: { ...after, from: isoDay(current.from), to: isoDay(current.to) },
        },
      });
    }
    const message = findings.length
      ? `${findings.length} prompt${findings.length === 1 ? "" : "s"} where a competitor now comes first beyond noise.`
      : closest
        ? `No overtaking beyond noise; closest: ${closest.text}.`
        : `${rule.brandName} still comes first at least as often as each competitor on every prompt with answers in both periods.`;
    return { findings, outcome: { status: "quiet", message } };
  },
  describe: (p, brandName) => `Competitors of ${brandName}, per prompt; ${periodText(p)}`,
  form: [periodRow, { type: "competitors", key: "competitorIds", legend: "Competitors", hint: "None checked: every competitor of the brand." }, ...answerFilterRows],
});
