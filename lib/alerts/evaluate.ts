import "server-only";
import { databaseNow } from "@/lib/alerts/clock";
import { enqueueFiringDeliveries } from "@/lib/alerts/deliveries";
import { discoverUntrackedBrands } from "@/lib/alerts/discovery";
import { parseParams } from "@/lib/alerts/rules";
import { METRIC_LABELS, type Metric, type RuleKind, type RuleOutcome, type RuleParams, type SampleSizeHint } from "@/lib/alerts/schemas";
import {
  answersToDetectMean,
  answersToDetectProportion,
  chanceOfNoCitations,
  testLead,
  beyondNoise,
  zFor,
} from "@/lib/analytics/significance";
import { testKpiChange } from "@/lib/analytics/kpi-changes";
import { captureScope, num, type AnalyticsFilter } from "@/lib/analytics/filter";
import { kpiSums, type KpiRow } from "@/lib/analytics/kpis";
import { rollupScope } from "@/lib/analytics/rollups";
import { ratioVariance, sampleVariance, wilson } from "@/lib/analytics/stats";
import { budgetStatus } from "@/lib/billing/budget";
import { formatMicros, formatPosition, formatPValue, formatSignedNumber, formatSignedPoints, percentText } from "@/lib/format";
import { pausePoint } from "@/lib/db/pause-points";
import { db, readDb } from "@/lib/db/prisma";
import { transaction } from "@/lib/db/transaction";
import { Prisma } from "@/lib/generated/prisma/client";

// Evaluates a workspace's alert rules: reads the numbers (the dashboards' rollups where they
// have them), decides with lib/analytics/significance.ts and kpi-changes.ts whether something changed beyond noise, and
// stores each firing with the numbers behind it, once per rule and piece of evidence (a unique
// dedupe key), its deliveries enqueued in the same transaction. Run after each check, daily and,
// for breakers and the budget, every minute (worker/tasks/evaluate_alerts.ts and the crons).

type Finding = { dedupeKey: string; title: string; summary: string; facts: Record<string, unknown> };
type Verdict = { findings: Finding[]; outcome: Omit<RuleOutcome, "at" | "fired" | "status"> & { status: "quiet" | "too_few_answers" } };

type Rule = { id: string; workspaceId: string; name: string; kind: RuleKind; brandId: string | null; brandName: string | null; params: unknown };

const DAY = 86_400_000;

/**
 * The two periods a rule compares: the last `days` days up to the end of today (UTC, so today's
 * answers count) and the `days` before them. `index` numbers periods of that length, so a rule
 * fires at most once per subject per period length however often it is evaluated.
 */
export function periods(now: Date, days: number) {
  const end = Math.floor(now.getTime() / DAY) * DAY + DAY;
  return {
    current: { from: new Date(end - days * DAY), to: new Date(end) },
    previous: { from: new Date(end - 2 * days * DAY), to: new Date(end - days * DAY) },
    index: Math.floor(end / DAY / days),
  };
}

const points = (x: number) => `${formatSignedPoints(x)} points`;
const isoDay = (d: Date) => d.toISOString().slice(0, 10);

function scopeFor(rule: Rule, params: { providerConfigIds: string[]; tags: string[] }, range: { from: Date; to: Date }): AnalyticsFilter {
  return {
    workspaceId: rule.workspaceId,
    brandId: rule.brandId!,
    providerConfigIds: params.providerConfigIds.length ? params.providerConfigIds : undefined,
    tags: params.tags.length ? params.tags : undefined,
    from: range.from,
    to: range.to,
  };
}

const DEFAULT_CHANGE: Record<Metric, number> = { visibility: 0.05, share_of_voice: 0.05, position: 0.5 };

