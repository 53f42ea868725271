"use client";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import dynamic from "next/dynamic";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { toast } from "@/lib/browser/toast";
import { formatCount, formatWhen } from "@/lib/format";
import { Button } from "@/components/ui/button";
import { useConfirm } from "@/components/ui/confirm-dialog";
import { Badge, Card, EmptyState, PageHeader } from "@/components/ui/card";
import { AlertsNav } from "./alerts-nav";
import { DataTable } from "@/components/ui/data-table";
import { Pagination } from "@/components/ui/pagination";
import { actionsColumn, type Column } from "@/components/ui/table-columns";
import { deleteAlertRuleAction, evaluateAlertsNowAction, setAlertRuleEnabledAction } from "@/lib/actions/alerts";
import { trackCompetitorAction } from "@/lib/actions/brands";
import { kindOf } from "@/lib/alerts/kinds";
import { METRIC_LABELS, type SampleSizeHint } from "@/lib/alerts/kinds/kind";
import { sensitivityNote } from "@/lib/alerts/sensitivity";
import type { AlertRuleRow, FiringsPage, RuleChoices } from "@/lib/alerts/rules";
import { unwrap } from "@/lib/browser/action-result";
import { alertRulesKey, useAlertFiringsQuery, useAlertRulesQuery } from "./use-alerts-queries";

// The rule form loads when first opened: its code and schemas would otherwise ship with the page.
const RuleFormDialog = dynamic(() => import("./rule-form-dialog").then((m) => m.RuleFormDialog), { ssr: false });

/**
 * "A 5-point change ... needs about N answers per period": how sensitive the rule is at the current
 * volume. Not a verdict on the change that happened (the status beside it says that).
 */
function HintText({ hint, days, fired }: { hint: SampleSizeHint; days: number; fired: boolean }) {
  const size = hint.metric === "position" ? `${hint.change} place${hint.change === 1 ? "" : "s"}` : `${Math.round(hint.change * 1000) / 10}-point`;
  if (hint.answersPerPeriod === null) return <>Not enough answers yet to estimate how many a {size} change needs.</>;
  const note = sensitivityNote(hint, fired);
  return (
    <>
      Sensitivity: to catch a {size} change in {METRIC_LABELS[hint.metric].toLowerCase()} takes about <strong>{formatCount(hint.answersPerPeriod)}</strong> answers per {days}-day period
      {hint.samplesPerPromptAndProvider !== null && (
        <>
          {" "}(≈ {formatCount(hint.samplesPerPromptAndProvider)} samples per prompt and provider over {hint.prompts} prompt{hint.prompts === 1 ? "" : "s"} × {hint.providers} provider{hint.providers === 1 ? "" : "s"})
        </>
      )}
      ; the last period had {formatCount(hint.answersLastPeriod)}. <span className={note.enough ? "text-emerald-700" : "text-amber-700"}>{note.text}</span>
    </>
  );
}

const STATUS_TONES = { fired: "red", quiet: "green", too_few_answers: "amber", waiting: "slate", error: "red" } as const;
const STATUS_LABELS = { fired: "fired", quiet: "quiet", too_few_answers: "too few answers", waiting: "waiting for re-analysis", error: "error" } as const;

function RuleStatus({ rule }: { rule: AlertRuleRow }) {
  const result = rule.lastResult;
  if (!rule.enabled) return <Badge tone="slate">disabled</Badge>;
  if (!result) return <span className="text-xs text-slate-500">Not evaluated yet</span>;
  return (
    <div className="space-y-1">
      <Badge tone={STATUS_TONES[result.status]}>{STATUS_LABELS[result.status]}</Badge>
      <p className="max-w-md text-xs text-slate-600">{result.message}</p>
      <p className="text-xs text-slate-400" suppressHydrationWarning>evaluated {formatWhen(result.at)}</p>
    </div>
  );
}

/** "Track it" on a firing about an untracked name: adds it as a competitor of the rule's brand. */
function TrackIt({ brandId, name, tracked }: { brandId: string; name: string; tracked: boolean }) {
  const router = useRouter();
  const track = useMutation({
    mutationFn: async () => unwrap(await trackCompetitorAction({ brandId, name })),
    onSuccess: () => {
      toast.success(`${name} is now tracked as a competitor; past answers are being re-analysed`);
      router.refresh();
    },
    onError: (error) => toast.error(error.message),
  });
  if (tracked || track.isSuccess) return <Badge tone="green">tracked</Badge>;
  return (
    <Button size="sm" variant="secondary" pending={track.isPending} onClick={() => track.mutate()}>
      Track {name}
    </Button>
  );
}

