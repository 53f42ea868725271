"use client";
import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { toast } from "sonner";
import { z } from "zod";
import { useActionForm } from "@/components/forms/use-action-form";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { Field, Input, Select } from "@/components/ui/field";
import { createAlertRuleAction, updateAlertRuleAction } from "@/lib/actions/alerts";
import type { AlertRuleRow, RuleChoices } from "@/lib/alerts/rules";
import { CONFIDENCES, isBrandKind, KIND_LABELS, METRIC_LABELS, METRICS, RULE_KINDS, ruleInputSchema, type Metric, type RuleKind } from "@/lib/alerts/schemas";
import { percentText } from "@/lib/format";

const schema = z.object({ ruleId: z.uuid().optional(), rule: ruleInputSchema });

type Params = Record<string, unknown>;

/** Checkboxes for a set of ids; none checked means "all" where the hint says so. */
function CheckList({ legend, hint, items, selected, onChange }: { legend: string; hint?: string; items: { id: string; name: string }[]; selected: string[]; onChange: (ids: string[]) => void }) {
  if (!items.length) return null;
  return (
    <fieldset>
      <legend className="text-sm font-medium text-slate-700">{legend}</legend>
      {hint && <p className="text-xs text-slate-500">{hint}</p>}
      <div className="mt-2 flex flex-wrap gap-x-4 gap-y-2">
        {items.map((item) => (
          <label key={item.id} className="flex items-center gap-2 text-sm text-slate-700">
            <input
              type="checkbox"
              className="h-4 w-4 rounded border-slate-300"
              checked={selected.includes(item.id)}
              onChange={(e) => onChange(e.target.checked ? [...selected, item.id] : selected.filter((id) => id !== item.id))}
            />
            {item.name}
          </label>
        ))}
      </div>
    </fieldset>
  );
}

const numberOr = (value: string, fallback: number | undefined) => (value.trim() === "" ? fallback : Number(value));