async function sampleSizeHint(f: AnalyticsFilter, metric: Metric, now: KpiRow, change: number, confidence: number): Promise<SampleSizeHint> {
  const [spread] = await readDb().$queryRaw<{ prompts: number; providers: number }[]>`
    SELECT count(DISTINCT r."promptId")::int AS prompts, count(DISTINCT r."providerConfigId")::int AS providers
    FROM rollup_answers r WHERE ${rollupScope(f)} AND r.answers > 0`;
  const n = num(now.n);
  let needed: number | null = null;
  if (metric === "visibility" && n > 0) needed = answersToDetectProportion(num(now.mentioned) / n, -change, confidence) ?? answersToDetectProportion(num(now.mentioned) / n, change, confidence);
  if (metric === "share_of_voice" && n >= 2 && num(now.sx) > 0) {
    needed = answersToDetectMean(ratioVariance({ n, sumY: num(now.sy), sumX: num(now.sx), sumYY: num(now.syy), sumXX: num(now.sxx), sumXY: num(now.sxy) }) * n, change, confidence);
  }
  if (metric === "position" && num(now.pos_n) >= 2) {
    // Positions exist only where the brand is named: answers needed = mentions needed / visibility.
    const mentionsNeeded = answersToDetectMean(sampleVariance(num(now.pos_sum), num(now.pos_sumsq), num(now.pos_n)), change, confidence);
    needed = mentionsNeeded === null ? null : Math.ceil(mentionsNeeded / (num(now.pos_n) / n));
  }
  const cells = (spread?.prompts ?? 0) * (spread?.providers ?? 0);
  return {
    metric,
    change,
    confidence,
    power: 0.8,
    answersPerPeriod: needed,
    answersLastPeriod: n,
    prompts: spread?.prompts ?? 0,
    providers: spread?.providers ?? 0,
    samplesPerPromptAndProvider: needed !== null && cells > 0 ? Math.ceil(needed / cells) : null,
  };
}

async function metricChange(rule: Rule, params: RuleParams["metric_change"], now: Date): Promise<Verdict> {
  const { current, previous, index } = periods(now, params.windowDays);
  const f = scopeFor(rule, params, current);
  const [before, after] = await Promise.all([kpiSums(scopeFor(rule, params, previous)), kpiSums(f)]);
  const label = METRIC_LABELS[params.metric];
  const hint = await sampleSizeHint(f, params.metric, after, params.minChange > 0 ? params.minChange : DEFAULT_CHANGE[params.metric], params.confidence);
  const { test, n } = testKpiChange(params.metric, before, after, params.confidence);
  const periodText = `the last ${params.windowDays} day${params.windowDays === 1 ? "" : "s"} against the ${params.windowDays} before`;
  if (!test || n[0] < params.minAnswers || n[1] < params.minAnswers) {
    return {
      findings: [],
      outcome: { status: "too_few_answers", message: `Too few answers to tell: ${n[0]} and ${n[1]} in ${periodText}; the rule needs ${params.minAnswers} in each.`, hint },
    };
  }
  const format = params.metric === "position" ? formatPosition : percentText;
  const changeText = params.metric === "position" ? `${formatSignedNumber(test.change)} places` : points(test.change);
  const worse = params.metric === "position" ? test.change > 0 : test.change < 0;
  const real = beyondNoise(test);
  const bigEnough = Math.abs(test.change) >= params.minChange;
  const wanted = params.direction === "any" || (params.direction === "worse") === worse;
  const numbers = `${format(test.previous.value)} (n = ${test.previous.n}) to ${format(test.current.value)} (n = ${test.current.n}), ${changeText}, ${formatPValue(test.p)}`;
  if (!real || !bigEnough || !wanted) {
    const why = !real ? `within sampling noise at ${percentText(test.confidence)} confidence` : !bigEnough ? `smaller than the rule's ${format(params.minChange)} threshold` : `not in the direction the rule watches`;
    return { findings: [], outcome: { status: "quiet", message: `${label} went from ${numbers}: ${why}.`, hint } };
  }
  const verb = params.metric === "position" ? (worse ? "slipped" : "improved") : worse ? "fell" : "rose";
  const finding: Finding = {
    dedupeKey: `${params.metric}:${params.windowDays}:${index}`,
    title: `${label} of ${rule.brandName} ${verb} from ${format(test.previous.value)} to ${format(test.current.value)}`,
    summary:
      `${label} over ${periodText}: ${numbers}. The change's ${percentText(test.confidence)} interval is ` +
      `${params.metric === "position" ? `${formatSignedNumber(test.low)} to ${formatSignedNumber(test.high)}` : `${points(test.low)} to ${points(test.high)}`} (${test.method}): more than sampling noise explains.`,
    facts: {
      metric: params.metric,
      method: test.method,
      confidence: test.confidence,
      p: test.p,
      change: test.change,
      interval: { low: test.low, high: test.high },
      previous: { ...test.previous, from: isoDay(previous.from), to: isoDay(previous.to) },
      current: { ...test.current, from: isoDay(current.from), to: isoDay(current.to) },
      n: test.current.n,
    },
  };
  return { findings: [finding], outcome: { status: "quiet", message: `${label} went from ${numbers}.`, hint } };
}

