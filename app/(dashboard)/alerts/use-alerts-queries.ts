"use client";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { listAlertFiringsAction, listAlertRulesAction } from "@/lib/actions/alerts";
import type { AlertRuleRow, FiringsPage } from "@/lib/alerts/rules";
import { unwrap } from "@/lib/browser/action-result";

export const alertRulesKey = ["alerts", "rules"] as const;
export const alertFiringsKey = (page: number) => ["alerts", "firings", page] as const;

/** While an evaluation was asked for and not every rule has run since: poll every 1.5 s. */
const waiting = (rules: AlertRuleRow[] | undefined, since: number | null) =>
  since !== null && Date.now() - since < 60_000 && (rules ?? []).some((r) => r.enabled && (!r.lastEvaluatedAt || new Date(r.lastEvaluatedAt).getTime() < since - 1_000));

export function useAlertRulesQuery(initialData: AlertRuleRow[], evaluationRequestedAt: number | null) {
  return useQuery({
    queryKey: alertRulesKey,
    queryFn: async () => unwrap(await listAlertRulesAction()),
    initialData,
    refetchInterval: (query) => (waiting(query.state.data, evaluationRequestedAt) ? 1_500 : 60_000),
  });
}

/** Firings, a page at a time; every 1.5 s for half a minute after an evaluation was asked for. */
export function useAlertFiringsQuery(page: number, initialData: FiringsPage | undefined, evaluationRequestedAt: number | null) {
  return useQuery({
    queryKey: alertFiringsKey(page),
    queryFn: async () => unwrap(await listAlertFiringsAction({ page })),
    initialData: page === 1 ? initialData : undefined,
    placeholderData: keepPreviousData,
    refetchInterval: () => (evaluationRequestedAt !== null && Date.now() - evaluationRequestedAt < 30_000 ? 1_500 : 60_000),
  });
}
