// What an alert rule watches, per kind, as the rule form and the rule actions validate it (the
// same schema in the browser for inline errors and on the server for the truth). Pure.
import { z } from "zod";
import { tagsSchema } from "@/lib/prompts/schemas";
import { text } from "@/lib/validation/text";

export const RULE_KINDS = ["metric_change", "competitor_overtook", "new_brand", "own_page_dropped", "breaker_open", "budget"] as const;
export type RuleKind = (typeof RULE_KINDS)[number];

/** Kinds about one brand's answers (the others watch the workspace: breakers, budget). */
export const BRAND_KINDS: readonly RuleKind[] = ["metric_change", "competitor_overtook", "new_brand", "own_page_dropped"];
export const isBrandKind = (kind: RuleKind) => BRAND_KINDS.includes(kind);

/**
 * The kinds each reason for an evaluation covers (lib/jobs/catalog.ts evaluate_alerts): a
 * finished check brings new answers and spend, the daily pass judges everything (also weeks
 * without checks), the minutely watch what cannot wait for either. Untracked brands are left to
 * the daily pass: finding them reads every answer text of the period (lib/alerts/discovery.ts),
 * too much to repeat after every check for a share over a week that one check barely moves.
 */
export const ALERT_KINDS_BY_REASON: Record<"check" | "daily" | "watch", readonly RuleKind[]> = {
  check: ["metric_change", "competitor_overtook", "own_page_dropped", "budget"],
  daily: RULE_KINDS,
  watch: ["breaker_open", "budget"],
};

export const METRICS = ["visibility", "share_of_voice", "position"] as const;
export type Metric = (typeof METRICS)[number];

/** The confidence levels offered: a rule fires when p < 1 - confidence. */
export const CONFIDENCES = [0.9, 0.95, 0.99] as const;

const confidence = z.union(CONFIDENCES.map((c) => z.literal(c)), "Pick a confidence of 90 %, 95 % or 99 %").default(0.95);
const windowDays = z.coerce
  .number("Enter the period in days")
  .int("Use a whole number of days")
  .min(1, "A period is at least 1 day")
  .max(90, "A period is at most 90 days")
  .default(7);
const providerConfigIds = z.array(z.uuid("Unknown provider")).max(50, "Pick at most 50 providers").default([]);
/** Which answers of the brand a rule looks at: some providers, prompts with some tags; empty = all. */
const answerScope = { providerConfigIds, tags: tagsSchema.default([]), windowDays, confidence };

export const metricChangeParams = z
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

export const competitorOvertookParams = z.object({
  ...answerScope,
  /** Empty: any of the brand's competitors. */
  competitorIds: z.array(z.uuid("Unknown competitor")).max(50).default([]),
});

export const newBrandParams = z.object({
  ...answerScope,
  /** Fires when the name is in more than this share of answers, beyond noise (the interval's low end). */
  thresholdPercent: z.coerce.number("Enter a share").min(1, "At least 1 %").max(100, "At most 100 %").default(10),
});

export const ownPageDroppedParams = z.object({
  ...answerScope,
  /** Only pages cited in at least this many answers in the period before are watched. */
  minCitations: z.coerce.number().int("Use a whole number").min(1, "At least 1").max(10_000).default(3),
});

export const breakerOpenParams = z.object({
  minutes: z.coerce.number().int("Use a whole number of minutes").min(1, "At least 1 minute").max(1440, "At most 1,440 minutes (a day)").default(5),
  providerConfigIds,
});

export const budgetParams = z.object({
  thresholds: z
    .array(z.coerce.number().int("Use whole percentages").min(1, "A threshold is at least 1 %").max(500, "A threshold is at most 500 %"))
    .min(1, "Give at least one threshold")
    .max(5, "At most 5 thresholds")
    .default([80, 100])
    .transform((t) => [...new Set(t)].sort((a, b) => a - b)),
});

export const paramsSchemas = {
  metric_change: metricChangeParams,
  competitor_overtook: competitorOvertookParams,
  new_brand: newBrandParams,
  own_page_dropped: ownPageDroppedParams,
  breaker_open: breakerOpenParams,
  budget: budgetParams,
} satisfies Record<RuleKind, z.ZodType>;

export type RuleParams = { [K in RuleKind]: z.output<(typeof paramsSchemas)[K]> };

const base = {
  name: text({ max: 100, label: "A name" }).pipe(z.string().min(1, "Enter a name")),
  channelIds: z.array(z.uuid("Unknown channel")).max(20, "Pick at most 20 channels").default([]),
  enabled: z.boolean().default(true),
};

const brandRule = <K extends RuleKind>(kind: K) =>
  z.object({ ...base, kind: z.literal(kind), brandId: z.uuid("Pick a brand"), params: paramsSchemas[kind] });
const workspaceRule = <K extends RuleKind>(kind: K) =>
  z.object({ ...base, kind: z.literal(kind), brandId: z.null().optional().transform(() => null), params: paramsSchemas[kind] });

export const ruleInputSchema = z.discriminatedUnion(
  "kind",
  [
    brandRule("metric_change"),
    brandRule("competitor_overtook"),
    brandRule("new_brand"),
    brandRule("own_page_dropped"),
    workspaceRule("breaker_open"),
    workspaceRule("budget"),
  ],
  "Pick what the rule watches",
);

export type RuleInput = z.input<typeof ruleInputSchema>;
export type ParsedRuleInput = z.output<typeof ruleInputSchema>;

export const ruleIdSchema = z.object({ ruleId: z.uuid("Unknown rule") });
export const updateRuleSchema = z.object({ ruleId: z.uuid("Unknown rule"), rule: ruleInputSchema });
export const setRuleEnabledSchema = z.object({ ruleId: z.uuid("Unknown rule"), enabled: z.boolean() });
export const firingsPageSchema = z.object({ ruleId: z.uuid().optional(), page: z.number().int().min(1).max(10_000).default(1) });

export const METRIC_LABELS: Record<Metric, string> = { visibility: "Visibility", share_of_voice: "Share of voice", position: "Average position" };

export const KIND_LABELS: Record<RuleKind, string> = {
  metric_change: "A number changed beyond noise",
  competitor_overtook: "A competitor overtook the brand on a prompt",
  new_brand: "A brand not yet tracked is named often",
  own_page_dropped: "One of the brand's pages stopped being cited",
  breaker_open: "A provider's breaker stayed open",
  budget: "The month's spend passed a share of the budget",
};

/** What a rule's last evaluation found, kept on the rule for the Alerts page. */
export type RuleOutcome = {
  at: string;
  status: "fired" | "quiet" | "too_few_answers" | "error";
  /** One sentence for people: what was compared and why it did or did not fire. */
  message: string;
  fired: number;
  hint?: SampleSizeHint;
};

/** How many samples a change of the rule's size needs, from the current rates. */
export type SampleSizeHint = {
  metric: Metric;
  /** The change to detect (fraction for visibility and share of voice, places for position). */
  change: number;
  confidence: number;
  power: number;
  /** Answers needed in each period; null when the current numbers cannot say (no answers yet). */
  answersPerPeriod: number | null;
  /** Answers in the last period, and the prompts and providers they came from. */
  answersLastPeriod: number;
  prompts: number;
  providers: number;
  /** answersPerPeriod spread over the prompts and providers: samples per prompt and provider. */
  samplesPerPromptAndProvider: number | null;
};