function Firings({ initial, evaluationRequestedAt, choices, canTrack }: { initial: FiringsPage; evaluationRequestedAt: number | null; choices: RuleChoices; canTrack: boolean }) {
  const [page, setPage] = useState(1);
  const { data = initial } = useAlertFiringsQuery(page, initial, evaluationRequestedAt);
  const isTracked = (brandId: string, name: string) =>
    !!choices.brands.find((b) => b.id === brandId)?.competitors.some((c) => c.name.toLocaleLowerCase() === name.toLocaleLowerCase());
  return (
    <section aria-labelledby="firings-heading" className="mt-8">
      <h2 id="firings-heading" className="mb-3 text-base font-semibold text-slate-900">Firings</h2>
      {data.items.length === 0 ? (
        <EmptyState title="Nothing has fired" description="When a rule sees a change beyond sampling noise, it is listed here with the numbers behind it and sent to the rule's channels." />
      ) : (
        <Card>
          <ul className="divide-y divide-slate-100">
            {data.items.map((f) => (
              <li key={f.id} className="px-4 py-3">
                <div className="flex flex-wrap items-baseline justify-between gap-2">
                  <p className="font-medium text-slate-900">{f.title}</p>
                  <time className="text-xs text-slate-500" dateTime={new Date(f.firedAt).toISOString()} suppressHydrationWarning>
                    {formatWhen(f.firedAt)}
                  </time>
                </div>
                <p className="mt-1 text-sm text-slate-600">{f.summary}</p>
                {canTrack && f.rule.kind === "new_brand" && f.rule.brandId && typeof f.facts.name === "string" && (
                  <div className="mt-2">
                    <TrackIt brandId={f.rule.brandId} name={f.facts.name} tracked={isTracked(f.rule.brandId, f.facts.name)} />
                  </div>
                )}
                <p className="mt-1 text-xs text-slate-500">
                  {f.rule.name}
                  {f.deliveries.total > 0 && ` · sent to ${f.deliveries.delivered} of ${f.deliveries.total} channel${f.deliveries.total === 1 ? "" : "s"}${f.deliveries.failed ? `, ${f.deliveries.failed} failed` : ""}`}
                </p>
              </li>
            ))}
          </ul>
          <Pagination page={data.page} pageSize={data.pageSize} total={data.total} onPage={setPage} noun="firings" label="Firings pages" />
        </Card>
      )}
    </section>
  );
}

