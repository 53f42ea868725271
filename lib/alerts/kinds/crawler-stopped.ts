import { z } from "zod";
import { answerScope, isoDay, periodRow, periodText, wholeDayPeriods } from "@/lib/alerts/kinds/answer-scope";
import { defineKind, type Finding } from "@/lib/alerts/kinds/kind";
import { percentText } from "@/lib/format";

const params = z.object({ windowDays: answerScope.windowDays, confidence: answerScope.confidence });

/**
 * A crawler that came on some days of the period before and on none since. Days count only where
 * an imported log covers them (any crawler's hit that day): a log not imported yet is not silence.
 * Only today's own sites count (a domain a brand dropped is not a crawler going away).
 * At its earlier daily rate (days seen / days covered), the chance of no visit on the days
 * covered since is (1 − rate)^days; it fires when that is below 1 − confidence.
 */
export const crawlerStoppedKind = defineKind({
  name: "crawler_stopped",
  label: "An AI crawler stopped visiting",
  scope: "workspace",
  params,
  judgedAfter: [],
  async judge({ rule, params, now, read }) {
    const { current, previous, index } = wholeDayPeriods(now, params.windowDays);
    const ownSites = await read.onOwnSites(rule.workspaceId, read.sql`domain`);
    const rows = await read.db().$queryRaw<{ crawler: string | null; before: number; since: number }[]>`
      SELECT crawler,
        count(DISTINCT day) FILTER (WHERE day < ${isoDay(current.from)}::date)::int AS before,
        count(DISTINCT day) FILTER (WHERE day >= ${isoDay(current.from)}::date)::int AS since
      FROM traffic_crawls_daily
      WHERE "workspaceId" = ${rule.workspaceId}::uuid AND day >= ${isoDay(previous.from)}::date AND day < ${isoDay(current.to)}::date AND ${ownSites}
      GROUP BY GROUPING SETS ((crawler), ())`;
    const covered = rows.find((r) => r.crawler === null);
    const coveredBefore = read.num(covered?.before);
    const coveredSince = read.num(covered?.since);
    if (!coveredBefore || !coveredSince) {
      const which = !coveredSince ? `the last ${params.windowDays} days` : `the ${params.windowDays} days before them`;
      return { findings: [], outcome: { status: "too_few_answers", message: `No imported access log covers ${which}: import one to compare.` } };
    }
    const findings: Finding[] = [];
    const gone = rows.filter((r) => r.crawler !== null && read.num(r.since) === 0);
    for (const row of gone) {
      const rate = read.num(row.before) / coveredBefore;
      const chance = (1 - rate) ** coveredSince;
      if (chance >= 1 - params.confidence) continue;
      findings.push({
        dedupeKey: `${row.crawler}:${params.windowDays}:${index}`,
        title: `${row.crawler} stopped visiting`,
        summary:
          `${row.crawler} came on ${row.before} of the ${coveredBefore} days your logs cover in the ${params.windowDays} days before, and on none of the ${coveredSince} since. ` +
          `At its earlier rate, that silence had a ${percentText(chance)} chance: beyond noise at ${percentText(params.confidence)} confidence. Check robots.txt and your firewall.`,
        facts: { method: "chance of no visit at the earlier daily rate", confidence: params.confidence, p: chance, crawler: row.crawler, previous: { days: read.num(row.before), covered: coveredBefore }, current: { days: 0, covered: coveredSince } },
      });
    }
    const message = findings.length
      ? `${findings.length} crawler${findings.length === 1 ? "" : "s"} stopped visiting beyond noise.`
      : gone.length
        ? `${gone.length} crawler${gone.length === 1 ? " has" : "s have"} not come lately, but ${coveredSince} day${coveredSince === 1 ? "" : "s"} of logs are too few to tell that from chance.`
        : "Every crawler seen before still visits.";
    return { findings, outcome: { status: "quiet", message } };
  },
  describe: (p) => `AI crawlers of the workspace's logs; ${periodText(p)}`,
  form: [...periodRow],
});
