"use server";
import { workspaceAction } from "@/lib/actions/safe-action";
import { assertCan, canCheckSiteReadiness, canView } from "@/lib/permissions/permissions";
import { readinessByDomain } from "@/lib/traffic/readiness";
import { requestSiteReadiness } from "@/lib/traffic/readiness-check";

// "Check site readiness" (docs/traffic.md): queues the check of the workspace's brand domains;
// the result appears when the worker has fetched them (readinessByDomain's `checking` says when).
export const checkSiteReadinessAction = workspaceAction.action(async ({ ctx }) => {
  assertCan(canCheckSiteReadiness(ctx), "Only admins can check site readiness.");
  await requestSiteReadiness(ctx.workspace.id);
});

/** The Traffic page's readiness card reads (and polls, while `checking`) the last check per own domain. */
export const siteReadinessAction = workspaceAction.action(async ({ ctx }) => {
  assertCan(canView(ctx));
  return readinessByDomain(ctx.workspace.id);
});