type LeadRow = { promptId: string; text: string; competitorId: string; competitor: string; current: boolean; answers: number; brand: number; ahead: number; instead: number };

async function competitorOvertook(rule: Rule, params: RuleParams["competitor_overtook"], now: Date): Promise<Verdict> {
  const { current, previous, index } = periods(now, params.windowDays);
  const whole = scopeFor(rule, params, { from: previous.from, to: current.to });
  const only = params.competitorIds.length ? Prisma.sql`AND r.entity = ANY(${params.competitorIds}::text[])` : Prisma.empty;
  // Per prompt and period: answers naming the brand, and per competitor the answers that put it
  // first (named, with the brand absent or after it: "ahead") and those that leave the brand out.
  const rows = await readDb().$queryRaw<LeadRow[]>`
    WITH answers AS (
      SELECT r."promptId", r.day >= ${current.from}::date AS current, sum(r.answers)::int AS answers, sum(r.mentioned)::int AS brand
      FROM rollup_answers r WHERE ${rollupScope(whole)} GROUP BY 1, 2
    ), rivals AS (
      SELECT r."promptId", r.day >= ${current.from}::date AS current, r.entity, sum(r.ahead)::int AS ahead, sum(r.instead)::int AS instead
      FROM rollup_mentions r WHERE ${rollupScope(whole)} AND r.entity <> 'brand' AND r.entity NOT LIKE 'name:%' ${only}
      GROUP BY 1, 2, 3
    )
    SELECT a."promptId", p.text, co.id AS "competitorId", co.name AS competitor, a.current, a.answers, a.brand,
      coalesce(rv.ahead, 0) AS ahead, coalesce(rv.instead, 0) AS instead
    FROM answers a
    JOIN prompts p ON p.id = a."promptId"
    JOIN competitors co ON co."brandId" = ${rule.brandId}::uuid AND co."workspaceId" = ${rule.workspaceId}::uuid
    LEFT JOIN rivals rv ON rv."promptId" = a."promptId" AND rv.current = a.current AND rv.entity = co.id::text
    WHERE ${params.competitorIds.length ? Prisma.sql`co.id = ANY(${params.competitorIds}::uuid[])` : Prisma.sql`TRUE`}
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
}

async function ownPageDropped(rule: Rule, params: RuleParams["own_page_dropped"], now: Date): Promise<Verdict> {
  const { current, previous, index } = periods(now, params.windowDays);
  const whole = scopeFor(rule, params, { from: previous.from, to: current.to });
  const [totals] = await readDb().$queryRaw<{ before: number; now: number }[]>`
    SELECT count(*) FILTER (WHERE c."finishedAt" < ${current.from}::timestamp)::int AS before,
           count(*) FILTER (WHERE c."finishedAt" >= ${current.from}::timestamp)::int AS now
    FROM captures c WHERE ${captureScope(whole)}`;
  const pages = await readDb().$queryRaw<{ url: string; before: number; now: number }[]>`
    SELECT ci.url,
      count(DISTINCT ci."captureId") FILTER (WHERE c."finishedAt" < ${current.from}::timestamp)::int AS before,
      count(DISTINCT ci."captureId") FILTER (WHERE c."finishedAt" >= ${current.from}::timestamp)::int AS now
    FROM captures c JOIN citations ci ON ci."captureId" = c.id AND ci."citedInText" AND ci."isOwnDomain"
    WHERE ${captureScope(whole)}
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
}

