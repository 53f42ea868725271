import { z } from "zod";
import { answerFilterRows, answerScope, isoDay, periodRow, periodText, periods, points, scopeFor } from "@/lib/alerts/kinds/answer-scope";
import { defineKind, METRIC_LABELS, METRICS, type Finding, type Metric, type SampleSizeHint } from "@/lib/alerts/kinds/kind";
import type { AlertReads } from "@/lib/alerts/reads";
import { answersToDetectMean, answersToDetectProportion, beyondNoise } from "@/lib/analytics/significance";
import type { AnalyticsFilter } from "@/lib/analytics/filter";
import type { KpiRow } from "@/lib/analytics/kpis";
import { ratioVariance, sampleVariance } from "@/lib/analytics/stats";
import { formatPosition, formatPValue, formatSignedNumber, percentText } from "@/lib/format";

const params = z
  .object({
    ...answerScope,
    metric: z.enum(METRICS, "Pick visibility, share of voice or average position"),
    direction: z.enum(["any", "worse", "better"], "Pick any change, worse or better").default("any"),
    /**
     * The smallest change worth telling (visibility and share of voice as a fraction, 0.05 = five
     * points; position in places). A change must pass both: real (the test) and big enough.
     */
    minChange: z.coerce.number("Enter the smallest change").min(0, "The smallest change cannot be negative").max(100, "The smallest change is at most 100").default(0),
    /** Fewer answers than this in either period: no verdict (the test's normal approximation needs some). */
    minAnswers: z.coerce.number().int("Use a whole number").min(10, "At least 10 answers per period").max(100_000).default(30),
  })
  .superRefine((p, issue) => {
    if (p.metric !== "position" && p.minChange > 1) {
      issue.addIssue({ code: "custom", path: ["minChange"], message: "For visibility and share of voice the smallest change is a fraction (0.05 = 5 points)" });
    }
  });

const DEFAULT_CHANGE: Record<Metric, number> = { visibility: 0.05, share_of_voice: 0.05, position: 0.5 };

async function sampleSizeHint(read: AlertReads, f: AnalyticsFilter, metric: Metric, now: KpiRow, change: number, confidence: number): Promise<SampleSizeHint> {
  const { num } = read;
  const [spread] = await read.readDb().$queryRaw<{ prompts: number; providers: number }[]>`
    SELECT count(DISTINCT r."promptId")::int AS prompts, count(DISTINCT r."providerConfigId")::int AS providers
    FROM rollup_answers r WHERE ${read.rollupScope(f)} AND r.answers > 0`;
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

export const metricChangeKind = defineKind({
  name: "metric_change",
  label: "A number changed beyond noise",
  scope: "brand",
  params,
  judgedAfter: ["check"],
  async judge({ rule, params, now, read }) {
    const { current, previous, index } = periods(now, params.windowDays);
    // Like with like: only the prompts answered in both periods, so that a prompt added or
    // archived in between does not read as a change of the answers.
    const { comparable } = await read.comparedSums(scopeFor(rule, params, previous), scopeFor(rule, params, current));
    const { promptIds, inOneOnly, before, now: after } = comparable;
    const f = { ...scopeFor(rule, params, current), promptIds };
    const label = METRIC_LABELS[params.metric];
    const hint = await sampleSizeHint(read, f, params.metric, after, params.minChange > 0 ? params.minChange : DEFAULT_CHANGE[params.metric], params.confidence);
    const { test, n } = read.testKpiChange(params.metric, before, after, params.confidence);
    const periodText = `the last ${params.windowDays} day${params.windowDays === 1 ? "" : "s"} against the ${params.windowDays} before`;
    const compared = inOneOnly ? `; on the ${promptIds.length} prompt${promptIds.length === 1 ? "" : "s"} answered in both periods (${inOneOnly} answered in only one left out)` : "";
    if (!test || n[0] < params.minAnswers || n[1] < params.minAnswers) {
      return {
        findings: [],
        outcome: { status: "too_few_answers", message: `Too few answers to tell: ${n[0]} and ${n[1]} in ${periodText}${compared}; the rule needs ${params.minAnswers} in each.`, hint },
      };
    }
    const format = params.metric === "position" ? formatPosition : percentText;
    const changeText = params.metric === "position" ? `${formatSignedNumber(test.change)} places` : points(test.change);
    const worse = params.metric === "position" ? test.change > 0 : test.change < 0;
    const real = beyondNoise(test);
    const bigEnough = Math.abs(test.change) >= params.minChange;
    const wanted = params.direction === "any" || (params.direction === "worse") === worse;
    const numbers = `${format(test.previous.value)} (n = ${test.previous.n}) to ${format(test.current.value)} (n = ${test.current.n}), ${changeText}, ${formatPValue(test.p)}${compared}`;
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
  },
  describe: (p, brandName) => `${METRIC_LABELS[p.metric]} of ${brandName}${p.direction && p.direction !== "any" ? `, only ${p.direction}` : ""}; ${periodText(p)}`,
  form: [
    [
      { type: "select", key: "metric", label: "Number", options: METRICS.map((m) => ({ value: m, label: METRIC_LABELS[m] })) },
      {
        type: "select",
        key: "direction",
        label: "Direction",
        options: [
          { value: "any", label: "Any change" },
          { value: "worse", label: "Only worse" },
          { value: "better", label: "Only better" },
        ],
      },
      {
        type: "number",
        key: "minChange",
        // Visibility and share of voice take their smallest change in points; the rule stores a fraction.
        label: (p) => (p.metric === "position" ? "Smallest change (places)" : "Smallest change (points)"),
        hint: "Optional: real changes smaller than this stay quiet.",
        min: 0,
        step: "any",
        optional: true,
        scale: (p) => (p.metric === "position" ? 1 : 100),
      },
    ],
    periodRow,
    { type: "number", key: "minAnswers", label: "Answers needed per period", hint: "Fewer than this in either period: no verdict.", min: 10 },
    ...answerFilterRows,
  ],
});
