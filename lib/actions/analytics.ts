"use server";
import { fieldPaths, workspaceAction } from "@/lib/actions/safe-action";
import { costsDashboard } from "@/lib/analytics/costs";
import { resolveFilter, type ResolvedFilter } from "@/lib/analytics/filter";
import { overviewKpis } from "@/lib/analytics/kpis";
import { promptPerformance } from "@/lib/analytics/prompts";
import { analyticsFilterInput, citedPagesInput } from "@/lib/analytics/schemas";
import { citedPages, ownDomainRate, topDomainsOverTime } from "@/lib/analytics/sources";
import { positionDistribution, shareOfVoiceOverTime, visibilityOverTime } from "@/lib/analytics/trends";
import { assertCan, canView } from "@/lib/auth/permissions";

// Every member may read analytics. One action per chart, so the slowest chart never holds the
// others (each is its own request). Each answers null when the workspace tracks no brand yet,
// so the page can say what to do first.

const chartAction = <T>(query: (resolved: ResolvedFilter) => Promise<T>) =>
  workspaceAction.inputSchema(analyticsFilterInput, fieldPaths).action(async ({ parsedInput, ctx }) => {
    assertCan(canView(ctx));
    const resolved = await resolveFilter(ctx.workspace.id, parsedInput);
    return resolved && query(resolved);
  });

export const overviewKpisAction = chartAction((r) => overviewKpis(r.filter));
export const visibilityAction = chartAction(visibilityOverTime);
export const shareOfVoiceAction = chartAction(shareOfVoiceOverTime);
export const positionsAction = chartAction(positionDistribution);
export const promptsAction = chartAction((r) => promptPerformance(r.filter));
export const topDomainsAction = chartAction((r) => topDomainsOverTime(r.filter));
export const ownDomainAction = chartAction((r) => ownDomainRate(r.filter));
export const costsAction = chartAction(costsDashboard);

export const citedPagesAction = workspaceAction.inputSchema(citedPagesInput, fieldPaths).action(async ({ parsedInput, ctx }) => {
  assertCan(canView(ctx));
  const resolved = await resolveFilter(ctx.workspace.id, parsedInput.filter);
  return resolved && citedPages(resolved.filter, parsedInput.page, parsedInput.pageSize);
});