async function newBrand(rule: Rule, params: RuleParams["new_brand"], now: Date): Promise<Verdict> {
  const { current, index } = periods(now, params.windowDays);
  const f = scopeFor(rule, params, current);
  const { n, candidates } = await discoverUntrackedBrands(f);
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
}

async function breakerOpen(rule: Rule, params: RuleParams["breaker_open"]): Promise<Verdict> {
  const only = params.providerConfigIds.length ? Prisma.sql`AND pc.id = ANY(${params.providerConfigIds}::uuid[])` : Prisma.empty;
  const open = await db().$queryRaw<{ connectionId: string; model: string; openedAt: Date; names: string[]; minutes: number }[]>`
    SELECT b."connectionId", b.model, b."openedAt", array_agg(pc.name ORDER BY pc.name) AS names,
      floor(extract(epoch FROM (now() AT TIME ZONE 'UTC') - b."openedAt") / 60)::int AS minutes
    FROM breaker_states b
    JOIN provider_configs pc ON pc."connectionId" = b."connectionId" AND pc.model = b.model AND pc."workspaceId" = ${rule.workspaceId}::uuid ${only}
    WHERE b.status IN ('open', 'half_open') AND b."forcedStatus" IS NULL
      AND b."openedAt" <= (now() AT TIME ZONE 'UTC') - make_interval(mins => ${params.minutes}::int)
    GROUP BY b."connectionId", b.model, b."openedAt"`;
  const findings = open.map<Finding>((b) => ({
    dedupeKey: `${b.connectionId}:${b.model}:${b.openedAt.toISOString()}`,
    title: `${b.names.join(", ")}: the breaker has been open for ${b.minutes} minutes`,
    summary: `Calls to ${b.names.join(", ")} (${b.model}) have been held back since ${b.openedAt.toISOString().replace("T", " ").slice(0, 16)} UTC because too many failed; captures wait until the provider answers again.`,
    facts: { connectionId: b.connectionId, model: b.model, openedAt: b.openedAt.toISOString(), minutes: b.minutes },
  }));
  return { findings, outcome: { status: "quiet", message: findings.length ? `${findings.length} breaker${findings.length === 1 ? "" : "s"} open over ${params.minutes} minutes.` : `No breaker has been open over ${params.minutes} minutes.` } };
}

async function budget(rule: Rule, params: RuleParams["budget"]): Promise<Verdict> {
  const status = await budgetStatus(rule.workspaceId);
  if (status.limitMicros === null || status.limitMicros <= 0) return { findings: [], outcome: { status: "quiet", message: "The workspace has no monthly budget." } };
  const share = status.chargedMicros / status.limitMicros;
  const month = status.period.toISOString().slice(0, 7);
  const spent = `${formatMicros(status.chargedMicros)} of ${formatMicros(status.limitMicros)} (${percentText(share)})`;
  const findings = params.thresholds
    .filter((t) => share * 100 >= t)
    .map<Finding>((t) => ({
      dedupeKey: `${month}:${t}`,
      title: t >= 100 ? `The month's budget is spent: ${spent}` : `The month's spend passed ${t} % of the budget`,
      summary: `${month}: ${spent} charged${t >= 100 ? "; new captures wait for budget until next month or a higher limit." : "."}`,
      facts: { month, thresholdPercent: t, chargedMicros: status.chargedMicros, limitMicros: status.limitMicros, share },
    }));
  return { findings, outcome: { status: "quiet", message: `${month}: ${spent} charged.` } };
}

