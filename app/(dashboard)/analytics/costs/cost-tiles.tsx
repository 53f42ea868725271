"use client";
import { Link } from "@/components/ui/link";
import { budgetNote, retryWasteNote } from "@/lib/analytics/cost-notes";
import { formatCount, formatMicros } from "@/lib/format";
import { KpiTile } from "@/components/charts/kpi-tile";
import { STALE_CLASSES, StaleCue } from "@/components/charts/stale-cue";
import { Card } from "@/components/ui/card";
import type { AnalyticsFilterInput } from "@/lib/analytics/schemas";
import { useChartQuery } from "../use-analytics-queries";

const LABELS = ["Spend", "Cost per accepted capture", "Retry waste", "Unknown outcomes", "This month"];

/** `canSetBudget`: the viewer may set the monthly budget (Settings, Workspace); others are told who can. */
export function CostTiles({ filter, canSetBudget }: { filter: AnalyticsFilterInput; canSetBudget: boolean }) {
  const query = useChartQuery("costs", filter);
  if (query.isError) return <Card role="alert" className="mb-6 p-4 text-sm text-red-600">Could not load costs: {query.error.message}</Card>;
  const data = query.data;
  if (query.isPending || !data) {
    return (
      <div className="mb-6 grid gap-4 sm:grid-cols-2 xl:grid-cols-5">
        {LABELS.map((label) => <KpiTile key={label} label={label} value="" loading />)}
      </div>
    );
  }
  const { totals, budget } = data;
  const usedShare = budget.limitMicros ? budget.usedMicros / budget.limitMicros : null;
  const month = budgetNote(budget);
  return (
    <>
      <div className="relative mb-6" aria-busy={query.isPlaceholderData || undefined}>
        {query.isPlaceholderData && <StaleCue />}
        <div className={`grid gap-4 sm:grid-cols-2 xl:grid-cols-5 ${query.isPlaceholderData ? STALE_CLASSES : ""}`}>
          <KpiTile label="Spend" value={formatMicros(totals.spentMicros)} n={`${formatCount(totals.attempts)} attempts`} />
          <KpiTile
            label="Cost per accepted capture"
            value={totals.costPerAcceptedMicros === null ? "—" : formatMicros(Math.round(totals.costPerAcceptedMicros), { precise: true })}
            n={`${formatCount(totals.acceptedCaptures)} accepted captures`}
          />
          <KpiTile label="Retry waste" value={formatMicros(totals.retryWasteMicros)} n={retryWasteNote(totals)}>
            <p className="mt-1 text-xs text-slate-500">What attempts without an accepted answer cost (failed, cancelled, unknown outcome).</p>
          </KpiTile>
          <KpiTile
            label="Unknown outcomes"
            value={formatCount(totals.unknownOutcomes)}
            n={`≈ ${formatMicros(totals.unknownCostMicros)} estimated`}
          >
            <p className="mt-1 text-xs text-slate-500">Timeouts after sending: the provider may have billed them.</p>
          </KpiTile>
          <KpiTile label="This month" value={month.value} n={month.note}>
            {usedShare !== null && (
              <div className="mt-2 h-2 overflow-hidden rounded-full bg-slate-100" role="meter" aria-label="Budget used" aria-valuemin={0} aria-valuemax={100} aria-valuenow={Math.round(usedShare * 100)}>
                <div className={`h-full ${usedShare > 0.9 ? "bg-red-500" : usedShare > 0.7 ? "bg-amber-500" : "bg-emerald-500"}`} style={{ width: `${Math.min(100, usedShare * 100)}%` }} />
              </div>
            )}
            <p className="mt-1 text-xs text-slate-500">
              Charged plus reserved by running checks, all brands.{" "}
              {budget.limitMicros === null &&
                (canSetBudget ? (
                  <Link href="/settings?tab=workspace" className="font-medium text-brand-700 underline underline-offset-2">
                    Set a monthly budget
                  </Link>
                ) : (
                  "An owner or admin can set a monthly budget in Settings."
                ))}
            </p>
          </KpiTile>
        </div>
      </div>
    </>
  );
}