export function AlertsPage({
  initialRules,
  initialFirings,
  choices,
  canManage,
  canTrack,
}: {
  initialRules: AlertRuleRow[];
  initialFirings: FiringsPage;
  choices: RuleChoices;
  canManage: boolean;
  /** May add competitors (the firings of untracked names offer "Track it"). */
  canTrack: boolean;
}) {
  const queryClient = useQueryClient();
  const [ask, confirmDialog] = useConfirm();
  const [requestedAt, setRequestedAt] = useState<number | null>(null);
  const { data: rules = initialRules } = useAlertRulesQuery(initialRules, requestedAt);
  const [editing, setEditing] = useState<AlertRuleRow | "new" | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: ["alerts"] });

  const toggle = useMutation({
    mutationFn: async (rule: AlertRuleRow) => unwrap(await setAlertRuleEnabledAction({ ruleId: rule.id, enabled: !rule.enabled })),
    onSuccess: refresh,
    onError: (error) => toast.error(error.message),
  });
  const remove = useMutation({
    mutationFn: async (ruleId: string) => unwrap(await deleteAlertRuleAction({ ruleId })),
    onSuccess: async () => {
      toast.success("Rule deleted");
      await refresh();
    },
    onError: (error) => toast.error(error.message),
  });
  const evaluate = useMutation({
    mutationFn: async () => unwrap(await evaluateAlertsNowAction()),
    onSuccess: () => {
      toast.success("Evaluating the rules now");
      setRequestedAt(Date.now());
      void queryClient.invalidateQueries({ queryKey: alertRulesKey });
    },
    onError: (error) => toast.error(error.message),
  });

  const columns: Column<AlertRuleRow>[] = [
    {
      id: "rule",
      header: "Rule",
      className: "min-w-56",
      cell: (rule) => (
        <>
          <p className="font-medium text-slate-900">{rule.name}</p>
          <p className="text-xs text-slate-500">{kindOf(rule.kind).label}</p>
          <p className="text-xs text-slate-500">{kindOf(rule.kind).describe(rule.params, rule.brandName)}</p>
          {rule.lastResult?.hint && (
            <p className="mt-1 max-w-md text-xs text-slate-600" data-testid="sample-size-hint">
              <HintText hint={rule.lastResult.hint} days={(rule.params as { windowDays: number }).windowDays} fired={rule.firings > 0 || rule.lastResult.status === "fired"} />
            </p>
          )}
        </>
      ),
    },
    { id: "evaluation", header: "Last evaluation", cell: (rule) => <RuleStatus rule={rule} /> },
    {
      id: "channels",
      header: "Channels",
      className: "text-slate-700",
      cell: (rule) => (
        <>
          {rule.channels.length ? rule.channels.map((c) => c.name).join(", ") : <span className="text-slate-400">None</span>}
          <p className="text-xs text-slate-500">{rule.firings} firing{rule.firings === 1 ? "" : "s"}</p>
        </>
      ),
    },
    ...(canManage
      ? [
          actionsColumn<AlertRuleRow>((rule) => (
            <div className="flex justify-end gap-1">
              <Button variant="secondary" size="sm" aria-label={`Edit ${rule.name}`} onClick={() => setEditing(rule)}>
                Edit
              </Button>
              <Button
                variant="ghost"
                size="sm"
                aria-label={`${rule.enabled ? "Disable" : "Enable"} ${rule.name}`}
                pending={toggle.isPending && toggle.variables?.id === rule.id}
                onClick={() => toggle.mutate(rule)}
              >
                {rule.enabled ? "Disable" : "Enable"}
              </Button>
              <Button
                variant="ghost"
                size="sm"
                aria-label={`Delete ${rule.name}`}
                pending={remove.isPending && remove.variables === rule.id}
                onClick={() => ask({ title: "Delete alert rule?", body: `Delete the rule "${rule.name}" and its firings?`, confirmLabel: "Delete", destructive: true }, () => remove.mutate(rule.id))}
              >
                Delete
              </Button>
            </div>
          )),
        ]
      : []),
  ];

  const cannotCreate = !choices.brands.length ? "Add a brand first." : null;
  const actions = canManage && (
    <>
      {rules.length > 0 && (
        <Button variant="secondary" pending={evaluate.isPending} onClick={() => evaluate.mutate()}>
          Evaluate now
        </Button>
      )}
      <Button onClick={() => setEditing("new")} disabled={!!cannotCreate} title={cannotCreate ?? undefined}>
        New rule
      </Button>
    </>
  );

  return (
    <>
      {confirmDialog}
      <PageHeader
        title="Alerts"
        tabs={<AlertsNav />}
        description="Rules that tell you when a number changed by more than sampling noise explains, a competitor overtook you, a new brand shows up, your pages stop being cited, a provider is down or the budget runs out. Evaluated after each check, daily, and every minute for breakers and the budget."
        actions={actions}
      />
      {!canManage && <p className="mb-4 text-sm text-slate-500">Only admins can create or change alert rules.</p>}
      {rules.length === 0 ? (
        <EmptyState title="No alert rules yet" description={cannotCreate ?? "Start with “a number changed beyond noise” on your brand's visibility: it stays quiet on day-to-day sampling noise and fires on real changes."} action={actions} />
      ) : (
        <Card className="overflow-hidden">
          <DataTable rows={rules} columns={columns} rowKey={(rule) => rule.id} label="Alert rules" alignTop />
        </Card>
      )}
      <Firings initial={initialFirings} evaluationRequestedAt={requestedAt} choices={choices} canTrack={canTrack} />
      {editing && <RuleFormDialog rule={editing === "new" ? undefined : editing} choices={choices} onClose={() => setEditing(null)} onSaved={() => setRequestedAt(Date.now())} />}
    </>
  );
}