async function judge(rule: Rule, now: Date): Promise<Verdict> {
  switch (rule.kind) {
    case "metric_change":
      return metricChange(rule, parseParams("metric_change", rule.params), now);
    case "competitor_overtook":
      return competitorOvertook(rule, parseParams("competitor_overtook", rule.params), now);
    case "own_page_dropped":
      return ownPageDropped(rule, parseParams("own_page_dropped", rule.params), now);
    case "breaker_open":
      return breakerOpen(rule, parseParams("breaker_open", rule.params));
    case "budget":
      return budget(rule, parseParams("budget", rule.params));
    case "new_brand":
      return newBrand(rule, parseParams("new_brand", rule.params), now);
  }
}

/**
 * Stores a finding as a firing unless this rule already fired on the same evidence (the unique
 * dedupe key: two evaluations at once fire once, the second waits on the first's insert), or the
 * rule was disabled or deleted since it was read, and enqueues its deliveries in the same
 * transaction. True when it fired now.
 */
async function fire(rule: Rule, finding: Finding): Promise<boolean> {
  await pausePoint("alert:before-fire", { ruleId: rule.id });
  return transaction(async (tx) => {
    const [row] = await tx.$queryRaw<{ id: string }[]>`
      INSERT INTO alert_firings ("workspaceId", "ruleId", "dedupeKey", title, summary, facts)
      SELECT ${rule.workspaceId}::uuid, r.id, ${finding.dedupeKey}, ${finding.title}, ${finding.summary}, ${JSON.stringify(finding.facts)}::jsonb
      FROM alert_rules r WHERE r.id = ${rule.id}::uuid AND r.enabled
      ON CONFLICT ("ruleId", "dedupeKey") DO NOTHING
      RETURNING id`;
    if (!row) return false;
    await enqueueFiringDeliveries(tx, row.id);
    await pausePoint("alert:firing-before-commit", { tx, ruleId: rule.id });
    return true;
  });
}

export type EvaluationResult = { ruleId: string; outcome: RuleOutcome };

/**
 * Evaluates the workspace's enabled rules (only those of `kinds` when given) as of `now`, by
 * default the database's clock: the period index is part of a firing's dedupe key, so every
 * worker must count periods by the same clock (a worker whose clock is off would fire the same
 * evidence again under another index, or judge the wrong days). A rule whose evaluation throws
 * is recorded as an error and the others still run.
 */
export async function evaluateAlerts(workspaceId: string, options: { kinds?: readonly RuleKind[]; now?: Date } = {}): Promise<EvaluationResult[]> {
  const now = options.now ?? (await databaseNow());
  const rules = await db().alertRule.findMany({
    where: { workspaceId, enabled: true, ...(options.kinds ? { kind: { in: [...options.kinds] } } : {}) },
    select: { id: true, workspaceId: true, name: true, kind: true, brandId: true, params: true, brand: { select: { name: true } } },
    orderBy: { createdAt: "asc" },
  });
  const results: EvaluationResult[] = [];
  for (const r of rules) {
    const rule: Rule = { ...r, kind: r.kind as RuleKind, brandName: r.brand?.name ?? null };
    let outcome: RuleOutcome;
    try {
      const verdict = await judge(rule, now);
      let fired = 0;
      for (const finding of verdict.findings) if (await fire(rule, finding)) fired++;
      const firedAny = verdict.findings.length > 0;
      outcome = {
        ...verdict.outcome,
        at: now.toISOString(),
        fired,
        status: firedAny ? "fired" : verdict.outcome.status,
        message: firedAny ? verdict.findings.map((f) => f.title).join("; ") : verdict.outcome.message,
      };
    } catch (error) {
      outcome = { at: now.toISOString(), status: "error", fired: 0, message: `Could not evaluate: ${error instanceof Error ? error.message.split("\n").at(-1) : String(error)}` };
    }
    await db().alertRule.updateMany({ where: { id: rule.id, workspaceId }, data: { lastEvaluatedAt: now, lastResult: outcome } });
    results.push({ ruleId: rule.id, outcome });
  }
  return results;
}
