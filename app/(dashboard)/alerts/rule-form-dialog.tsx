"use client";
import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { toast } from "@/lib/browser/toast";
import { z } from "zod";
import { useActionForm } from "@/components/forms/use-action-form";
import { Dialog, FormActions } from "@/components/ui/dialog";
import { Field, Input, Select } from "@/components/ui/field";
import { createAlertRuleAction, updateAlertRuleAction } from "@/lib/actions/alerts";
import { ALERT_KINDS, kindOf, type RuleKind } from "@/lib/alerts/kinds";
import type { FormParams } from "@/lib/alerts/kinds/kind";
import type { AlertRuleRow, RuleChoices } from "@/lib/alerts/rules";
import { ruleInputSchema } from "@/lib/alerts/schemas";
import { brandBoundKeys, CheckList, formParams, KindFields, paramsToSubmit } from "./rule-form-fields";

const schema = z.object({ ruleId: z.uuid().optional(), version: z.number().optional(), rule: ruleInputSchema });

export function RuleFormDialog({ rule, choices, onClose, onSaved }: { rule?: AlertRuleRow; choices: RuleChoices; onClose: () => void; onSaved: () => void }) {
  const queryClient = useQueryClient();
  const [name, setName] = useState(rule?.name ?? "");
  const [kind, setKind] = useState<RuleKind>(rule?.kind ?? "metric_change");
  const [brandId, setBrandId] = useState(rule?.brandId ?? choices.brands[0]?.id ?? "");
  const [params, setParams] = useState<FormParams>(() => (rule ? formParams(kindOf(rule.kind), rule.params) : {}));
  const [channelIds, setChannelIds] = useState<string[]>(rule?.channels.map((c) => c.id) ?? []);
  const [enabled, setEnabled] = useState(rule?.enabled ?? true);
  // One key per dialog: a resubmit after a lost response finds the rule the first made.
  const [createKey] = useState(() => crypto.randomUUID());
  const kindModule = kindOf(kind);

  const form = useActionForm(schema, async ({ ruleId, version, rule: input }) => (ruleId ? updateAlertRuleAction({ ruleId, version, rule: input }) : createAlertRuleAction({ ...input, createKey })), {
    onSuccess: async () => {
      toast.success(rule ? "Rule saved; evaluating it now" : "Rule created; evaluating it now");
      await queryClient.invalidateQueries({ queryKey: ["alerts"] });
      onSaved();
      onClose();
    },
    reloadOnConflict: ["alerts"],
  });
  const error = (path: string) => form.error(`rule.${path}`) ?? form.error(path);
  const set = (key: string, value: unknown) => setParams((p) => ({ ...p, [key]: value }));
  const brandKind = kindModule.scope === "brand";

  const submit = () => {
    const input = { name, kind, brandId: brandKind ? brandId : null, params: paramsToSubmit(kindModule, params), channelIds, enabled };
    // As opened: a save after another admin's change (or its switch) is refused instead of undoing it.
    form.submit({ ruleId: rule?.id, version: rule?.editVersion, rule: input as z.input<typeof ruleInputSchema> });
  };

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
              {ALERT_KINDS.map((k) => (
                <option key={k.name} value={k.name} disabled={k.needsBudget && !choices.hasBudget}>
                  {k.label}{k.needsBudget && !choices.hasBudget ? " (set a budget first)" : ""}
                </option>
              ))}
            </Select>
          </Field>
        </div>

        {brandKind && (
          <Field id="rule-brand" label="Brand" error={error("brandId")}>
            <Select id="rule-brand" value={brandId} onChange={(e) => { setBrandId(e.target.value); for (const key of brandBoundKeys(kindModule)) set(key, []); }} invalid={!!error("brandId")}>
              {choices.brands.map((b) => (
                <option key={b.id} value={b.id}>{b.name}</option>
              ))}
            </Select>
          </Field>
        )}

        {kindModule.form.map((row) => (
          <KindFields key={"type" in row ? row.key : row.map((f) => f.key).join()} row={row} kind={kindModule} params={params} choices={choices} brandId={brandId} set={set} error={error} />
        ))}
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

        <FormActions onCancel={onClose} pending={form.pending} submitLabel={rule ? "Save" : "Create rule"} />
      </form>
    </Dialog>
  );
}
