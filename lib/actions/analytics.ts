"use server";
import { fieldPaths, workspaceAction } from "@/lib/actions/safe-action";
import { costsDashboard } from "@/lib/analytics/costs";
import { resolveFilter } from "@/lib/analytics/filter";
import { overviewDashboard } from "@/lib/analytics/overview";
import { analyticsFilterInput, citedPagesInput } from "@/lib/analytics/schemas";
import { citedPages, sourcesDashboard } from "@/lib/analytics/sources";
import { assertCan, canView } from "@/lib/auth/permissions";

// Every member may read analytics. Each action answers null when the workspace tracks no brand
// yet, so the page can say what to do first.

export const overviewAction = workspaceAction.inputSchema(analyticsFilterInput, fieldPaths).action(async ({ parsedInput, ctx }) => {
  assertCan(canView(ctx));
  const resolved = await resolveFilter(ctx.workspace.id, parsedInput);
  return resolved && overviewDashboard(resolved);
});

export const sourcesAction = workspaceAction.inputSchema(analyticsFilterInput, fieldPaths).action(async ({ parsedInput, ctx }) => {
  assertCan(canView(ctx));
  const resolved = await resolveFilter(ctx.workspace.id, parsedInput);
  return resolved && sourcesDashboard(resolved.filter);
});

export const citedPagesAction = workspaceAction.inputSchema(citedPagesInput, fieldPaths).action(async ({ parsedInput, ctx }) => {
  assertCan(canView(ctx));
  const resolved = await resolveFilter(ctx.workspace.id, parsedInput.filter);
  return resolved && citedPages(resolved.filter, parsedInput.page, parsedInput.pageSize);
});

export const costsAction = workspaceAction.inputSchema(analyticsFilterInput, fieldPaths).action(async ({ parsedInput, ctx }) => {
  assertCan(canView(ctx));
  const resolved = await resolveFilter(ctx.workspace.id, parsedInput);
  return resolved && costsDashboard(resolved);
});
