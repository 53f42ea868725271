"use client";
import { useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { toast } from "@/lib/browser/toast";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Field, Input } from "@/components/ui/field";
import { useActionForm } from "@/components/forms/use-action-form";
import { updateWorkspaceSettingsAction } from "@/lib/actions/settings";
import type { BudgetStatus } from "@/lib/billing/budget";
import { formatMicros } from "@/lib/format";
import { workspaceSettingsSchema } from "@/lib/workspaces/schemas";
import { z } from "zod";
import { formatDecimal, parseDecimal } from "@/lib/validation/decimal";
import { SectionHeading } from "@/components/ui/section-heading";
import { useWorkspaceSettingsQuery, workspaceSettingsKey } from "./use-settings-queries";

const schema = workspaceSettingsSchema.extend({ version: z.date().optional() });

function UsageBar({ budget }: { budget: BudgetStatus }) {
  const { limitMicros, reservedMicros, chargedMicros, leftMicros } = budget;
  // Without a limit the bar has no scale; the amounts alone say what was spent.
  const scale = limitMicros ? Math.max(limitMicros, chargedMicros + reservedMicros) : 0;
  const pct = (micros: number) => (scale ? `${(micros / scale) * 100}%` : "0%");
  const summary =
    limitMicros === null
      ? `${formatMicros(chargedMicros)} charged and ${formatMicros(reservedMicros)} reserved this month, no limit`
      : `${formatMicros(chargedMicros)} charged and ${formatMicros(reservedMicros)} reserved of ${formatMicros(limitMicros)}; ${formatMicros(leftMicros ?? 0)} left`;
  return (
    <div className="space-y-2">
      <h3 className="text-sm font-medium text-slate-700">This month (UTC)</h3>
      {scale > 0 && (
        <div role="img" aria-label={summary} className="flex h-2.5 overflow-hidden rounded-full bg-slate-100 ring-1 ring-inset ring-slate-200">
          <div className="bg-brand-600" style={{ width: pct(chargedMicros) }} />
          <div className="bg-brand-500/40" style={{ width: pct(reservedMicros) }} />
        </div>
      )}
      <dl className="flex flex-wrap gap-x-6 gap-y-1 text-sm">
        <div className="flex items-center gap-1.5">
          <span className="size-2.5 rounded-full bg-brand-600" aria-hidden />
          <dt className="text-slate-500">Charged</dt>
          <dd className="font-medium tabular-nums text-slate-900">{formatMicros(chargedMicros)}</dd>
        </div>
        <div className="flex items-center gap-1.5">
          <span className="size-2.5 rounded-full bg-brand-500/40" aria-hidden />
          <dt className="text-slate-500">Reserved by running checks</dt>
          <dd className="font-medium tabular-nums text-slate-900">{formatMicros(reservedMicros)}</dd>
        </div>
        <div className="flex items-center gap-1.5">
          <span className="size-2.5 rounded-full bg-slate-200" aria-hidden />
          <dt className="text-slate-500">Left</dt>
          <dd className="font-medium tabular-nums text-slate-900">{leftMicros === null ? "no limit" : formatMicros(leftMicros)}</dd>
        </div>
      </dl>
    </div>
  );
}

/** `version`: the row's updatedAt as read; a save after another admin's change is refused (and the form reloads). */
function WorkspaceForm({ name, limitMicros, version }: { name: string; limitMicros: number | null; version: Date }) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const [budgetError, setBudgetError] = useState<string>();
  const form = useActionForm(schema, updateWorkspaceSettingsAction, {
    onSuccess: async () => {
      toast.success("Workspace settings saved");
      await queryClient.invalidateQueries({ queryKey: workspaceSettingsKey });
      // The sidebar's workspace switcher shows the name and is rendered on the server.
      router.refresh();
    },
    reloadOnConflict: workspaceSettingsKey,
  });
  const error = (field: string) => (field === "monthlyBudgetUsd" && budgetError) || form.error(field);

  return (
    <form
      noValidate
      className="flex flex-wrap items-start gap-3"
      onSubmit={(event) => {
        event.preventDefault();
        const data = new FormData(event.currentTarget);
        const budgetText = String(data.get("monthlyBudgetUsd")).trim().replace(/^\$/, "");
        // Cents are the finest a budget needs; the server stores micro-dollars.
        const parsed = budgetText ? parseDecimal(budgetText, 2) : null;
        setBudgetError(parsed?.error);
        form.submit({ name: String(data.get("name")), monthlyBudgetUsd: parsed ? parsed.value / 100 : null, version });
      }}
    >
      <div className="min-w-64 max-w-md flex-1">
        <Field id="workspace-name" label="Workspace name" error={error("name")}>
          <Input id="workspace-name" name="name" defaultValue={name} invalid={!!error("name")} />
        </Field>
      </div>
      <div className="w-48">
        <Field id="workspace-budget" label="Monthly budget (USD)" hint="Leave empty for no limit" error={error("monthlyBudgetUsd")}>
          <Input
            id="workspace-budget"
            name="monthlyBudgetUsd"
            inputMode="decimal"
            autoComplete="off"
            placeholder="No limit"
            defaultValue={limitMicros === null ? "" : formatDecimal(Math.round(limitMicros / 10_000), 2)}
            invalid={!!error("monthlyBudgetUsd")}
          />
        </Field>
      </div>
      <Button type="submit" className="mt-6" pending={form.pending}>
        Save
      </Button>
    </form>
  );
}

export function WorkspaceSection() {
  const query = useWorkspaceSettingsQuery();
  return (
    <section aria-labelledby="workspace-heading" className="space-y-3">
      <SectionHeading id="workspace-heading" title="Workspace" description="Checks that would go over the monthly budget are refused before they start." />
      <Card className="space-y-5 p-5">
        {query.isPending ? (
          <p className="text-sm text-slate-500">Loading workspace settings…</p>
        ) : query.isError ? (
          <p className="text-sm text-red-600">Could not load workspace settings: {query.error.message}</p>
        ) : (
          <>
            {/* Keyed by the row's version: its fields show the settings as they are after any save, this tab's or another's. */}
            <WorkspaceForm key={new Date(query.data.updatedAt).getTime()} name={query.data.name} limitMicros={query.data.budget.limitMicros} version={query.data.updatedAt} />
            <UsageBar budget={query.data.budget} />
          </>
        )}
      </Card>
    </section>
  );
}
