// Every alert kind, once: the RuleKind type, the zod union of rules (lib/alerts/schemas.ts), the
// labels and descriptions, which kinds each evaluation covers and the rule form's fields all
// derive from this array. Adding a kind: its module in lib/alerts/kinds/ and a line here
// (docs/alerts.md "Adding an alert kind"). The order is the form's.
import { breakerOpenKind } from "@/lib/alerts/kinds/breaker-open";
import { budgetKind } from "@/lib/alerts/kinds/budget";
import { competitorOvertookKind } from "@/lib/alerts/kinds/competitor-overtook";
import { crawlerStoppedKind } from "@/lib/alerts/kinds/crawler-stopped";
import type { ExtraReason } from "@/lib/alerts/kinds/kind";
import { metricChangeKind } from "@/lib/alerts/kinds/metric-change";
import { newBrandKind } from "@/lib/alerts/kinds/new-brand";
import { ownPageDroppedKind } from "@/lib/alerts/kinds/own-page-dropped";
import { visitsChangedKind } from "@/lib/alerts/kinds/visits-changed";

export const ALERT_KINDS = [metricChangeKind, competitorOvertookKind, newBrandKind, ownPageDroppedKind, crawlerStoppedKind, visitsChangedKind, breakerOpenKind, budgetKind] as const;

type AnyKind = (typeof ALERT_KINDS)[number];
export type RuleKind = AnyKind["name"];

// The cast restates what the array holds: TypeScript does not carry a map's names into its result.
export const RULE_KINDS = ALERT_KINDS.map((k) => k.name) as [RuleKind, ...RuleKind[]];

/** Whether a stored kind (text) is one this code knows. */
export const isRuleKind = (name: string): name is RuleKind => (RULE_KINDS as string[]).includes(name);

export const kindOf = (name: RuleKind): AnyKind => ALERT_KINDS.find((k) => k.name === name)!;

/** Kinds about one brand's answers (the others watch the workspace: breakers, budget). */
export const isBrandKind = (kind: RuleKind) => kindOf(kind).scope === "brand";

/**
 * The kinds each reason for an evaluation covers (lib/jobs/catalog.ts evaluate_alerts): a
 * finished check brings new answers and spend, the daily pass judges everything (also weeks
 * without checks), the minutely watch what cannot wait for either.
 */
const judgedAfter = (reason: ExtraReason) => ALERT_KINDS.filter((k) => (k.judgedAfter as readonly ExtraReason[]).includes(reason)).map((k) => k.name);
export const ALERT_KINDS_BY_REASON: Record<"check" | "daily" | "watch", readonly RuleKind[]> = {
  check: judgedAfter("check"),
  daily: RULE_KINDS,
  watch: judgedAfter("watch"),
};