export function RuleFormDialog({ rule, choices, onClose, onSaved }: { rule?: AlertRuleRow; choices: RuleChoices; onClose: () => void; onSaved: () => void }) {
  const queryClient = useQueryClient();
  const [name, setName] = useState(rule?.name ?? "");
  const [kind, setKind] = useState<RuleKind>(rule?.kind ?? "metric_change");
  const [brandId, setBrandId] = useState(rule?.brandId ?? choices.brands[0]?.id ?? "");
  const [params, setParams] = useState<Params>((rule?.params as Params | undefined) ?? {});
  const [channelIds, setChannelIds] = useState<string[]>(rule?.channels.map((c) => c.id) ?? []);
  const [enabled, setEnabled] = useState(rule?.enabled ?? true);
  // Visibility and share of voice take their smallest change in points; the rule stores a fraction.
  const [minChangeText, setMinChangeText] = useState(() => {
    const stored = Number(params.minChange ?? 0);
    return stored ? String(params.metric === "position" ? stored : Math.round(stored * 1000) / 10) : "";
  });

  const form = useActionForm(schema, async ({ ruleId, rule: input }) => (ruleId ? updateAlertRuleAction({ ruleId, rule: input }) : createAlertRuleAction(input)), {
    onSuccess: async () => {
      toast.success(rule ? "Rule saved; evaluating it now" : "Rule created; evaluating it now");
      await queryClient.invalidateQueries({ queryKey: ["alerts"] });
      onSaved();
      onClose();
    },
  });
  const error = (path: string) => form.error(`rule.${path}`) ?? form.error(path);
  const set = (key: string, value: unknown) => setParams((p) => ({ ...p, [key]: value }));
  const brand = choices.brands.find((b) => b.id === brandId);
  const metric = (params.metric as Metric | undefined) ?? "visibility";
  const brandKind = isBrandKind(kind);

  const submit = () => {
    const kindParams: Params = { ...params };
    if (kind === "metric_change") {
      kindParams.metric = metric;
      const typed = numberOr(minChangeText, 0)!;
      kindParams.minChange = metric === "position" ? typed : typed / 100;
    }
    if (kind === "budget" && typeof kindParams.thresholds === "string") {
      kindParams.thresholds = kindParams.thresholds.split(/[\s,;]+/).filter(Boolean).map(Number);
    }
    // Only what this kind takes; the schema fills in the rest.
    const keep: Record<RuleKind, string[]> = {
      metric_change: ["metric", "direction", "minChange", "minAnswers", "windowDays", "confidence", "providerConfigIds", "tags"],
      competitor_overtook: ["competitorIds", "windowDays", "confidence", "providerConfigIds", "tags"],
      new_brand: ["thresholdPercent", "windowDays", "confidence", "providerConfigIds", "tags"],
      own_page_dropped: ["minCitations", "windowDays", "confidence", "providerConfigIds", "tags"],
      breaker_open: ["minutes", "providerConfigIds"],
      budget: ["thresholds"],
    };
    const picked = Object.fromEntries(Object.entries(kindParams).filter(([k, v]) => keep[kind].includes(k) && v !== undefined && v !== ""));
    form.submit({ ruleId: rule?.id, rule: { name, kind, brandId: brandKind ? brandId : null, params: picked, channelIds, enabled } as z.input<typeof ruleInputSchema> });
  };

  const numberField = (key: string, label: string, hint: string, fallback: number, props: { min?: number; max?: number; step?: number } = {}) => (
    <Field id={`rule-${key}`} label={label} hint={hint} error={error(`params.${key}`)}>
      <Input
        id={`rule-${key}`}
        type="number"
        {...props}
        value={params[key] === undefined ? String(fallback) : String(params[key])}
        onChange={(e) => set(key, numberOr(e.target.value, undefined))}
        invalid={!!error(`params.${key}`)}
        className="max-w-32"
      />
    </Field>
  );

  const period = (
    <div className="grid gap-4 sm:grid-cols-2">
      {numberField("windowDays", "Period (days)", "The last N days against the N before.", 7, { min: 1, max: 90 })}
      <Field id="rule-confidence" label="Confidence" hint="Fires only when sampling noise alone would produce such a change less than 5 % of the time (10 % at 90 %, 1 % at 99 %)." error={error("params.confidence")}>
        <Select id="rule-confidence" value={String(params.confidence ?? 0.95)} onChange={(e) => set("confidence", Number(e.target.value))}>
          {CONFIDENCES.map((c) => (
            <option key={c} value={c}>{percentText(c)}</option>
          ))}
        </Select>
      </Field>
    </div>
  );

  return (
    <Dialog open onClose={onClose} title={rule ? `Edit ${rule.name}` : "New alert rule"} size="lg">
      <form
        noValidate
        className="space-y-5"
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <div className="grid gap-4 sm:grid-cols-2">
          <Field id="rule-name" label="Name" error={error("name")}>
            <Input id="rule-name" value={name} onChange={(e) => setName(e.target.value)} placeholder="Visibility moved" invalid={!!error("name")} />
          </Field>
          <Field id="rule-kind" label="Alert when" error={error("kind")}>
            <Select id="rule-kind" value={kind} onChange={(e) => { setKind(e.target.value as RuleKind); setParams({}); }} disabled={!!rule}>
              {RULE_KINDS.map((k) => (
                <option key={k} value={k} disabled={k === "budget" && !choices.hasBudget}>
                  {KIND_LABELS[k]}{k === "budget" && !choices.hasBudget ? " (set a budget first)" : ""}
                </option>
              ))}
            </Select>
          </Field>
        </div>

        {brandKind && (
          <Field id="rule-brand" label="Brand" error={error("brandId")}>
            <Select id="rule-brand" value={brandId} onChange={(e) => { setBrandId(e.target.value); set("competitorIds", []); }} invalid={!!error("brandId")}>
              {choices.brands.map((b) => (
                <option key={b.id} value={b.id}>{b.name}</option>
              ))}
            </Select>
          </Field>
        )}

        {kind === "metric_change" && (
          <>
            <div className="grid gap-4 sm:grid-cols-3">
              <Field id="rule-metric" label="Number" error={error("params.metric")}>
                <Select id="rule-metric" value={metric} onChange={(e) => set("metric", e.target.value)}>
                  {METRICS.map((m) => (
                    <option key={m} value={m}>{METRIC_LABELS[m]}</option>
                  ))}
                </Select>
              </Field>
              <Field id="rule-direction" label="Direction" error={error("params.direction")}>
                <Select id="rule-direction" value={String(params.direction ?? "any")} onChange={(e) => set("direction", e.target.value)}>
                  <option value="any">Any change</option>
                  <option value="worse">Only worse</option>
                  <option value="better">Only better</option>
                </Select>
              </Field>
              <Field
                id="rule-minChange"
                label={metric === "position" ? "Smallest change (places)" : "Smallest change (points)"}
                hint="Optional: real changes smaller than this stay quiet."
                error={error("params.minChange")}
              >
                <Input id="rule-minChange" type="number" min={0} step="any" value={minChangeText} onChange={(e) => setMinChangeText(e.target.value)} invalid={!!error("params.minChange")} className="max-w-32" />
              </Field>
            </div>
            {period}
            {numberField("minAnswers", "Answers needed per period", "Fewer than this in either period: no verdict.", 30, { min: 10 })}
          </>
        )}
        {kind === "competitor_overtook" && (
          <>
            {period}
            <CheckList legend="Competitors" hint="None checked: every competitor of the brand." items={brand?.competitors ?? []} selected={(params.competitorIds as string[] | undefined) ?? []} onChange={(ids) => set("competitorIds", ids)} />
          </>
        )}
        {kind === "new_brand" && (
          <>
            {period}
            {numberField("thresholdPercent", "Share of answers (%)", "Fires when an untracked name is in more than this share of answers, beyond noise.", 10, { min: 1, max: 100 })}
          </>
        )}
        {kind === "own_page_dropped" && (
          <>
            {period}
            {numberField("minCitations", "Watch pages cited in at least (answers)", "In the period before; rarer pages cannot go silent beyond chance.", 3, { min: 1 })}
          </>
        )}
        {kind === "breaker_open" && numberField("minutes", "Open for at least (minutes)", "A breaker holds calls back while a provider keeps failing.", 5, { min: 1, max: 1440 })}
        {kind === "budget" && (
          <Field id="rule-thresholds" label="Thresholds (% of the monthly budget)" hint="Comma-separated, e.g. 80, 100. Each fires once a month." error={error("params.thresholds")}>
            <Input
              id="rule-thresholds"
              value={Array.isArray(params.thresholds) ? params.thresholds.join(", ") : String(params.thresholds ?? "80, 100")}
              onChange={(e) => set("thresholds", e.target.value)}
              invalid={!!error("params.thresholds")}
            />
          </Field>
        )}

        {kind !== "budget" && (
          <CheckList legend="Providers" hint="None checked: all providers." items={choices.providers} selected={(params.providerConfigIds as string[] | undefined) ?? []} onChange={(ids) => set("providerConfigIds", ids)} />
        )}
        {brandKind && (
          <CheckList legend="Prompt tags" hint="None checked: all prompts." items={choices.tags.map((t) => ({ id: t, name: t }))} selected={(params.tags as string[] | undefined) ?? []} onChange={(tags) => set("tags", tags)} />
        )}
        {choices.channels.length ? (
          <CheckList legend="Send to" items={choices.channels.map((c) => ({ id: c.id, name: `${c.name} (${c.kind})` }))} selected={channelIds} onChange={setChannelIds} />
        ) : (
          <p className="text-sm text-slate-500">No channels yet: firings are listed here; add an email, Slack or webhook channel under Channels to be told.</p>
        )}
        {error("channelIds") && <p className="text-sm text-red-700">{error("channelIds")}</p>}

        <label className="flex items-center gap-2 text-sm text-slate-700">
          <input type="checkbox" className="h-4 w-4 rounded border-slate-300" checked={enabled} onChange={(e) => setEnabled(e.target.checked)} />
          Enabled
        </label>

        <div className="flex justify-end gap-2">
          <Button type="button" variant="secondary" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" pending={form.pending}>
            {rule ? "Save" : "Create rule"}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
