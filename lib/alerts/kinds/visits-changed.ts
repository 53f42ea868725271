import { z } from "zod";
import { answerScope, isoDay, periodRow, periodText, wholeDayPeriods } from "@/lib/alerts/kinds/answer-scope";
import { defineKind, type Finding } from "@/lib/alerts/kinds/kind";
import { binomialUpperTail } from "@/lib/analytics/significance";
import { percentText } from "@/lib/format";

const params = z.object({ windowDays: answerScope.windowDays, confidence: answerScope.confidence });

const ALL = "All assistants";

/**
 * Visits assistants sent (the visits script) in the last N days against the N before, in all and
 * per assistant. Visits are counts in periods of equal length: under "the rate did not change"
 * each of the a + b visits fell in either period as a fair coin, so the exact two-sided binomial
 * test gives p. Judged only once the workspace's first site key is older than both periods (a
 * script added midway is a jump, not a change). A rotation keeps that age: a site still sending
 * the old key makes visits fall, which is what this rule is for.
 */
export const visitsChangedKind = defineKind({
  name: "visits_changed",
  label: "AI visits changed beyond noise",
  scope: "workspace",
  params,
  judgedAfter: [],
  async judge({ rule, params, now, read }) {
    const { current, previous, index } = wholeDayPeriods(now, params.windowDays);
    const [key] = await read.db().$queryRaw<{ since: Date }[]>`SELECT "firstCreatedAt" AS since FROM traffic_site_keys WHERE "workspaceId" = ${rule.workspaceId}::uuid`;
    if (!key || key.since > previous.from) {
      return { findings: [], outcome: { status: "too_few_answers", message: `The visits script's first site key is younger than the ${2 * params.windowDays} days compared (or missing): nothing to compare yet.` } };
    }
    // Only today's own sites count, as on the Traffic page: a domain a brand dropped is not a fall.
    const ownSites = await read.onOwnSites(rule.workspaceId, read.sql`domain`);
    const rows = await read.db().$queryRaw<{ assistant: string | null; before: number; since: number }[]>`
      SELECT assistant,
        coalesce(sum(visits) FILTER (WHERE day < ${isoDay(current.from)}::date), 0)::int AS before,
        coalesce(sum(visits) FILTER (WHERE day >= ${isoDay(current.from)}::date), 0)::int AS since
      FROM traffic_visits_daily
      WHERE "workspaceId" = ${rule.workspaceId}::uuid AND day >= ${isoDay(previous.from)}::date AND day < ${isoDay(current.to)}::date AND ${ownSites}
      GROUP BY GROUPING SETS ((assistant), ())`;
    const findings: Finding[] = [];
    for (const row of rows) {
      const name = row.assistant ?? ALL;
      const before = read.num(row.before);
      const since = read.num(row.since);
      const p = Math.min(1, 2 * binomialUpperTail(Math.max(before, since), before + since));
      if (p >= 1 - params.confidence) continue;
      const verb = since > before ? "rose" : "fell";
      findings.push({
        dedupeKey: `${name}:${verb}:${params.windowDays}:${index}`,
        title: `${name === ALL ? "AI visits" : `Visits from ${name}`} ${verb} from ${before} to ${since}`,
        summary:
          `${since} visits in the last ${params.windowDays} days against ${before} in the ${params.windowDays} before. ` +
          `Were the rate unchanged, a split this uneven had a ${percentText(p)} chance: beyond noise at ${percentText(params.confidence)} confidence.`,
        facts: { method: "exact binomial test of two Poisson counts in equal periods", confidence: params.confidence, p, assistant: row.assistant, previous: { visits: before }, current: { visits: since } },
      });
    }
    const total = rows.find((r) => r.assistant === null);
    const message = findings.length
      ? `${findings.length} change${findings.length === 1 ? "" : "s"} in AI visits beyond noise.`
      : total
        ? `${read.num(total.since)} visits against ${read.num(total.before)} before: within noise.`
        : "No visit from an assistant in either period.";
    return { findings, outcome: { status: "quiet", message } };
  },
  describe: (p) => `Visits the visits script recorded; ${periodText(p)}`,
  form: [...periodRow],
});
