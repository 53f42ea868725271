// An alert rule as the rule form and the rule actions validate it (the same schema in the
// browser for inline errors and on the server for the truth): its kind's params, from the kind's
// module (lib/alerts/kinds.ts). Pure.
import { z } from "zod";
import { editCounter } from "@/lib/validation/edit-version";
import { ALERT_KINDS } from "@/lib/alerts/kinds";
import { text } from "@/lib/validation/text";

type AnyKind = (typeof ALERT_KINDS)[number];
export type RuleParams = { [K in AnyKind as K["name"]]: z.output<K["params"]> };

const base = {
  name: text({ max: 100, label: "A name" }).pipe(z.string().min(1, "Enter a name")),
  /** The creating form's key (one per dialog): a resubmit finds the rule it made. Ignored by an edit. */
  createKey: z.uuid("Unknown form key").optional(),
  channelIds: z.array(z.uuid("Unknown channel")).max(20, "Pick at most 20 channels").default([]),
  enabled: z.boolean().default(true),
};
const brandId = z.uuid("Pick a brand");
const noBrand = z.null().optional().transform(() => null);

type RuleSchema<K extends AnyKind> = z.ZodObject<
  typeof base & { kind: z.ZodLiteral<K["name"]>; brandId: K["scope"] extends "brand" ? typeof brandId : typeof noBrand; params: K["params"] },
  z.core.$strip
>;
const ruleSchema = <K extends AnyKind>(kind: K) =>
  z.object({ ...base, kind: z.literal(kind.name), brandId: kind.scope === "brand" ? brandId : noBrand, params: kind.params }) as unknown as RuleSchema<K>;

type RuleSchemas<T extends readonly AnyKind[]> = { -readonly [I in keyof T]: T[I] extends AnyKind ? RuleSchema<T[I]> : never };
// The cast restates what the map returns per kind, so the union's members keep their own params.
const ruleSchemas = ALERT_KINDS.map(ruleSchema) as unknown as RuleSchemas<typeof ALERT_KINDS>;

export const ruleInputSchema = z.discriminatedUnion("kind", ruleSchemas, "Pick what the rule watches");

export type RuleInput = z.input<typeof ruleInputSchema>;
export type ParsedRuleInput = z.output<typeof ruleInputSchema>;

export const ruleIdSchema = z.object({ ruleId: z.uuid("Unknown rule") });
/** `version`: the rule's editVersion as its form read it (lib/validation/edit-version.ts). */
export const updateRuleSchema = z.object({ ruleId: z.uuid("Unknown rule"), rule: ruleInputSchema, version: editCounter });
export const setRuleEnabledSchema = z.object({ ruleId: z.uuid("Unknown rule"), enabled: z.boolean() });
export const firingsPageSchema = z.object({ ruleId: z.uuid().optional(), page: z.number().int().min(1).max(10_000).default(1) });

