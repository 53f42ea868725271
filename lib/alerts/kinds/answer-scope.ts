// What the brand kinds share: which of the brand's answers a rule looks at (some providers,
// prompts with some tags; empty = all), over which two periods, at which confidence; the form
// rows for them and the period arithmetic their judges use.
import { z } from "zod";
import type { FormField, FormParams, FormRow, JudgedRule } from "@/lib/alerts/kinds/kind";
import type { AnalyticsFilter } from "@/lib/analytics/filter";
import { formatSignedPoints, percentText } from "@/lib/format";
import { tagsSchema } from "@/lib/prompts/schemas";

/** The confidence levels offered: a rule fires when p < 1 - confidence. */
export const CONFIDENCES = [0.9, 0.95, 0.99] as const;

const confidence = z.union(CONFIDENCES.map((c) => z.literal(c)), "Pick a confidence of 90 %, 95 % or 99 %").default(0.95);
const windowDays = z.coerce
  .number("Enter the period in days")
  .int("Use a whole number of days")
  .min(1, "A period is at least 1 day")
  .max(90, "A period is at most 90 days")
  .default(7);
export const providerConfigIds = z.array(z.uuid("Unknown provider")).max(50, "Pick at most 50 providers").default([]);
export const answerScope = { providerConfigIds, tags: tagsSchema.default([]), windowDays, confidence };

export const periodRow = [
  { type: "number", key: "windowDays", label: "Period (days)", hint: "The last N days against the N before.", min: 1, max: 90 },
  {
    type: "select",
    key: "confidence",
    label: "Confidence",
    hint: "Fires only when sampling noise alone would produce such a change less than 5 % of the time (10 % at 90 %, 1 % at 99 %).",
    options: CONFIDENCES.map((c) => ({ value: c, label: percentText(c) })),
  },
] as const satisfies readonly FormField<keyof typeof answerScope>[];

export const providersField = { type: "providers", key: "providerConfigIds", legend: "Providers", hint: "None checked: all providers." } as const satisfies FormField;
const tagsField = { type: "tags", key: "tags", legend: "Prompt tags", hint: "None checked: all prompts." } as const satisfies FormField;
/** The last rows of every brand kind's form. */
export const answerFilterRows = [providersField, tagsField] as const satisfies readonly FormRow<keyof typeof answerScope>[];

/** "last 7 days vs the 7 before, 95 % confidence", for the rules table. */
export const periodText = (p: FormParams) =>
  p.windowDays ? `last ${p.windowDays} days vs the ${p.windowDays} before, ${percentText((p.confidence as number | undefined) ?? 0.95)} confidence` : "";

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

/**
 * The periods of a rule on counts (visits, days a crawler came), which need periods of equal
 * length: the last `days` whole days, ending where today begins, and the `days` before them.
 * Today is not over, so its count so far is not a day's (at the 06:07 pass, a quarter of one).
 */
export const wholeDayPeriods = (now: Date, days: number) => periods(new Date(Math.floor(now.getTime() / DAY) * DAY - 1), days);

export const points = (x: number) => `${formatSignedPoints(x)} points`;
export const isoDay = (d: Date) => d.toISOString().slice(0, 10);

export function scopeFor(rule: JudgedRule, params: { providerConfigIds: string[]; tags: string[] }, range: { from: Date; to: Date }): AnalyticsFilter {
  return {
    workspaceId: rule.workspaceId,
    brandId: rule.brandId!,
    providerConfigIds: params.providerConfigIds.length ? params.providerConfigIds : undefined,
    tags: params.tags.length ? params.tags : undefined,
    from: range.from,
    to: range.to,
  };
}
