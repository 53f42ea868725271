// What an alert kind is: one module under lib/alerts/kinds/ carries its name, label, scope, params
// schema, when it is judged, its judge, its one-line description and its form. lib/alerts/kinds.ts
// lists them once; the kind type, the zod union, labels, the evaluation reasons and the rule form
// derive from that list (docs/alerts.md "Adding an alert kind").
//
// The rule form imports the kinds in the browser, so a kind imports no server module: its judge
// reads through the `read` it is handed (lib/alerts/reads.ts, server-only; a type import here).
import type { z } from "zod";
import type { AlertReads } from "@/lib/alerts/reads";

export const METRICS = ["visibility", "share_of_voice", "position"] as const;
export type Metric = (typeof METRICS)[number];
export const METRIC_LABELS: Record<Metric, string> = { visibility: "Visibility", share_of_voice: "Share of voice", position: "Average position" };

/** What a rule's last evaluation found, kept on the rule for the Alerts page. */
export type RuleOutcome = {
  at: string;
  /** "waiting": not judged, the brand's answers are being re-analysed (lib/alerts/evaluate.ts). */
  status: "fired" | "quiet" | "too_few_answers" | "waiting" | "error";
  /** One sentence for people: what was compared and why it did or did not fire. */
  message: string;
  fired: number;
  hint?: SampleSizeHint;
  /** "competitors_removed": switched off when every competitor it watched was removed (forgetCompetitors); switched on only after an edit. */
  code?: "competitors_removed";
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

/** One piece of evidence: stored as a firing once per rule and dedupe key (lib/alerts/evaluate.ts). */
export type Finding = { dedupeKey: string; title: string; summary: string; facts: Record<string, unknown> };
export type Verdict = { findings: Finding[]; outcome: Omit<RuleOutcome, "at" | "fired" | "status"> & { status: "quiet" | "too_few_answers" } };

/** The rule as a judge sees it; brandId and brandName are set for the brand kinds. */
export type JudgedRule = { id: string; workspaceId: string; name: string; brandId: string | null; brandName: string | null };

/**
 * Besides the daily pass, which judges every kind: after each finished check (new answers and
 * spend) and every minute (what cannot wait for either). lib/jobs/catalog.ts AlertReason.
 */
export type ExtraReason = "check" | "watch";

/** The params as the form holds them while editing: typed values, or text for a list. */
export type FormParams = Record<string, unknown>;

/**
 * One input of the rule form (app/(dashboard)/alerts/rule-form-dialog.tsx), named by its param.
 * A number or select starts at the schema's default; a number the user empties shows it again.
 */
export type FormField<Key extends string = string> =
  | {
      type: "number";
      key: Key;
      label: string | ((params: FormParams) => string);
      hint?: string;
      min?: number;
      max?: number;
      step?: "any";
      /** May stay empty (the schema's default applies) rather than showing the default. */
      optional?: true;
      /** The input shows the stored value times this (points for a stored fraction), to one decimal. */
      scale?: (params: FormParams) => number;
    }
  | { type: "select"; key: Key; label: string; hint?: string; options: readonly { value: string | number; label: string }[] }
  /** Comma-separated whole numbers. */
  | { type: "numbers"; key: Key; label: string; hint: string }
  /** Checkboxes; none checked means all. Competitors are the chosen brand's, emptied when it changes. */
  | { type: "competitors" | "providers" | "tags"; key: Key; legend: string; hint: string };

/** A row of the form: one field, or fields side by side. */
export type FormRow<Key extends string = string> = FormField<Key> | readonly FormField<Key>[];

type Scope = "brand" | "workspace";
type Params = z.ZodObject;

type KindSpec<N extends string, S extends Scope, P extends Params> = {
  name: N;
  /** What the rule watches, as the "Alert when" select offers it. */
  label: string;
  /** A brand's answers (the rule names a brand), or the whole workspace. */
  scope: S;
  params: P;
  /** Refused unless the workspace has a monthly budget. */
  needsBudget?: true;
  judgedAfter: readonly ExtraReason[];
  judge: (input: { rule: JudgedRule; params: z.output<P>; now: Date; read: AlertReads }) => Promise<Verdict>;
  /** What the rule watches, in one line, for the rules table. */
  describe: (params: z.output<P>, brandName: string | null) => string;
  form: readonly FormRow<Extract<keyof P["shape"], string>>[];
};

export type AlertKind<N extends string = string, S extends Scope = Scope, P extends Params = Params> = Omit<KindSpec<N, S, P>, "judge" | "describe" | "form"> & {
  form: readonly FormRow[];
  /** Judges a stored rule: its params read through the kind's schema (defaults filled in for older rows). */
  judge: (rule: JudgedRule, params: unknown, now: Date, read: AlertReads) => Promise<Verdict>;
  /** `params` as listRules returns them (already read through the schema). */
  describe: (params: unknown, brandName: string | null) => string;
};

export function defineKind<const N extends string, S extends Scope, P extends Params>(spec: KindSpec<N, S, P>): AlertKind<N, S, P> {
  return {
    ...spec,
    judge: (rule, params, now, read) => spec.judge({ rule, params: spec.params.parse(params), now, read }),
    describe: (params, brandName) => spec.describe(params as z.output<P>, brandName),
  };
}
